# One browser test of the HTML report, run by ctest as `cmake -D... -P run_browser_test.cmake`:
#   [GENERATOR + GENERATOR_ARGS: write the input first]
#   ANALYZER SUBCOMMAND INPUT --format html -o OUT_DIR/NAME.html [REPORT_ARGS]
#   (SUBCOMMAND: report by default, or diff with the candidate in REPORT_ARGS)
#   CHROMIUM (headless) loads the page once, dumping the DOM and taking a screenshot, and loads
#   a copy of it with every data mark hidden (NAME.bare.html: points, lines, bars, cells and
#   spans get visibility: hidden, so the layout stays) for a second screenshot
#   CHECKER check: no script error, loaded, exactly PLOTS plots, each text of TEXT ("A|B|...")
#   in the page, no plot blank (a plot must differ from its bare screenshot: data marks drawn)
#   but those NO_DATA_PLOTS ("I,J": the plots a capture has nothing to show in),
#   and optional limits MAX_BYTES (page size) and MAX_LOAD_MS (navigation start to load +
#   layout)
#   HIDE_DATA (the detector's own test): the page itself has its data marks hidden, a synthetic
#   blank page with real axes, gridlines, legends and text; EXPECT_FAILURE is a regex the
#   checker's error output must match, and the test passes only when the check fails so
# A plot below the screenshot makes the checker ask for a taller window: the load is repeated
# with the page's own height. A load slower than MAX_LOAD_MS is repeated too, up to three loads
# in all: the best of three is what the limit applies to (one slow load on a busy machine says
# little about the page). The page, DOM and screenshots stay in OUT_DIR for inspection.
cmake_minimum_required(VERSION 3.25)

foreach(var ANALYZER CHROMIUM CHECKER INPUT OUT_DIR NAME PLOTS)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "run_browser_test.cmake: ${var} is not set")
  endif()
endforeach()
if(NOT DEFINED SUBCOMMAND)
  set(SUBCOMMAND report)
endif()

file(MAKE_DIRECTORY "${OUT_DIR}")
set(html "${OUT_DIR}/${NAME}.html")
set(dom "${OUT_DIR}/${NAME}.dom.html")
set(png "${OUT_DIR}/${NAME}.png")
set(bare_html "${OUT_DIR}/${NAME}.bare.html")
set(bare_png "${OUT_DIR}/${NAME}.bare.png")
file(REMOVE "${html}" "${dom}" "${png}" "${bare_html}" "${bare_png}")
# What the renderer draws data with (src/analyze/render/html): everything else in a plot is
# axes, gridlines, bands, legends and text. A new kind of mark missing here makes its plots
# look blank, so the list cannot fall behind silently.
set(hide_marks "<style>svg.plot .point,svg.plot .series-line,svg.plot .bar,svg.plot .span,\
svg.plot .cell:not(.missing){visibility:hidden}</style></head>")

if(DEFINED GENERATOR)
  string(REPLACE "|" ";" generator_args "${GENERATOR_ARGS}")
  execute_process(COMMAND "${GENERATOR}" ${generator_args} RESULT_VARIABLE rc
                  OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "generator failed (${rc}): ${out}${err}")
  endif()
  message(STATUS "${out}")
endif()

string(REPLACE "|" ";" report_args "${REPORT_ARGS}")
string(TIMESTAMP t0 "%s")
execute_process(COMMAND "${ANALYZER}" ${SUBCOMMAND} "${INPUT}" --format html -o "${html}" -q
                        ${report_args}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
string(TIMESTAMP t1 "%s")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "npkit-analyze ${SUBCOMMAND} --format html failed (${rc}): ${out}${err}")
endif()
math(EXPR seconds "${t1} - ${t0}")
message(STATUS "report written in about ${seconds} s: ${html}")
file(READ "${html}" page)
string(FIND "${page}" "</head>" head_end)
if(head_end EQUAL -1)
  message(FATAL_ERROR "${html} has no </head>")
endif()
string(REPLACE "</head>" "${hide_marks}" bare_page "${page}")
file(WRITE "${bare_html}" "${bare_page}")
if(HIDE_DATA)
  file(WRITE "${html}" "${bare_page}")
endif()

# chromium(PAGE PNG HEIGHT [DOM]): one headless load; a fresh profile per test keeps parallel
# runs apart; no network, no first-run work.
function(chromium page shot height)
  if(ARGC GREATER 3)
    set(dump --dump-dom)
    set(output OUTPUT_FILE "${ARGV3}")
  else()
    set(dump)
    set(output OUTPUT_QUIET)
  endif()
  execute_process(
    COMMAND "${CHROMIUM}" --headless --no-sandbox --disable-gpu --disable-dev-shm-usage
            --user-data-dir=${OUT_DIR}/${NAME}.profile --no-first-run --no-default-browser-check
            --disable-extensions --disable-background-networking --disable-component-update
            --disable-sync "--host-resolver-rules=MAP * ~NOTFOUND" --hide-scrollbars
            --force-device-scale-factor=1 --window-size=1280,${height}
            --screenshot=${shot} ${dump} "file://${page}"
    ${output} ERROR_VARIABLE chromium_err RESULT_VARIABLE rc TIMEOUT 240)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "chromium failed (${rc}): ${chromium_err}")
  endif()
endfunction()

set(height 4000)
set(loads 0)
foreach(attempt 1 2 3 4)
  chromium("${html}" "${png}" ${height} "${dom}")
  chromium("${bare_html}" "${bare_png}" ${height})
  set(check_args check --dom "${dom}" --png "${png}" --bare-png "${bare_png}" --plots ${PLOTS}
                 --html "${html}")
  if(DEFINED TEXT)
    list(APPEND check_args --text "${TEXT}")
  endif()
  if(DEFINED NO_DATA_PLOTS)
    list(APPEND check_args --no-data-plots "${NO_DATA_PLOTS}")
  endif()
  if(DEFINED MAX_BYTES)
    list(APPEND check_args --max-bytes ${MAX_BYTES})
  endif()
  if(DEFINED MAX_LOAD_MS)
    list(APPEND check_args --max-load-ms ${MAX_LOAD_MS})
  endif()
  execute_process(COMMAND "${CHECKER}" ${check_args} RESULT_VARIABLE rc OUTPUT_VARIABLE out
                  ERROR_VARIABLE err)
  if(rc EQUAL 3 AND attempt EQUAL 1)
    string(REGEX MATCH "NEED_HEIGHT ([0-9]+)" _ "${out}")
    set(height ${CMAKE_MATCH_1})
    continue()
  endif()
  math(EXPR loads "${loads} + 1")
  if(rc EQUAL 4 AND loads LESS 3)
    message(STATUS "slow load ${loads}, loading again: ${err}")
    continue()
  endif()
  break()
endforeach()
file(REMOVE_RECURSE "${OUT_DIR}/${NAME}.profile")
message(STATUS "${out}")
if(DEFINED EXPECT_FAILURE)
  if(rc EQUAL 0)
    message(FATAL_ERROR "the page check passed, but it had to fail with: ${EXPECT_FAILURE}")
  endif()
  if(NOT err MATCHES "${EXPECT_FAILURE}")
    message(FATAL_ERROR "the page check failed (${rc}) without '${EXPECT_FAILURE}': ${err}")
  endif()
  message(STATUS "the page check failed as it must: ${err}")
elseif(NOT rc EQUAL 0)
  message(FATAL_ERROR "page check failed (${rc}): ${err}")
endif()
