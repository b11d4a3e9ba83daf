// The restricted pickle reader on byte sequences written by hand (the opcodes are those of
// Python's pickletools; values follow from the bytes).
#include <catch2/catch.hpp>

#include <string>
#include <string_view>

#include "import/flight_recorder/pickle_reader.hpp"

using namespace npkit;

namespace {

Result<DataTree> read(std::string_view body) {
  const std::string bytes = std::string("\x80\x02", 2) + std::string(body);
  return read_pickle("t.pkl", {reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size()});
}

// The bytes of a literal, NULs included.
template <std::size_t N>
std::string b(const char (&literal)[N]) {
  return std::string(literal, N - 1);
}

std::string s(std::string_view text) {
  std::string out = "X";
  const auto n = static_cast<std::uint32_t>(text.size());
  for (int i = 0; i < 4; ++i) out += static_cast<char>((n >> (8 * i)) & 0xff);
  return out + std::string(text);
}

}  // namespace

TEST_CASE("pickle integers: BININT1, BININT2, BININT (signed), LONG1 of 0 to 8 bytes") {
  // [7, 0x1234, -2, LONG1 0 bytes = 0, LONG1 \xff = -1, LONG1 8 bytes = 2^40]
  const std::string body = b("](K\x07M\x34\x12J\xfe\xff\xff\xff\x8a\x00\x8a\x01\xff") +
                           b("\x8a\x08\x00\x00\x00\x00\x00\x01\x00\x00") + "e.";
  auto t = read(body);
  REQUIRE(t);
  const auto& items = t->items(t->root);
  REQUIRE(items.size() == 6);
  CHECK(t->node(items[0]).i == 7);
  CHECK(t->node(items[1]).i == 0x1234);
  CHECK(t->node(items[2]).i == -2);
  CHECK(t->node(items[3]).i == 0);
  CHECK(t->node(items[4]).i == -1);
  CHECK(t->node(items[5]).i == std::int64_t{1} << 40);
}

TEST_CASE("pickle floats are big-endian doubles - None, True, False, strings and tuples") {
  // (1.5, None, True, False, "hé") as MARK ... TUPLE; 1.5 = 0x3FF8000000000000.
  const std::string body = b("(G\x3f\xf8\x00\x00\x00\x00\x00\x00N\x88\x89") + s("h\xc3\xa9") + "t.";
  auto t = read(body);
  REQUIRE(t);
  REQUIRE(t->node(t->root).kind == DataKind::kTuple);
  const auto& items = t->items(t->root);
  REQUIRE(items.size() == 5);
  CHECK(t->node(items[0]).d == 1.5);
  CHECK(t->node(items[1]).kind == DataKind::kNone);
  CHECK(t->node(items[2]).kind == DataKind::kBool);
  CHECK(t->node(items[2]).i == 1);
  CHECK(t->node(items[3]).i == 0);
  CHECK(t->text(items[4]) == "h\xc3\xa9");
}

TEST_CASE("pickle dicts: SETITEM and SETITEMS - a key set twice keeps the last value") {
  // {"a": 1} then SETITEMS "b": 2, "a": 3
  const std::string body = "}" + s("a") + "K\x01s(" + s("b") + "K\x02" + s("a") + "K\x03u.";
  auto t = read(body);
  REQUIRE(t);
  REQUIRE(t->node(t->root).kind == DataKind::kDict);
  CHECK(t->node(static_cast<std::uint32_t>(t->find(t->root, "a"))).i == 3);
  CHECK(t->node(static_cast<std::uint32_t>(t->find(t->root, "b"))).i == 2);
  CHECK(t->find(t->root, "c") == -1);
}

TEST_CASE("pickle memo: BINPUT/BINGET and LONG_BINPUT/LONG_BINGET refer to one value") {
  // [ "x" BINPUT 3, BINGET 3, ["y"] LONG_BINPUT 65536, LONG_BINGET 65536 ]
  const std::string body =
      "](" + s("x") + "q\x03h\x03](" + s("y") + b("er\x00\x00\x01\x00j\x00\x00\x01\x00") + "e.";
  auto t = read(body);
  REQUIRE(t);
  const auto& items = t->items(t->root);
  REQUIRE(items.size() == 4);
  CHECK(items[0] == items[1]);
  CHECK(items[2] == items[3]);
  CHECK(t->text(t->items(items[2])[0]) == "y");
}

TEST_CASE("torch.jit._pickle's list builders give their list - restore_type_tag its value") {
  const std::string intlist =
      "ctorch.jit._pickle\nbuild_intlist\n(](K\x01K\x02"
      "etR";
  const std::string boollist =
      "ctorch.jit._pickle\nbuild_boollist\n(](\x88\x89"
      "etR";
  const std::string doublelist =
      b("ctorch.jit._pickle\nbuild_doublelist\n(](G\x40\x00\x00\x00\x00\x00\x00\x00") + "etR";
  const std::string tagged = "ctorch.jit._pickle\nrestore_type_tag\n" + s("v") + s("str") + "\x86R";
  auto t = read("](" + intlist + boollist + doublelist + tagged + "e.");
  REQUIRE(t);
  const auto& items = t->items(t->root);
  REQUIRE(items.size() == 4);
  REQUIRE(t->node(items[0]).kind == DataKind::kList);
  CHECK(t->items(items[0]).size() == 2);
  CHECK(t->node(t->items(items[0])[1]).i == 2);
  CHECK(t->node(t->items(items[1])[0]).i == 1);
  CHECK(t->node(t->items(items[2])[0]).d == 2.0);
  CHECK(t->text(items[3]) == "v");
}

TEST_CASE("a list builder given the wrong elements, or left uncalled, is an error") {
  auto wrong = read("ctorch.jit._pickle\nbuild_intlist\n(](" + s("x") + "etR.");
  REQUIRE_FALSE(wrong);
  CHECK(wrong.error().message ==
        "t.pkl: offset 46: torch.jit._pickle.build_intlist: an element is a string, not an "
        "integer");
  auto uncalled = read("](ctorch.jit._pickle\nbuild_intlist\ne.");
  REQUIRE_FALSE(uncalled);
  CHECK(uncalled.error().message ==
        "t.pkl: offset 37: a torch.jit._pickle list builder used as a value, not called by "
        "REDUCE");
}

TEST_CASE("a pickle of another protocol, or one without PROTO, is refused at offset 0") {
  const std::string p3 = b("\x80\x03N.");
  auto t = read_pickle("t.pkl", {reinterpret_cast<const std::uint8_t*>(p3.data()), p3.size()});
  REQUIRE_FALSE(t);
  CHECK(t.error().message ==
        "t.pkl: offset 0: pickle protocol 3; PyTorch's Flight Recorder writes protocol 2");
  const std::string none = "N.";
  auto u = read_pickle("t.pkl", {reinterpret_cast<const std::uint8_t*>(none.data()), none.size()});
  REQUIRE_FALSE(u);
  CHECK(u.error().message ==
        "t.pkl: offset 0: not a pickle: it does not start with opcode PROTO (0x80)");
}

TEST_CASE("a container is not changed once it is inside another one") {
  // L = [] BINPUT 0; [L] ; BINGET 0 ; APPEND 1 to L → refused
  auto t =
      read(b("]q\x00]h\x00"
             "ah\x00K\x01"
             "a."));
  REQUIRE_FALSE(t);
  CHECK(t.error().message ==
        "t.pkl: offset 13: pickle opcode APPEND changes a list already inside another value");
  auto self =
      read(b("]q\x00h\x00"
             "a."));
  REQUIRE_FALSE(self);
  CHECK(self.error().message == "t.pkl: offset 7: a container put inside itself");
}

TEST_CASE("bytes after STOP, and a file without STOP, are errors") {
  auto after = read("N.N");
  REQUIRE_FALSE(after);
  CHECK(after.error().message == "t.pkl: offset 4: 1 byte(s) after the pickle's STOP opcode");
  auto cut = read(b("](K\x01"));
  REQUIRE_FALSE(cut);
  CHECK(cut.error().message ==
        "t.pkl: offset 6: the file ends before the pickle's STOP opcode (truncated?)");
}
