# The test-count guard (ctest test `test_counts`), run as
#   cmake -DCTEST=ctest -DBUILD_DIR=<build> -DCOUNTS=tests/test_counts.txt
#         -DLABEL_STATUS=<build>/tests/test_label_status.txt -DCONFIGURE_CI=ON|OFF
#         [-DALLOW_DISABLED=<label>,...] -P this
# COUNTS holds "<label> <count>" lines (# comments): the exact number of ctest tests per label in
# a full build. LABEL_STATUS holds the configure's "<label>|disabled|<option>" and
# "<label>|missing|<tool>" lines (cmake/NpkitTestLabels.cmake); other labels are enabled.
# Fails when
#   - an enabled label has another number of tests than COUNTS says,
#   - a test has no label, or a label that COUNTS does not list,
#   - a label's tool is missing and CI is set (at configure time or now): CI runs every test;
#   - a label is disabled by a configure option, CI is set, and ALLOW_DISABLED (the configure's
#     NPKIT_ALLOW_DISABLED_LABELS) does not name it.
# Outside CI a label disabled by an option is reported and not counted, and a missing tool is
# reported loudly and passes (the configure warned too).
cmake_minimum_required(VERSION 3.25)

foreach(var CTEST BUILD_DIR COUNTS LABEL_STATUS)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "check_test_counts.cmake: ${var} is not set")
  endif()
endforeach()

include("${CMAKE_CURRENT_LIST_DIR}/../../cmake/NpkitTestLabels.cmake")
npkit_ci_run(ci_now)
set(ci OFF)
if(CONFIGURE_CI OR ci_now)
  set(ci ON)
endif()

# ctest -N -L <regex>: "Total Tests: N" counts the tests whose labels match.
function(count_tests out)
  execute_process(COMMAND "${CTEST}" --test-dir "${BUILD_DIR}" -N ${ARGN}
                  OUTPUT_VARIABLE text ERROR_VARIABLE err RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0 OR NOT text MATCHES "Total Tests: ([0-9]+)")
    message(FATAL_ERROR "ctest -N ${ARGN} failed (${rc}): ${text}${err}")
  endif()
  set(${out} ${CMAKE_MATCH_1} PARENT_SCOPE)
endfunction()

string(REPLACE "," ";" allowed_disabled "${ALLOW_DISABLED}")

file(STRINGS "${LABEL_STATUS}" status_lines)
file(STRINGS "${COUNTS}" count_lines)
set(errors "")
set(expected_labels "")
set(update_hint "update ${COUNTS} to the number ctest lists (ctest --test-dir ${BUILD_DIR} -N")
string(APPEND update_hint " -L '^LABEL$')")
foreach(line IN LISTS count_lines)
  if(line MATCHES "^[ \t]*(#|$)")
    continue()
  endif()
  if(NOT line MATCHES "^([a-z_]+)[ \t]+([0-9]+)[ \t]*$")
    message(FATAL_ERROR "${COUNTS}: cannot read the line '${line}' (expected '<label> <count>')")
  endif()
  set(label ${CMAKE_MATCH_1})
  set(expected ${CMAKE_MATCH_2})
  list(APPEND expected_labels ${label})
  set(state enabled)
  set(why "")
  foreach(s IN LISTS status_lines)
    if(s MATCHES "^${label}\\|(disabled|missing)\\|(.*)$")
      set(state ${CMAKE_MATCH_1})
      set(why "${CMAKE_MATCH_2}")
    endif()
  endforeach()
  count_tests(actual -L "^${label}$")
  if(state STREQUAL "disabled" AND ci AND NOT label IN_LIST allowed_disabled)
    string(APPEND errors "label ${label}: ${expected} tests expected, ${actual} registered: "
                         "disabled by ${why}, and CI is set: CI runs every test (a build that "
                         "leaves the label out on purpose names it in "
                         "NPKIT_ALLOW_DISABLED_LABELS)\n")
  elseif(state STREQUAL "disabled")
    message(STATUS "label ${label}: disabled by ${why}; not counted (${expected} in a full build)")
  elseif(state STREQUAL "missing")
    if(ci)
      string(APPEND errors "label ${label}: ${expected} tests expected, ${actual} registered: "
                           "${why} is missing, and CI is set: CI must run every test\n")
    else()
      message(STATUS "******** label ${label}: ${expected} tests NOT RUN: ${why} is missing "
                     "(an error under CI)")
    endif()
  elseif(NOT actual EQUAL expected)
    string(REPLACE "LABEL" "${label}" hint "${update_hint}")
    string(APPEND errors "label ${label}: ${expected} tests expected, ${actual} registered; if the "
                         "change is intended, ${hint}\n")
  else()
    message(STATUS "label ${label}: ${actual} tests, as expected")
  endif()
endforeach()

# Tests without a label, and labels the file does not know.
count_tests(unlabelled -LE ".")
if(NOT unlabelled EQUAL 0)
  string(APPEND errors "${unlabelled} test(s) without a label (ctest --test-dir ${BUILD_DIR} -N "
                       "-LE .): give each a label of ${COUNTS}\n")
endif()
execute_process(COMMAND "${CTEST}" --test-dir "${BUILD_DIR}" --print-labels
                OUTPUT_VARIABLE text RESULT_VARIABLE rc)
string(REGEX MATCHALL "\n  [^\n]+" found "${text}")
foreach(label IN LISTS found)
  string(STRIP "${label}" label)
  if(NOT label IN_LIST expected_labels)
    count_tests(n -L "^${label}$")
    string(APPEND errors "label ${label} (${n} tests) is not in ${COUNTS}: add it\n")
  endif()
endforeach()

if(errors)
  message(FATAL_ERROR "test counts differ from ${COUNTS}:\n${errors}")
endif()
