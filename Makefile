# Convenience entry points; the build itself is CMake's.
#   make          install missing Debian packages, configure and build
#   make demo     build, then analyze the shipped H200 ring all-reduce sample
#   make test     build, then run every test
#   make test-sanitize   every test under ASan + UBSan
#   make test-tsan       the multi-threaded paths under ThreadSanitizer
# Override BUILD_DIR, BUILD_TYPE, CMAKE_FLAGS (extra cmake -D options) or JOBS on the command line.

BUILD_DIR ?= build
BUILD_TYPE ?= RelWithDebInfo
CMAKE_FLAGS ?=
JOBS ?= $(shell nproc 2>/dev/null || echo 2)

ANALYZER := $(BUILD_DIR)/bin/npkit-analyze
DEMO_DUMP := samples/npkit-h200/ring_simple/dump

.DEFAULT_GOAL := build
.PHONY: deps build demo test test-sanitize test-tsan format format-check clean

deps:
	scripts/install-deps.sh

build: deps
	cmake -S . -B $(BUILD_DIR) -DCMAKE_BUILD_TYPE=$(BUILD_TYPE) $(CMAKE_FLAGS)
	cmake --build $(BUILD_DIR) -j$(JOBS)

demo: build
	$(ANALYZER) report $(DEMO_DUMP)
	$(ANALYZER) bandwidth $(DEMO_DUMP) --coll allreduce

# --no-tests=error: a suite that ran zero tests is a failure.
test: build
	ctest --test-dir $(BUILD_DIR) --output-on-failure --no-tests=error -j$(JOBS)

# The whole test suite under AddressSanitizer + UndefinedBehaviorSanitizer (CI runs it too).
SANITIZE_DIR ?= build-sanitize
test-sanitize: deps
	cmake -S . -B $(SANITIZE_DIR) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DNPKIT_SANITIZE=address,undefined -DNPKIT_BUILD_BENCH=OFF $(CMAKE_FLAGS)
	cmake --build $(SANITIZE_DIR) -j$(JOBS)
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	  ctest --test-dir $(SANITIZE_DIR) --output-on-failure --no-tests=error -j$(JOBS)

# The multi-threaded paths (parallel reading, background trace writer) under ThreadSanitizer.
TSAN_DIR ?= build-tsan
test-tsan: deps
	cmake -S . -B $(TSAN_DIR) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DNPKIT_SANITIZE=thread -DNPKIT_BUILD_BENCH=OFF $(CMAKE_FLAGS)
	cmake --build $(TSAN_DIR) -j$(JOBS) --target npkit_tests
	TSAN_OPTIONS=halt_on_error=1 $(TSAN_DIR)/bin/npkit_tests "[threads],[golden],[real]"

format:
	scripts/check-format.sh --fix

format-check:
	scripts/check-format.sh

clean:
	rm -rf $(BUILD_DIR)
