// output/run_text.hpp — how outputs name the parts of a run (run/run.hpp).
// Contract: input_kind_name gives "legacy NPKit dump", ".npkt capture" or "Chrome trace";
// input_kind_key the JSON spelling ("legacy", "npkt", "chrome-trace"). describe_communicator:
// "comm 0123456789abcdef (name), 2 of 4 rank(s); rank(s) 2-3 absent" — the scope instead of
// "comm HASH" for a run's implicit communicator (hash 0).
// comm_key: the communicator's id as its input writes it (RunCommunicator::id), else its hash as
// 16 hex digits, or its scope when the hash is 0.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "run/run.hpp"
#include "util/rank_ranges.hpp"

namespace npkit {

const char* input_kind_name(InputKind kind);
const char* input_kind_key(InputKind kind);
std::string describe_communicator(const RunCommunicator& comm);
std::string comm_key(const RunCommunicator& comm);

}  // namespace npkit
