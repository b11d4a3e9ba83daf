// The Catch2 v2 main() of every npkit_<folder>_tests executable (in npkit_test_support).
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
