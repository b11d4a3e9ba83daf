// output/html/page_style.hpp — the inline stylesheet and scripts of the HTML report.
// Contract: plain constant text with no external reference. kErrorScript must run before any
// other script (it records script errors on <body> for the browser test); kPageScript runs at
// the end of <body> (timeline zoom and the data-ready / data-load-ms / data-plots attributes,
// page.hpp).
#pragma once

#include <string_view>

namespace npkit::html {

extern const std::string_view kPageStyle;
extern const std::string_view kErrorScript;
extern const std::string_view kPageScript;

}  // namespace npkit::html
