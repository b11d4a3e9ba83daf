# Convenience entry points; the build itself is CMake's.
#   make          install missing Debian packages, configure and build everything
#   make demo     the analyzer alone (its packages, no tests, no capture or CUDA parts), then
#                 analyze the shipped H200 samples (an NPKit dump, a plugin capture)
#   make test     every package, build everything, then run every test
#   make install  the analyzer, the capture plugin, the public headers, the man page and the docs
#                 into PREFIX (default /usr/local)
#   make test-sanitize   every test under ASan + UBSan
#   make test-tsan       the multi-threaded paths under ThreadSanitizer
#   make fuzz            each libFuzzer target for FUZZ_SECONDS (default 60)
# Override BUILD_DIR, BUILD_TYPE, RELEASE_DIR, CMAKE_FLAGS (extra cmake -D options) or JOBS on the
# command line. make and make test build everything in BUILD_DIR (BUILD_TYPE, with debug
# information); demo and install build what they need for use in RELEASE_DIR, -O2 without debug
# information, which compiles in two thirds of the time.

BUILD_DIR ?= build
BUILD_TYPE ?= RelWithDebInfo
RELEASE_DIR ?= build-release
CMAKE_FLAGS ?=
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
PREFIX ?= /usr/local

RELEASE := -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_FLAGS_RELEASE="-O2 -DNDEBUG"
ANALYZER := $(RELEASE_DIR)/bin/npkit-analyze
DEMO_DUMP := samples/npkit-h200/ring_simple/dump
DEMO_CAPTURE := samples/nccl-h200/agree/dump

# The parts of the build (CMakeLists.txt options), by what needs them.
EVERY_PART := -DNPKIT_BUILD_ANALYZER=ON -DNPKIT_BUILD_CAPTURE=ON -DNPKIT_BUILD_TESTS=ON \
  -DNPKIT_BUILD_BENCH=ON -DNPKIT_BUILD_CUDA=ON
NO_TESTS := -DNPKIT_BUILD_ANALYZER=ON -DNPKIT_BUILD_TESTS=OFF -DNPKIT_BUILD_BENCH=OFF \
  -DNPKIT_BUILD_CUDA=OFF
ANALYZER_ONLY := $(NO_TESTS) -DNPKIT_BUILD_CAPTURE=OFF
INSTALLED_PARTS := $(NO_TESTS) -DNPKIT_BUILD_CAPTURE=ON

.DEFAULT_GOAL := build
.PHONY: deps deps-analyzer build analyzer demo install test test-sanitize test-tsan fuzz format \
  format-check clean

deps:
	scripts/install-deps.sh

deps-analyzer:
	scripts/install-deps.sh --set analyzer

build: deps
	cmake -S . -B $(BUILD_DIR) -DCMAKE_BUILD_TYPE=$(BUILD_TYPE) $(EVERY_PART) $(CMAKE_FLAGS)
	cmake --build $(BUILD_DIR) -j$(JOBS)

# The analyzer binary alone: what the demo runs.
analyzer: deps-analyzer
	cmake -S . -B $(RELEASE_DIR) $(RELEASE) $(ANALYZER_ONLY) $(CMAKE_FLAGS)
	cmake --build $(RELEASE_DIR) -j$(JOBS) --target npkit-analyze

demo: analyzer
	$(ANALYZER) report $(DEMO_DUMP)
	$(ANALYZER) bandwidth $(DEMO_DUMP) --coll allreduce
	$(ANALYZER) bandwidth $(DEMO_CAPTURE) --coll allreduce

# What `cmake --install` puts under PREFIX: bin/npkit-analyze, lib/libnccl-profiler-npkit.so,
# include/npkit/, share/man/man1/npkit-analyze.1, share/doc/npkit-analyze/.
install: deps-analyzer
	cmake -S . -B $(RELEASE_DIR) $(RELEASE) $(INSTALLED_PARTS) $(CMAKE_FLAGS)
	cmake --build $(RELEASE_DIR) -j$(JOBS)
	cmake --install $(RELEASE_DIR) --prefix $(PREFIX)

# --no-tests=error: a suite that ran zero tests is a failure. A test that hangs fails after
# TEST_TIMEOUT seconds, by name, instead of holding the run (the slowest takes 7 s under ASan).
TEST_TIMEOUT ?= 300
CTEST := ctest --output-on-failure --no-tests=error --timeout $(TEST_TIMEOUT) -j$(JOBS)
test: build
	$(CTEST) --test-dir $(BUILD_DIR)

# The sanitizer builds compile with -O1 and line tables only (-g1). With the tests' precompiled
# header, the ASan build takes 18 instead of 32 minutes on 2 cores (against -O2 -g), its binaries
# are half the size, and the sanitizers' reports still name file and line.
# They leave out the CUDA samples and the browser tests on purpose, and say so for the test-count
# guard (under CI it fails any other label disabled by an option).
SANITIZE_BUILD := -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG" -DNPKIT_BUILD_BENCH=OFF -DNPKIT_BUILD_CUDA=OFF \
  -DNPKIT_ALLOW_DISABLED_LABELS=cuda,device_collectives,nccl_driver,browser,browser_scale

# The whole test suite under AddressSanitizer + UndefinedBehaviorSanitizer (CI runs it too; the
# browser tests are left out: see tests/browser/CMakeLists.txt).
SANITIZE_DIR ?= build-sanitize
test-sanitize: deps
	cmake -S . -B $(SANITIZE_DIR) $(SANITIZE_BUILD) -DNPKIT_SANITIZE=address,undefined $(CMAKE_FLAGS)
	cmake --build $(SANITIZE_DIR) -j$(JOBS)
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	  $(CTEST) --test-dir $(SANITIZE_DIR)

# The multi-threaded paths (parallel reading, background trace writer, the capture plugin's
# buffers and callbacks from many threads) under ThreadSanitizer. die_after_fork=0: the capture
# tests fork children that open communicators, and the plugin starts its buffer thread there, as
# it would in a forked worker of a real job (TSan stops such a child otherwise). Left out:
# [exit-in-fork], whose forked child calls exit() and so runs the TSan runtime's own exit path in
# a child of a multi-threaded process, which TSan does not support (it ended without output
# there once in CI); the normal and ASan + UBSan runs keep it.
TSAN_DIR ?= build-tsan
TSAN_TESTS := npkit_golden_tests npkit_real_tests npkit_capture_tests
# Each binary runs its test cases in one process: a hang ends it after TSAN_TIMEOUT seconds; as
# under ctest, a test case that checks nothing fails (--warn NoAssertions).
TSAN_TIMEOUT ?= 1200
test-tsan: deps
	cmake -S . -B $(TSAN_DIR) $(SANITIZE_BUILD) -DNPKIT_SANITIZE=thread $(CMAKE_FLAGS)
	cmake --build $(TSAN_DIR) -j$(JOBS) --target $(TSAN_TESTS)
	set -e; for t in $(TSAN_TESTS); do \
	  TSAN_OPTIONS=halt_on_error=1:die_after_fork=0 timeout $(TSAN_TIMEOUT) $(TSAN_DIR)/bin/$$t --warn NoAssertions "[threads],[golden],[real],[capture]~[exit-in-fork],[plugin]~[exit-in-fork]"; \
	done

# Each libFuzzer target for FUZZ_SECONDS (clang), FUZZ_PARALLEL at a time; new inputs go to
# $(FUZZ_DIR)/work, crashes to $(FUZZ_DIR)/artifacts (copy real finds into tests/fuzz/corpus/ as
# regression inputs), each target's output to $(FUZZ_DIR)/logs.
FUZZ_DIR ?= build-fuzz
FUZZ_SECONDS ?= 60
FUZZ_PARALLEL ?= 1
# Every target of tests/fuzz (fuzz_<target>.cpp), as tests/fuzz/CMakeLists.txt builds them.
FUZZ_TARGETS := $(sort $(patsubst tests/fuzz/fuzz_%.cpp,%,$(wildcard tests/fuzz/fuzz_*.cpp)))
fuzz:
	scripts/install-deps.sh --extra clang libclang-rt-14-dev
	CXX=clang++ cmake -S . -B $(FUZZ_DIR) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DNPKIT_BUILD_FUZZ=ON -DNPKIT_BUILD_BENCH=OFF -DNPKIT_BUILD_TESTS=ON $(CMAKE_FLAGS)
	cmake --build $(FUZZ_DIR) -j$(JOBS) $(addprefix --target fuzz_,$(FUZZ_TARGETS))
	scripts/fuzz.sh $(FUZZ_DIR) $(FUZZ_SECONDS) $(FUZZ_PARALLEL) $(FUZZ_TARGETS)

format:
	scripts/check-format.sh --fix

format-check:
	scripts/check-format.sh

clean:
	rm -rf $(BUILD_DIR) $(RELEASE_DIR)
