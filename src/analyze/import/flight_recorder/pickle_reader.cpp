#include "import/flight_recorder/pickle_reader.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <optional>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace npkit {

const char* pickle_opcode_name(std::uint8_t op) {
  switch (op) {
    case '(':
      return "MARK";
    case '.':
      return "STOP";
    case '0':
      return "POP";
    case '1':
      return "POP_MARK";
    case '2':
      return "DUP";
    case 'F':
      return "FLOAT";
    case 'I':
      return "INT";
    case 'J':
      return "BININT";
    case 'K':
      return "BININT1";
    case 'L':
      return "LONG";
    case 'M':
      return "BININT2";
    case 'N':
      return "NONE";
    case 'P':
      return "PERSID";
    case 'Q':
      return "BINPERSID";
    case 'R':
      return "REDUCE";
    case 'S':
      return "STRING";
    case 'T':
      return "BINSTRING";
    case 'U':
      return "SHORT_BINSTRING";
    case 'V':
      return "UNICODE";
    case 'X':
      return "BINUNICODE";
    case 'a':
      return "APPEND";
    case 'b':
      return "BUILD";
    case 'c':
      return "GLOBAL";
    case 'd':
      return "DICT";
    case '}':
      return "EMPTY_DICT";
    case 'e':
      return "APPENDS";
    case 'g':
      return "GET";
    case 'h':
      return "BINGET";
    case 'i':
      return "INST";
    case 'j':
      return "LONG_BINGET";
    case 'l':
      return "LIST";
    case ']':
      return "EMPTY_LIST";
    case 'o':
      return "OBJ";
    case 'p':
      return "PUT";
    case 'q':
      return "BINPUT";
    case 'r':
      return "LONG_BINPUT";
    case 's':
      return "SETITEM";
    case 't':
      return "TUPLE";
    case ')':
      return "EMPTY_TUPLE";
    case 'u':
      return "SETITEMS";
    case 'G':
      return "BINFLOAT";
    case 'B':
      return "BINBYTES";
    case 'C':
      return "SHORT_BINBYTES";
    case 0x80:
      return "PROTO";
    case 0x81:
      return "NEWOBJ";
    case 0x82:
      return "EXT1";
    case 0x83:
      return "EXT2";
    case 0x84:
      return "EXT4";
    case 0x85:
      return "TUPLE1";
    case 0x86:
      return "TUPLE2";
    case 0x87:
      return "TUPLE3";
    case 0x88:
      return "NEWTRUE";
    case 0x89:
      return "NEWFALSE";
    case 0x8a:
      return "LONG1";
    case 0x8b:
      return "LONG4";
    case 0x8c:
      return "SHORT_BINUNICODE";
    case 0x8d:
      return "BINUNICODE8";
    case 0x8e:
      return "BINBYTES8";
    case 0x8f:
      return "EMPTY_SET";
    case 0x90:
      return "ADDITEMS";
    case 0x91:
      return "FROZENSET";
    case 0x92:
      return "NEWOBJ_EX";
    case 0x93:
      return "STACK_GLOBAL";
    case 0x94:
      return "MEMOIZE";
    case 0x95:
      return "FRAME";
    case 0x96:
      return "BYTEARRAY8";
    case 0x97:
      return "NEXT_BUFFER";
    case 0x98:
      return "READONLY_BUFFER";
    default:
      return "unknown";
  }
}

namespace {

// The list builders of torch.jit._pickle a Flight Recorder pickle may name, by DataNode::ref.
enum Builder : std::uint32_t { kIntList, kDoubleList, kBoolList, kRestoreTypeTag };
constexpr std::array<std::string_view, 4> kBuilderNames = {"build_intlist", "build_doublelist",
                                                           "build_boollist", "restore_type_tag"};
constexpr std::string_view kBuilderModule = "torch.jit._pickle";
constexpr std::size_t kMaxGlobalLine = 256;

class PickleReader {
 public:
  PickleReader(const std::string& name, std::span<const std::uint8_t> bytes)
      : name_(name), bytes_(bytes) {}

  Result<DataTree> run();

 private:
  Error at(std::uint64_t offset, std::string_view what) const {
    return Error{fmt::format("{}: offset {}: {}", name_, offset, what)};
  }
  Error not_allowed(std::uint64_t offset, std::uint8_t op) const {
    return at(offset, fmt::format("pickle opcode 0x{:02x} ({}) is not allowed in a Flight "
                                  "Recorder dump",
                                  op, pickle_opcode_name(op)));
  }
  // The next `n` bytes of the opcode at `op_offset`, or an Error if the file ends first.
  Result<const std::uint8_t*> take(std::size_t n, std::uint64_t op_offset, std::uint8_t op);
  // The memo index after a BINPUT/BINGET (1 byte) or LONG_BINPUT/LONG_BINGET (4, little-endian).
  Result<std::uint32_t> memo_index(std::size_t bytes, std::uint64_t op_offset, std::uint8_t op);
  Result<std::uint32_t> pop(std::uint64_t offset, std::uint8_t op);
  Result<std::size_t> pop_mark(std::uint64_t offset, std::uint8_t op);
  Status push(std::uint32_t id, std::uint64_t offset);
  Status new_node_allowed(std::uint64_t offset) const;
  // Puts `value` inside `container` (sealing it); refuses builders and cycles.
  Status place(std::uint32_t value, std::uint32_t container, std::uint64_t offset);
  // The container at stack position `index`, which must be an open (unsealed) `kind`.
  Result<std::uint32_t> target(std::size_t index, DataKind kind, std::uint64_t offset,
                               std::uint8_t op);
  Status set_items(std::uint32_t dict, std::size_t first, std::uint64_t offset, std::uint8_t op);
  Status reduce(std::uint64_t offset);
  Status global(std::uint64_t offset);
  Result<std::string_view> line(std::uint64_t op_offset);
  Status step(std::uint8_t op, std::uint64_t offset);

  const std::string& name_;
  std::span<const std::uint8_t> bytes_;
  std::size_t pos_ = 0;
  DataTree tree_;
  std::vector<std::uint32_t> stack_;
  std::vector<std::size_t> marks_;
  std::unordered_map<std::uint32_t, std::uint32_t> memo_;
  bool stopped_ = false;
};

Result<std::uint32_t> PickleReader::memo_index(std::size_t bytes, std::uint64_t op_offset,
                                               std::uint8_t op) {
  NPKIT_ASSIGN(const std::uint8_t* p, take(bytes, op_offset, op));
  if (bytes == 1) return std::uint32_t{p[0]};
  return std::uint32_t{p[0]} | std::uint32_t{p[1]} << 8 | std::uint32_t{p[2]} << 16 |
         std::uint32_t{p[3]} << 24;
}

Result<const std::uint8_t*> PickleReader::take(std::size_t n, std::uint64_t op_offset,
                                               std::uint8_t op) {
  if (bytes_.size() - pos_ < n) {
    return at(op_offset, fmt::format("the file ends inside pickle opcode {} (it needs {} more "
                                     "byte(s), the file has {})",
                                     pickle_opcode_name(op), n, bytes_.size() - pos_));
  }
  const std::uint8_t* p = bytes_.data() + pos_;
  pos_ += n;
  return p;
}

Status PickleReader::new_node_allowed(std::uint64_t offset) const {
  if (tree_.size() >= kMaxPickleValues) {
    return at(offset, fmt::format("more than {} values in one pickle", kMaxPickleValues));
  }
  return Ok{};
}

Status PickleReader::push(std::uint32_t id, std::uint64_t offset) {
  if (stack_.size() >= kMaxPickleValues) {
    return at(offset, fmt::format("more than {} values on the pickle's stack", kMaxPickleValues));
  }
  stack_.push_back(id);
  return Ok{};
}

Result<std::uint32_t> PickleReader::pop(std::uint64_t offset, std::uint8_t op) {
  const std::size_t floor = marks_.empty() ? 0 : marks_.back();
  if (stack_.size() <= floor) {
    return at(offset,
              fmt::format("pickle opcode {} needs a value and finds none", pickle_opcode_name(op)));
  }
  const std::uint32_t v = stack_.back();
  stack_.pop_back();
  return v;
}

Result<std::size_t> PickleReader::pop_mark(std::uint64_t offset, std::uint8_t op) {
  if (marks_.empty()) {
    return at(offset,
              fmt::format("pickle opcode {} without a MARK before it", pickle_opcode_name(op)));
  }
  const std::size_t m = marks_.back();
  marks_.pop_back();
  return m;
}

Status PickleReader::place(std::uint32_t value, std::uint32_t container, std::uint64_t offset) {
  DataNode& v = tree_.node(value);
  if (v.kind == DataKind::kBuilder) {
    return at(offset, "a torch.jit._pickle list builder used as a value, not called by REDUCE");
  }
  if (value == container) return at(offset, "a container put inside itself");
  v.sealed = true;
  // A value is sealed when placed, so its depth is final: the container's is exact.
  DataNode& c = tree_.node(container);
  if (v.depth >= kMaxPickleDepth) {
    return at(offset, fmt::format("values nested more than {} deep", kMaxPickleDepth));
  }
  c.depth = std::max<std::uint16_t>(c.depth, v.depth + 1);
  return Ok{};
}

Result<std::uint32_t> PickleReader::target(std::size_t index, DataKind kind, std::uint64_t offset,
                                           std::uint8_t op) {
  const std::size_t floor = marks_.empty() ? 0 : marks_.back();
  if (index >= stack_.size() || index < floor) {
    return at(offset, fmt::format("pickle opcode {} finds no {} to add to", pickle_opcode_name(op),
                                  data_kind_name(kind)));
  }
  const std::uint32_t id = stack_[index];
  const DataNode& n = tree_.node(id);
  if (n.kind != kind) {
    return at(offset, fmt::format("pickle opcode {} adds to {}, not {}", pickle_opcode_name(op),
                                  data_kind_name(n.kind), data_kind_name(kind)));
  }
  if (n.sealed) {
    return at(offset, fmt::format("pickle opcode {} changes {} already inside another value",
                                  pickle_opcode_name(op), data_kind_name(kind)));
  }
  return id;
}

Status PickleReader::set_items(std::uint32_t dict, std::size_t first, std::uint64_t offset,
                               std::uint8_t op) {
  if ((stack_.size() - first) % 2 != 0) {
    return at(offset,
              fmt::format("pickle opcode {} with a key without a value", pickle_opcode_name(op)));
  }
  for (std::size_t i = first; i < stack_.size(); i += 2) {
    const DataKind k = tree_.node(stack_[i]).kind;
    if (k != DataKind::kString && k != DataKind::kInt) {
      return at(offset, fmt::format("a dict key is {}; a Flight Recorder dump's keys are strings "
                                    "or integers",
                                    data_kind_name(k)));
    }
    NPKIT_TRY(place(stack_[i], dict, offset));
    NPKIT_TRY(place(stack_[i + 1], dict, offset));
    tree_.items(dict).push_back(stack_[i]);
    tree_.items(dict).push_back(stack_[i + 1]);
  }
  stack_.resize(first);
  return Ok{};
}

Result<std::string_view> PickleReader::line(std::uint64_t op_offset) {
  const std::size_t start = pos_;
  while (pos_ < bytes_.size() && bytes_[pos_] != '\n') {
    if (pos_ - start >= kMaxGlobalLine) {
      return at(op_offset, fmt::format("a GLOBAL name longer than {} bytes", kMaxGlobalLine));
    }
    ++pos_;
  }
  if (pos_ == bytes_.size()) {
    return at(op_offset, "the file ends inside pickle opcode GLOBAL (its name is not finished)");
  }
  const std::string_view text(reinterpret_cast<const char*>(bytes_.data() + start), pos_ - start);
  ++pos_;
  return text;
}

Status PickleReader::global(std::uint64_t offset) {
  NPKIT_ASSIGN(const std::string_view module, line(offset));
  NPKIT_ASSIGN(const std::string_view name, line(offset));
  if (module == kBuilderModule) {
    for (std::uint32_t i = 0; i < kBuilderNames.size(); ++i) {
      if (name == kBuilderNames[i]) {
        NPKIT_TRY(new_node_allowed(offset));
        return push(tree_.add_builder(i, offset), offset);
      }
    }
  }
  return at(offset, fmt::format("pickle opcode 0x63 (GLOBAL) {}.{} is not allowed in a Flight "
                                "Recorder dump; only {}'s build_intlist, build_doublelist, "
                                "build_boollist and restore_type_tag are",
                                module, name, kBuilderModule));
}

Status PickleReader::reduce(std::uint64_t offset) {
  NPKIT_ASSIGN(const std::uint32_t args, pop(offset, 'R'));
  NPKIT_ASSIGN(const std::uint32_t callable, pop(offset, 'R'));
  const DataNode& c = tree_.node(callable);
  if (c.kind != DataKind::kBuilder) {
    return at(offset, fmt::format("pickle opcode REDUCE calls {}; only the list builders of "
                                  "torch.jit._pickle may be called",
                                  data_kind_name(c.kind)));
  }
  if (tree_.node(args).kind != DataKind::kTuple) {
    return at(offset, "pickle opcode REDUCE: the arguments are not a tuple");
  }
  const auto& a = tree_.items(args);
  const std::uint32_t which = c.ref;
  const std::size_t want = which == kRestoreTypeTag ? 2 : 1;
  if (a.size() != want) {
    return at(offset, fmt::format("torch.jit._pickle.{} takes {} argument(s), given {}",
                                  kBuilderNames[which], want, a.size()));
  }
  const std::uint32_t value = a[0];
  if (which != kRestoreTypeTag) {
    const DataKind element = which == kIntList      ? DataKind::kInt
                             : which == kDoubleList ? DataKind::kFloat
                                                    : DataKind::kBool;
    if (tree_.node(value).kind != DataKind::kList) {
      return at(offset, fmt::format("torch.jit._pickle.{} is given {}, not a list",
                                    kBuilderNames[which], data_kind_name(tree_.node(value).kind)));
    }
    for (const std::uint32_t item : tree_.items(value)) {
      if (tree_.node(item).kind != element) {
        return at(offset, fmt::format("torch.jit._pickle.{}: an element is {}, not {}",
                                      kBuilderNames[which], data_kind_name(tree_.node(item).kind),
                                      data_kind_name(element)));
      }
    }
  }
  return push(value, offset);
}

Status PickleReader::step(std::uint8_t op, std::uint64_t offset) {
  switch (op) {
    case 0x80:
      return at(offset, "pickle opcode PROTO after the start of the pickle");
    case '.': {
      if (!marks_.empty()) return at(offset, "pickle opcode STOP with a MARK still open");
      if (stack_.size() != 1) {
        return at(offset,
                  fmt::format("pickle opcode STOP leaves {} values, not one", stack_.size()));
      }
      if (tree_.node(stack_[0]).kind == DataKind::kBuilder) {
        return at(offset, "the pickle's value is a list builder, not a value");
      }
      tree_.root = stack_[0];
      stopped_ = true;
      return Ok{};
    }
    case '(':
      if (marks_.size() >= kMaxPickleMarks) {
        return at(offset, fmt::format("more than {} nested MARKs", kMaxPickleMarks));
      }
      marks_.push_back(stack_.size());
      return Ok{};
    case '}':
    case ']':
    case ')': {
      NPKIT_TRY(new_node_allowed(offset));
      const DataKind k = op == '}'   ? DataKind::kDict
                         : op == ']' ? DataKind::kList
                                     : DataKind::kTuple;
      return push(tree_.add_container(k, offset), offset);
    }
    case 'a': {
      NPKIT_ASSIGN(const std::uint32_t v, pop(offset, op));
      NPKIT_ASSIGN(const std::uint32_t list,
                   target(stack_.size() - 1, DataKind::kList, offset, op));
      NPKIT_TRY(place(v, list, offset));
      tree_.items(list).push_back(v);
      return Ok{};
    }
    case 'e': {
      NPKIT_ASSIGN(const std::size_t m, pop_mark(offset, op));
      NPKIT_ASSIGN(const std::uint32_t list, target(m - 1, DataKind::kList, offset, op));
      for (std::size_t i = m; i < stack_.size(); ++i) {
        NPKIT_TRY(place(stack_[i], list, offset));
        tree_.items(list).push_back(stack_[i]);
      }
      stack_.resize(m);
      return Ok{};
    }
    case 's': {
      if (stack_.size() < 3 + (marks_.empty() ? 0 : marks_.back())) {
        return at(offset, "pickle opcode SETITEM needs a dict, a key and a value");
      }
      NPKIT_ASSIGN(const std::uint32_t dict,
                   target(stack_.size() - 3, DataKind::kDict, offset, op));
      return set_items(dict, stack_.size() - 2, offset, op);
    }
    case 'u': {
      NPKIT_ASSIGN(const std::size_t m, pop_mark(offset, op));
      NPKIT_ASSIGN(const std::uint32_t dict, target(m - 1, DataKind::kDict, offset, op));
      return set_items(dict, m, offset, op);
    }
    case 't':
    case 0x85:
    case 0x86:
    case 0x87: {
      std::size_t first = 0;
      if (op == 't') {
        NPKIT_ASSIGN(first, pop_mark(offset, op));
      } else {
        const std::size_t n = op - 0x84u;
        const std::size_t floor = marks_.empty() ? 0 : marks_.back();
        if (stack_.size() < floor + n) {
          return at(offset,
                    fmt::format("pickle opcode {} needs {} value(s)", pickle_opcode_name(op), n));
        }
        first = stack_.size() - n;
      }
      NPKIT_TRY(new_node_allowed(offset));
      const std::uint32_t tuple = tree_.add_container(DataKind::kTuple, offset);
      for (std::size_t i = first; i < stack_.size(); ++i) {
        NPKIT_TRY(place(stack_[i], tuple, offset));
        tree_.items(tuple).push_back(stack_[i]);
      }
      stack_.resize(first);
      return push(tuple, offset);
    }
    case 'X':
    case 0x8c: {
      std::size_t n = 0;
      if (op == 'X') {
        NPKIT_ASSIGN(const std::uint8_t* p, take(4, offset, op));
        n = std::size_t{p[0]} | std::size_t{p[1]} << 8 | std::size_t{p[2]} << 16 |
            std::size_t{p[3]} << 24;
      } else {
        NPKIT_ASSIGN(const std::uint8_t* p, take(1, offset, op));
        n = p[0];
      }
      if (n > bytes_.size() - pos_) {
        return at(offset, fmt::format("a string of {} bytes; the file has {} left", n,
                                      bytes_.size() - pos_));
      }
      NPKIT_ASSIGN(const std::uint8_t* s, take(n, offset, op));
      NPKIT_TRY(new_node_allowed(offset));
      return push(tree_.add_string(std::string(reinterpret_cast<const char*>(s), n), offset),
                  offset);
    }
    case 'K':
    case 'M':
    case 'J': {
      const std::size_t n = op == 'K' ? 1 : op == 'M' ? 2 : 4;
      NPKIT_ASSIGN(const std::uint8_t* p, take(n, offset, op));
      std::uint32_t u = 0;
      for (std::size_t i = 0; i < n; ++i) u |= std::uint32_t{p[i]} << (8 * i);
      const std::int64_t v = op == 'J' ? std::int64_t{static_cast<std::int32_t>(u)} : u;
      NPKIT_TRY(new_node_allowed(offset));
      return push(tree_.add_scalar(DataKind::kInt, offset, v), offset);
    }
    case 0x8a: {
      NPKIT_ASSIGN(const std::uint8_t* len, take(1, offset, op));
      const std::size_t n = len[0];
      if (n > 8) {
        return at(offset,
                  fmt::format("an integer of {} bytes; Flight Recorder integers fit in 8", n));
      }
      NPKIT_ASSIGN(const std::uint8_t* p, take(n, offset, op));
      std::uint64_t u = 0;
      for (std::size_t i = 0; i < n; ++i) u |= std::uint64_t{p[i]} << (8 * i);
      if (n > 0 && n < 8 && (p[n - 1] & 0x80) != 0) u |= ~std::uint64_t{0} << (8 * n);
      NPKIT_TRY(new_node_allowed(offset));
      return push(tree_.add_scalar(DataKind::kInt, offset, static_cast<std::int64_t>(u)), offset);
    }
    case 'G': {
      NPKIT_ASSIGN(const std::uint8_t* p, take(8, offset, op));
      std::uint64_t u = 0;
      for (std::size_t i = 0; i < 8; ++i) u = u << 8 | p[i];
      NPKIT_TRY(new_node_allowed(offset));
      return push(tree_.add_scalar(DataKind::kFloat, offset, 0, std::bit_cast<double>(u)), offset);
    }
    case 'N':
    case 0x88:
    case 0x89: {
      NPKIT_TRY(new_node_allowed(offset));
      const DataKind k = op == 'N' ? DataKind::kNone : DataKind::kBool;
      return push(tree_.add_scalar(k, offset, op == 0x88 ? 1 : 0), offset);
    }
    case 'q':
    case 'r': {
      NPKIT_ASSIGN(const std::uint32_t index, memo_index(op == 'q' ? 1 : 4, offset, op));
      if (stack_.empty()) return at(offset, "pickle opcode BINPUT with nothing to store");
      memo_[index] = stack_.back();
      return Ok{};
    }
    case 'h':
    case 'j': {
      NPKIT_ASSIGN(const std::uint32_t index, memo_index(op == 'h' ? 1 : 4, offset, op));
      const auto it = memo_.find(index);
      if (it == memo_.end()) {
        return at(offset, fmt::format("pickle opcode {} of memo index {}, which was never stored",
                                      pickle_opcode_name(op), index));
      }
      return push(it->second, offset);
    }
    case 'c':
      return global(offset);
    case 'R':
      return reduce(offset);
    default:
      return not_allowed(offset, op);
  }
}

Result<DataTree> PickleReader::run() {
  if (bytes_.size() < 2 || bytes_[0] != 0x80) {
    return at(0, "not a pickle: it does not start with opcode PROTO (0x80)");
  }
  if (bytes_[1] != 2) {
    return at(0, fmt::format("pickle protocol {}; PyTorch's Flight Recorder writes protocol 2",
                             bytes_[1]));
  }
  pos_ = 2;
  while (!stopped_) {
    if (pos_ >= bytes_.size()) {
      return at(bytes_.size(), "the file ends before the pickle's STOP opcode (truncated?)");
    }
    const std::uint64_t offset = pos_;
    const std::uint8_t op = bytes_[pos_++];
    NPKIT_TRY(step(op, offset));
  }
  if (pos_ != bytes_.size()) {
    return at(pos_, fmt::format("{} byte(s) after the pickle's STOP opcode", bytes_.size() - pos_));
  }
  return std::move(tree_);
}

}  // namespace

Result<DataTree> read_pickle(const std::string& name, std::span<const std::uint8_t> bytes) {
  PickleReader reader(name, bytes);
  return reader.run();
}

}  // namespace npkit
