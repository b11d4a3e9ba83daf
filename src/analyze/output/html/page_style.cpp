#include "output/html/page_style.hpp"

namespace npkit::html {

const std::string_view kPageStyle = R"css(
:root{color-scheme:light}
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;
color:#1d2330;background:#fff;margin:0}
header,main,footer{max-width:1000px;margin:0 auto;padding:0 20px}
header{padding-top:18px}
h1{font-size:22px;margin:0 0 2px}
h2{font-size:18px;margin:28px 0 8px;padding-top:8px;border-top:1px solid #dde2ea}
h3{font-size:15px;margin:0 0 2px}
.subtitle{color:#556;margin:0 0 10px}
table{border-collapse:collapse;font-size:12.5px;margin:6px 0 12px}
table.facts th{text-align:left;font-weight:600;padding:1px 14px 1px 0;vertical-align:top;color:#445}
table.facts td{padding:1px 0;word-break:break-all}
table.data caption{text-align:left;font-weight:600;padding:4px 0;caption-side:top}
table.data th,table.data td{border-bottom:1px solid #e3e7ee;padding:2px 8px;white-space:nowrap}
table.data th{background:#f3f5f9;text-align:left}
table.data td.num{text-align:right;font-variant-numeric:tabular-nums}
table.data tbody tr:hover{background:#fff6d8}
.table-wrap{overflow-x:auto}
.warnings{background:#fff4e5;border-left:4px solid #f28e2b;padding:6px 12px;margin:10px 0}
.reduction{background:#eef4fb;border-left:4px solid #4e79a7;padding:6px 12px;margin:10px 0}
.warnings ul,.reduction ul{margin:4px 0;padding-left:18px}
nav ol{margin:4px 0;padding-left:20px;columns:2}
figure{margin:10px 0 18px}
figcaption .note{color:#4a5263;margin:2px 0 6px;font-size:12.5px}
svg.plot{width:100%;max-width:960px;height:auto;display:block;font-family:inherit}
svg.plot text{font-size:11px;fill:#333}
svg.plot .axis-title{font-size:12px;fill:#222}
svg.plot .empty{font-size:14px;fill:#888}
svg.plot .plot-note{fill:#777}
svg.plot .grid{stroke:#eceff3;stroke-width:1}
svg.plot .axis-line,svg.plot .tick{stroke:#667;stroke-width:1}
svg.plot .series-line{fill:none;stroke-width:2}
svg.plot .marker{stroke:#888;stroke-width:1.2;stroke-dasharray:4 3}
svg.plot .marker-label{fill:#555}
svg.plot .zero-line{stroke:#333;stroke-width:1}
svg.plot .noise{opacity:.8}
svg.plot .bar:hover,svg.plot .cell:hover,svg.plot .point:hover,svg.plot .span:hover{stroke:#111;stroke-width:1.5}
svg.plot .span{vector-effect:non-scaling-stroke}
svg.plot .group-label{font-weight:600}
svg.timeline{cursor:grab}
.hint{color:#667;font-size:12px}
ul.findings{padding-left:0;list-style:none}
ul.findings>li{border-left:4px solid #4e79a7;background:#f7f9fc;margin:8px 0;padding:6px 12px}
ul.findings>li.severity-warning{border-color:#e15759}
ul.findings .evidence{margin:4px 0;padding-left:18px}
ul.findings .next-step{margin:2px 0;color:#333}
footer{color:#778;font-size:12px;margin-top:30px;padding-bottom:24px;border-top:1px solid #dde2ea}
)css";

const std::string_view kErrorScript = R"js(
window.addEventListener('error',function(e){document.documentElement.setAttribute('data-js-error',String(e.message||e.type));
if(document.body)document.body.setAttribute('data-js-error',String(e.message||e.type));});
)js";

const std::string_view kPageScript = R"js(
(function(){
'use strict';
function ticks(lo,hi){var r=hi-lo,out=[];if(!(r>0))return[lo];var raw=r/5,m=Math.pow(10,Math.floor(Math.log10(raw))),f=raw/m,
s=(f<=1?1:f<=2?2:f<=5?5:10)*m;for(var v=Math.ceil(lo/s-1e-9)*s;v<=hi+s*1e-9;v+=s)out.push(Math.abs(v)<s*1e-9?0:v);return out;}
function num(v){return String(+v.toPrecision(3));}
function dur(ns){var a=Math.abs(ns);return a<1e3?num(ns)+' ns':a<1e6?num(ns/1e3)+' us':a<1e9?num(ns/1e6)+' ms':num(ns/1e9)+' s';}
function timeline(svg){
var d=svg.querySelector('desc.tl-domain'),view=svg.querySelector('svg.tl-view'),axis=svg.querySelector('g.tl-axis');
if(!d||!view||!axis)return;
var lo=+d.getAttribute('data-lo'),hi=+d.getAttribute('data-hi'),L=+d.getAttribute('data-left'),
W=+d.getAttribute('data-width'),T=+d.getAttribute('data-top'),H=+d.getAttribute('data-height'),x0=0,w=W,drag=null;
function apply(){view.setAttribute('viewBox',x0+' 0 '+w+' '+H);var a=lo+(hi-lo)*x0/W,b=lo+(hi-lo)*(x0+w)/W,h='';
ticks(a,b).forEach(function(t){var x=(L+(t-a)/(b-a)*W).toFixed(1);h+='<line class="grid" x1="'+x+'" y1="'+(T-4)+'" x2="'+x+
'" y2="'+(T+H)+'"/><text class="tick-label" x="'+x+'" y="'+(T-8)+'" text-anchor="middle">'+dur(t)+'</text>';});axis.innerHTML=h;}
function frac(e){var r=svg.getBoundingClientRect(),vb=svg.viewBox.baseVal;return ((e.clientX-r.left)*vb.width/r.width-L)/W;}
svg.addEventListener('wheel',function(e){var f=frac(e);if(f<0||f>1)return;e.preventDefault();var c=x0+f*w;
w=Math.min(W,Math.max(W/2e4,w*(e.deltaY<0?0.8:1.25)));x0=Math.min(W-w,Math.max(0,c-f*w));apply();},{passive:false});
svg.addEventListener('mousedown',function(e){drag={f:frac(e),x0:x0};});
window.addEventListener('mouseup',function(){drag=null;});
svg.addEventListener('mousemove',function(e){if(!drag)return;x0=Math.min(W-w,Math.max(0,drag.x0-(frac(e)-drag.f)*w));apply();});
svg.addEventListener('dblclick',function(){x0=0;w=W;apply();});}
document.querySelectorAll('svg.timeline').forEach(timeline);
window.addEventListener('load',function(){var b=document.body,p=[];
document.querySelectorAll('svg.plot').forEach(function(s){var r=s.getBoundingClientRect();
p.push([r.left+window.scrollX,r.top+window.scrollY,r.width,r.height].map(Math.round).join(','));});
b.setAttribute('data-plots',p.join(';'));b.setAttribute('data-page-height',String(document.documentElement.scrollHeight));
b.setAttribute('data-load-ms',String(Math.round(performance.now())));b.setAttribute('data-ready','1');});
})();
)js";

}  // namespace npkit::html
