// import/flight_recorder/pickle_reader.hpp — a restricted reader of the pickles PyTorch's Flight
// Recorder writes (torch's C++ pickler, protocol 2): it builds plain values and never looks up or
// runs anything.
// Contract:
// - read_pickle(name, bytes) returns the value the pickle's STOP leaves, as a DataTree. The file
//   starts with PROTO 2 and ends at STOP (bytes after it are an error).
// - Allowed opcodes: PROTO (first only), STOP, MARK, EMPTY_DICT, EMPTY_LIST, EMPTY_TUPLE, SETITEM,
//   SETITEMS, APPEND, APPENDS, TUPLE, TUPLE1-3, BINUNICODE, SHORT_BINUNICODE, BININT, BININT1,
//   BININT2, LONG1 (at most 8 bytes), BINFLOAT, NONE, NEWTRUE, NEWFALSE, BINPUT, LONG_BINPUT,
//   BINGET, LONG_BINGET, and GLOBAL + REDUCE for four names of torch.jit._pickle alone:
//   build_intlist, build_doublelist, build_boollist (their one argument, a list of integers,
//   floats or bools, is the value) and restore_type_tag (its first argument is the value; the
//   type annotation is dropped). Every other opcode is the Error
//   "NAME: offset N: pickle opcode 0xXX (OPNAME) is not allowed in a Flight Recorder dump"; a
//   GLOBAL of any other name says the same with the name.
// - Limits (each an Error naming the offset): 2^22 values and memo entries, 1024 open MARKs, values
// nested
//   more than 64 deep, dict keys that are
//   strings or integers, a container changed after it was put inside another one (or into
//   itself), lengths past the end of the file, a memo index never stored, a truncated file.
//   Memory stays within a fixed multiple of the file's size.
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "import/flight_recorder/data_tree.hpp"
#include "util/result.hpp"

namespace npkit {

inline constexpr std::uint32_t kMaxPickleValues = 1u << 22;
inline constexpr std::size_t kMaxPickleMarks = 1024;
inline constexpr std::uint16_t kMaxPickleDepth = 64;

Result<DataTree> read_pickle(const std::string& name, std::span<const std::uint8_t> bytes);

// The name pickletools gives opcode `op` ("BINUNICODE"), or "unknown".
const char* pickle_opcode_name(std::uint8_t op);

}  // namespace npkit
