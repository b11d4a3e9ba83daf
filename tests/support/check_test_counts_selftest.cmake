# Checks the test-count guard (check_test_counts.cmake) on hand-made build directories, run as
#   cmake -DCTEST=ctest -DGUARD=<check_test_counts.cmake> -DWORK=<scratch dir> -P this
# Each case writes a CTestTestfile.cmake with known tests and labels, a counts file and a label
# status file, runs the guard with CI set or unset, and checks that it passes or fails with the
# expected message.
cmake_minimum_required(VERSION 3.25)

foreach(var CTEST GUARD WORK)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "check_test_counts_selftest.cmake: ${var} is not set")
  endif()
endforeach()

# The build directory: alpha has one test, beta two, gamma none (its tests are not built).
set(build "${WORK}/build")
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${build}")
file(WRITE "${build}/CTestTestfile.cmake" [[
add_test(a1 "true")
set_tests_properties(a1 PROPERTIES LABELS "alpha")
add_test(b1 "true")
set_tests_properties(b1 PROPERTIES LABELS "beta")
add_test(b2 "true")
set_tests_properties(b2 PROPERTIES LABELS "beta")
]])
file(WRITE "${WORK}/counts.txt" "# label count\nalpha 1\nbeta 2\ngamma 3\n")

set(failures "")

# check(<name> <status lines> <CI value or "unset"> <allowed> <PASS|FAIL> [<regex the output must
# match>])
function(check name status ci allowed expect)
  file(WRITE "${WORK}/status.txt" "${status}\n")
  if(ci STREQUAL "unset")
    set(env --unset=CI)
  else()
    set(env CI=${ci})
  endif()
  execute_process(COMMAND "${CMAKE_COMMAND}" -E env ${env} "${CMAKE_COMMAND}" -DCTEST=${CTEST}
                          -DBUILD_DIR=${build} -DCOUNTS=${WORK}/counts.txt
                          -DLABEL_STATUS=${WORK}/status.txt -DCONFIGURE_CI=OFF
                          "-DALLOW_DISABLED=${allowed}" -P "${GUARD}"
                  OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
  # CMake wraps its error messages: compare with every run of blanks as one space.
  string(REGEX REPLACE "[ \t\n]+" " " text "${out}${err}")
  set(ok TRUE)
  if(expect STREQUAL "PASS" AND NOT rc EQUAL 0)
    set(ok FALSE)
  elseif(expect STREQUAL "FAIL" AND rc EQUAL 0)
    set(ok FALSE)
  endif()
  if(ARGC GREATER 5 AND NOT text MATCHES "${ARGV5}")
    set(ok FALSE)
  endif()
  if(NOT ok)
    set(failures "${failures}case '${name}': expected ${expect} '${ARGV5}', got exit ${rc}: ${text}\n"
        PARENT_SCOPE)
  else()
    message(STATUS "case '${name}': ${expect} as expected")
  endif()
endfunction()

check("disabled outside CI" "gamma|disabled|NPKIT_BUILD_X=OFF" unset "" PASS
      "label gamma: disabled by NPKIT_BUILD_X=OFF; not counted")
check("disabled under CI" "gamma|disabled|NPKIT_BUILD_X=OFF" true "" FAIL
      "label gamma: 3 tests expected, 0 registered: disabled by NPKIT_BUILD_X=OFF, and CI is set")
check("disabled under CI, another label allowed" "gamma|disabled|NPKIT_BUILD_X=OFF" true "beta"
      FAIL "disabled by NPKIT_BUILD_X=OFF, and CI is set")
check("disabled under CI, allowed" "gamma|disabled|NPKIT_BUILD_X=OFF" true "beta,gamma" PASS
      "label gamma: disabled by NPKIT_BUILD_X=OFF; not counted")
check("CI=false is not CI" "gamma|disabled|NPKIT_BUILD_X=OFF" false "" PASS)
check("tool missing outside CI" "gamma|missing|chromium" unset "" PASS "gamma: 3 tests NOT RUN")
check("tool missing under CI" "gamma|missing|chromium" true "gamma" FAIL
      "chromium is missing, and CI is set")
check("a label with too few tests" "" unset "" FAIL "label gamma: 3 tests expected, 0 registered")

if(failures)
  message(FATAL_ERROR "the test-count guard misjudged:\n${failures}")
endif()
