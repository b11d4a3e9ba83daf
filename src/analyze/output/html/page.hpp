// output/html/page.hpp — assembles a ReportModel into one self-contained HTML page.
// Contract:
// - The page needs nothing else: inline CSS, inline SVG plots, a small inline script; no
//   network access, no external file. Every plot and table is static markup, readable without
//   script (tooltips are SVG <title> elements). The script only zooms and pans timelines (mouse
//   wheel, drag, double-click to reset) and, for tests and tools, records on <body>: a script
//   error in data-js-error (the error handler is installed first, in <head>), and once loaded
//   data-ready="1", data-load-ms (ms from navigation start to the load event plus layout),
//   data-page-height and data-plots ("left,top,width,height;..." of every plot, page pixels).
// - Order: title, run facts, warnings, what was aggregated or sampled (ReportModel::reduction),
//   a contents list, the sections in model order with their blocks in order, a footer with the
//   npkit-analyze version. Every text of the model is escaped.
// - Blocks: a paragraph is a <p>; a table a <table class="data"> (numeric cells right-aligned)
//   with its title as caption; a plot a <figure> with the plot's title, its note and the SVG; a
//   finding list a <ul class="findings"> (or its empty text). Stacked bars and timelines colour
//   their categories from one ColourBook per page, so a phase has one colour on every chart.
#pragma once

#include <string>

#include "output/html/report_model.hpp"
#include "output/html/svg.hpp"

namespace npkit::html {

std::string render_report_html(const ReportModel& model);

// One block as the page shows it (also used by tests and by other pages).
void render_block(const Block& block, std::string& out, ColourBook* colours = nullptr);

}  // namespace npkit::html
