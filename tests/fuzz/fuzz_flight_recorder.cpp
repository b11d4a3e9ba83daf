// fuzz_flight_recorder.cpp — libFuzzer target: the input is one rank's PyTorch Flight Recorder
// dump, pickle (starting 0x80) or JSON → read_pickle / read_fr_json
// (import/flight_recorder/pickle_reader.hpp, fr_json.hpp) → decode_flight_recorder
// (fr_decode.hpp).
// Contract: never crashes, hangs or trips a sanitizer on any input; nothing is executed. An error
// names the input and a byte offset inside it or at its end ("input: offset N: ..."); a decoded
// dump's entries have a known state and frames that index into its frame table.
// Seeds: corpus/flight_recorder/seed_* (the dumps of tests/data/flight_recorder, pickle and JSON,
// and damaged copies).
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "error_offset_check.hpp"
#include "import/flight_recorder/fr_decode.hpp"
#include "import/flight_recorder/fr_json.hpp"
#include "import/flight_recorder/pickle_reader.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  constexpr const char* kTarget = "fuzz_flight_recorder";
  const std::span<const std::uint8_t> bytes(data, size);
  const std::string name = "input";
  auto tree = size > 0 && data[0] == 0x80 ? npkit::read_pickle(name, bytes)
                                          : npkit::read_fr_json(name, bytes);
  if (!tree) {
    npkit::fuzz::check_error_offset(tree.error().message, size, kTarget);
    return 0;
  }
  std::vector<std::string> notes;
  auto dump = npkit::decode_flight_recorder(name, *tree, size, notes);
  if (!dump) {
    npkit::fuzz::check_error_offset(dump.error().message, size, kTarget);
    return 0;
  }
  for (const auto& e : dump->entries) {
    npkit::fuzz::check(e.state == npkit::FrState::kScheduled ||
                           e.state == npkit::FrState::kStarted ||
                           e.state == npkit::FrState::kCompleted,
                       kTarget, "an entry of an unknown state");
    for (const std::uint32_t f : e.frames) {
      npkit::fuzz::check(f < dump->frames.size(), kTarget, "a frame index past the frame table");
    }
  }
  return 0;
}
