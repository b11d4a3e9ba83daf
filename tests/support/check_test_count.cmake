# Fails unless TEST_BINARY (a Catch2 v2 executable) lists at least one test case, and no test
# name holds ';' (catch_discover_tests would split it into names that match nothing).
execute_process(COMMAND "${TEST_BINARY}" --list-test-names-only
                OUTPUT_VARIABLE names RESULT_VARIABLE rc)
string(FIND "${names}" ";" semicolon)
if(NOT semicolon EQUAL -1)
  message(FATAL_ERROR "a test name of ${TEST_BINARY} contains ';', which ctest cannot carry")
endif()
string(REGEX MATCHALL "[^\n]+" lines "${names}")
list(LENGTH lines count)
if(count EQUAL 0)
  message(FATAL_ERROR "${TEST_BINARY} lists no test cases (exit code ${rc})")
endif()
message(STATUS "${TEST_BINARY} lists ${count} test case(s)")
