# What each ctest label's tests need, recorded at configure time for the test-count guard
# (tests/support/check_test_counts.cmake, which compares with tests/test_counts.txt).
#
#   npkit_ci_run(<var>)
#     Sets <var> to TRUE when the CI environment variable is set to anything but "", 0, false,
#     no or off (any case): the configure runs under CI.
#   npkit_label_disabled(<option text> LABELS <label>...)
#     The labels' tests are not built because of a configure option (e.g. "NPKIT_BUILD_CUDA=OFF"):
#     the guard reports them as disabled and does not count them. Under CI that fails the guard,
#     unless the label is in NPKIT_ALLOW_DISABLED_LABELS (below).
#   npkit_label_tool_missing(<what is missing> LABELS <label>... [HINT <how to get it>]
#                            [OPTION <the option that turns the labels' tests off>])
#     The labels' tests cannot be registered because a tool or library is missing. Under CI that
#     is a fatal configure error (CI must run every test); otherwise a WARNING names what is
#     missing and the guard passes the labels as missing (and fails them if CI is set when the
#     tests run).
# The records are the global property NPKIT_TEST_LABEL_STATUS, a list of
# "<label>|disabled|<text>" and "<label>|missing|<text>" items; a label not listed is enabled.
#
# NPKIT_ALLOW_DISABLED_LABELS (cache, comma-separated): the labels a build leaves out on purpose
# and says so, e.g. the sanitizer builds (no CUDA, no browser; Makefile, SANITIZE_BUILD). Under CI
# a label disabled by an option and not listed here fails the guard: a CI configure that turned
# tests off by mistake must not pass with a smaller suite.
set(NPKIT_ALLOW_DISABLED_LABELS "" CACHE STRING
    "Comma-separated test labels this build disables on purpose (allowed under CI)")

function(npkit_ci_run var)
  string(TOLOWER "$ENV{CI}" ci)
  if(ci STREQUAL "" OR ci MATCHES "^(0|false|no|off)$")
    set(${var} FALSE PARENT_SCOPE)
  else()
    set(${var} TRUE PARENT_SCOPE)
  endif()
endfunction()

function(npkit_label_disabled text)
  cmake_parse_arguments(L "" "" "LABELS" ${ARGN})
  string(REPLACE ";" "," text "${text}")  # one list item per record
  foreach(label IN LISTS L_LABELS)
    set_property(GLOBAL APPEND PROPERTY NPKIT_TEST_LABEL_STATUS "${label}|disabled|${text}")
  endforeach()
endfunction()

function(npkit_label_tool_missing what)
  cmake_parse_arguments(L "" "HINT;OPTION" "LABELS" ${ARGN})
  string(REPLACE ";" "," what "${what}")  # one list item per record
  list(JOIN L_LABELS ", " labels)
  set(hint "")
  if(L_HINT)
    set(hint " (${L_HINT})")
  endif()
  set(remedy "install it")
  if(L_OPTION)
    set(remedy "install it, or configure with -D${L_OPTION}=OFF")
  endif()
  npkit_ci_run(ci)
  if(ci)
    message(FATAL_ERROR "CI is set and ${what} is missing${hint}: the tests labelled ${labels} "
                        "could not run. CI runs every test: ${remedy}.")
  endif()
  message(WARNING "${what} is missing${hint}: the tests labelled ${labels} are NOT registered; "
                  "this build runs a smaller suite (under CI that is an error).")
  foreach(label IN LISTS L_LABELS)
    set_property(GLOBAL APPEND PROPERTY NPKIT_TEST_LABEL_STATUS "${label}|missing|${what}")
  endforeach()
endfunction()
