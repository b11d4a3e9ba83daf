// Hostile input, PyTorch Flight Recorder dumps: every pickle opcode outside the reader's allowed
// set, GLOBALs other than torch.jit._pickle's list builders, deep nesting, huge declared
// lengths, memo bombs and truncated files each get one error naming the file and the offset;
// nothing is executed and memory stays bounded. The opcode names expected come from Python's
// pickletools (tests/data/flight_recorder/opcode_names.txt, written by make_fixtures.py).
#include <catch2/catch.hpp>

#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>

#include "hostile/hostile_run.hpp"
#include "hostile/memory_limit.hpp"
#include "import/flight_recorder/pickle_reader.hpp"
#include "support/temp_dir.hpp"
#include "support/test_data.hpp"

namespace npkit::test {
namespace {

std::string read_file(const std::string& path) {
  std::ifstream in(require_path(path), std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// pickletools' name of every opcode it knows, by byte.
std::map<int, std::string> pickletools_names() {
  std::istringstream in(read_file(data_path("flight_recorder/opcode_names.txt")));
  std::map<int, std::string> out;
  std::string code;
  std::string name;
  while (in >> code >> name) out[std::stoi(code, nullptr, 16)] = name;
  REQUIRE(out.size() >= 68);
  return out;
}

// The opcodes the reader takes (pickle_reader.hpp); PROTO only first.
const std::set<int> kAllowed = {'(', ')', '.',  'G',  'J',  'K',  'M',  'N',  'R',  'X',
                                ']', 'a', 'c',  'e',  'h',  'j',  'q',  'r',  's',  't',
                                'u', '}', 0x80, 0x85, 0x86, 0x87, 0x88, 0x89, 0x8a, 0x8c};

Result<DataTree> read(const std::string& bytes) {
  return read_pickle("d", {reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size()});
}

std::string p2(const std::string& body) {
  return std::string("\x80\x02", 2) + body;
}

std::string s(std::string_view text) {
  std::string out = "X";
  const auto n = static_cast<std::uint32_t>(text.size());
  for (int i = 0; i < 4; ++i) out += static_cast<char>((n >> (8 * i)) & 0xff);
  return out + std::string(text);
}

std::string error_line(const std::string& what) {
  return "npkit-analyze: error: " + what + "\n";
}

}  // namespace

TEST_CASE("hostile Flight Recorder: every opcode outside the allowed set is refused by name",
          "[hostile]") {
  const auto names = pickletools_names();
  int refused = 0;
  for (int op = 0; op < 256; ++op) {
    if (kAllowed.contains(op)) continue;
    const auto it = names.find(op);
    const std::string name = it == names.end() ? "unknown" : it->second;
    char hex[8];
    std::snprintf(hex, sizeof hex, "0x%02x", op);
    const std::string expected = std::string("d: offset ") + "{}" + ": pickle opcode " + hex +
                                 " (" + name + ") is not allowed in a Flight Recorder dump";
    INFO("opcode " << hex << " " << name);
    // First thing after PROTO, and inside an open dict, with bytes after it it could consume.
    auto first = read(p2(std::string(1, static_cast<char>(op)) + std::string(16, '\0')));
    REQUIRE_FALSE(first);
    CHECK(first.error().message == replace_all(expected, "{}", "2"));
    auto inner = read(p2("}(" + s("k") + std::string(1, static_cast<char>(op)) + "Nu."));
    REQUIRE_FALSE(inner);
    CHECK(inner.error().message == replace_all(expected, "{}", "10"));
    ++refused;
  }
  // 256 byte values less the 30 allowed.
  CHECK(refused == 226);
  CHECK(names.at(0x62) == "BUILD");  // the ones that run code are among them
  CHECK(names.at(0x69) == "INST");
  CHECK(names.at(0x93) == "STACK_GLOBAL");
}

TEST_CASE("hostile Flight Recorder: REDUCE of any GLOBAL but the list builders is refused",
          "[hostile]") {
  for (const std::string& global : {std::string("os\nsystem\n"), std::string("builtins\neval\n"),
                                    std::string("torch.jit._pickle\nbuild_tensorlist\n"),
                                    std::string("torch._utils\n_rebuild_tensor_v2\n")}) {
    auto r = read(p2("c" + global + "(" + s("id") + "tR."));
    REQUIRE_FALSE(r);
    const std::string dotted = replace_all(global.substr(0, global.size() - 1), "\n", ".");
    CHECK(r.error().message ==
          "d: offset 2: pickle opcode 0x63 (GLOBAL) " + dotted +
              " is not allowed in a Flight Recorder dump; only torch.jit._pickle's "
              "build_intlist, build_doublelist, build_boollist and restore_type_tag are");
  }
  // REDUCE of something that is not a builder: a list called with ().
  auto called = read(p2("])R."));
  REQUIRE_FALSE(called);
  CHECK(called.error().message ==
        "d: offset 4: pickle opcode REDUCE calls a list; only the list builders of "
        "torch.jit._pickle may be called");
  // A GLOBAL whose name never ends.
  auto endless = read(p2("c" + std::string(1000, 'a')));
  REQUIRE_FALSE(endless);
  CHECK(endless.error().message == "d: offset 2: a GLOBAL name longer than 256 bytes");
}

TEST_CASE("hostile Flight Recorder: deep nesting is refused, never recursed into", "[hostile]") {
  auto marks = read(p2(std::string(1'000'000, '(')));
  REQUIRE_FALSE(marks);
  CHECK(marks.error().message == "d: offset 1026: more than 1024 nested MARKs");
  // 10^6 empty lists, each then appended into the one below it: 10^6 levels deep.
  auto lists = read(p2(std::string(1'000'000, ']') + std::string(999'999, 'a') + "."));
  REQUIRE_FALSE(lists);
  CHECK(lists.error().message ==
        "d: offset " + std::to_string(2 + 1'000'000 + 63) + ": values nested more than 64 deep");
}

TEST_CASE("hostile Flight Recorder: lengths past the end of the file are refused", "[hostile]") {
  auto huge = read(p2(std::string("X\xff\xff\xff\xff", 5) + "abc"));
  REQUIRE_FALSE(huge);
  CHECK(huge.error().message == "d: offset 2: a string of 4294967295 bytes; the file has 3 left");
  auto long1 = read(p2(std::string("\x8a\xff", 2) + std::string(300, '\x01')));
  REQUIRE_FALSE(long1);
  CHECK(long1.error().message ==
        "d: offset 2: an integer of 255 bytes; Flight Recorder integers "
        "fit in 8");
}

TEST_CASE("hostile Flight Recorder: memo indices never stored, and far ones, cost nothing",
          "[hostile]") {
  auto missing = read(p2(std::string("j\xff\xff\xff\xff.", 6)));
  REQUIRE_FALSE(missing);
  CHECK(missing.error().message ==
        "d: offset 2: pickle opcode LONG_BINGET of memo index 4294967295, which was never "
        "stored");
  auto binget = read(p2("h\xc8."));
  REQUIRE_FALSE(binget);
  CHECK(binget.error().message ==
        "d: offset 2: pickle opcode BINGET of memo index 200, which was never stored");
  // LONG_BINPUT 2^32 - 1 stores one entry, not 2^32.
  auto far = read(p2(std::string("Nr\xff\xff\xff\xff.", 7)));
  REQUIRE(far);
  CHECK(far->node(far->root).kind == DataKind::kNone);
}

TEST_CASE("hostile Flight Recorder: a memo bomb is refused within bounded memory", "[hostile]") {
  // One entry whose input_sizes holds 20,000 lists, referred to 200,000 times by BINGET:
  // 4 × 10^9 elements to walk from a file of a few hundred KB.
  std::string entry = "}(" + s("record_id") + "K\x01" + s("process_group") + s("0") + s("pg") +
                      "\x86" + s("collective_seq_id") + "K\x01" + s("profiling_name") +
                      s("nccl:all_reduce") + s("time_created_ns") + "K\x01" + s("state") +
                      s("completed") + s("input_sizes") + "](";
  for (int i = 0; i < 20'000; ++i)
    entry +=
        "](K\x01K\x02"
        "e";
  entry += "eu";
  std::string dump = "}(" + s("version") + s("2.10") + s("entries") + "](" + entry + "q\x07";
  for (int i = 0; i < 200'000; ++i) dump += "h\x07";
  dump += "eu.";
  TempDir tmp;
  tmp.write_file("fr/nccl_trace_rank_0", p2(dump));
  const CliRun run = run_hostile_limited(tmp, {"info", "$DIR/fr"});
  CHECK(run.exit_code == 2);
  CHECK(run.err.find("the dump refers to its values more often than its size allows") !=
        std::string::npos);
  CHECK(run.err.rfind("npkit-analyze: error: $DIR/fr/nccl_trace_rank_0: offset ", 0) == 0);
}

TEST_CASE("hostile Flight Recorder: every truncation of a real-shaped dump is an error",
          "[hostile]") {
  const std::string whole = read_file(data_path("flight_recorder/pickle_2_10/nccl_trace_rank_0"));
  REQUIRE(read(whole));
  for (std::size_t n = 0; n < whole.size(); ++n) {
    INFO("first " << n << " bytes");
    auto cut = read(whole.substr(0, n));
    REQUIRE_FALSE(cut);
    CHECK(cut.error().message.rfind("d: offset ", 0) == 0);
  }
  // End to end: the error names the file and the offset where it ends.
  TempDir tmp;
  tmp.write_file("fr/nccl_trace_rank_0", whole.substr(0, 1000));
  tmp.write_file("fr/nccl_trace_rank_1", whole);
  const CliRun run = run_hostile(tmp, {"info", "$DIR/fr"});
  CHECK(run.exit_code == 2);
  CHECK(run.err.rfind("npkit-analyze: error: $DIR/fr/nccl_trace_rank_0: offset ", 0) == 0);
}

TEST_CASE("hostile Flight Recorder: deeply nested JSON and a wrong field type are named",
          "[hostile]") {
  TempDir tmp;
  tmp.write_file("fr/trace_0",
                 "{\"entries\": " + std::string(100'000, '[') + std::string(100'000, ']') + "}");
  const CliRun deep = run_hostile(tmp, {"info", "$DIR/fr"});
  CHECK(deep.exit_code == 2);
  CHECK(deep.err.rfind("npkit-analyze: error: $DIR/fr/trace_0: offset ", 0) == 0);
  tmp.write_file("fr/trace_0", "{\"version\": \"2.10\", \"entries\": [{\"record_id\": \"one\"}]}");
  const CliRun typed = run_hostile(tmp, {"info", "$DIR/fr"});
  CHECK(typed.exit_code == 2);
  CHECK(typed.err == error_line("$DIR/fr/trace_0: offset 46: entries[0].record_id: expected an "
                                "integer, found a string"));
  tmp.write_file("fr/trace_0", "{\"version\": \"3.0\", \"entries\": []}");
  const CliRun newer = run_hostile(tmp, {"info", "$DIR/fr"});
  CHECK(newer.exit_code == 2);
  CHECK(newer.err == error_line("$DIR/fr/trace_0: offset 12: version: format version \"3.0\"; "
                                "this reader knows Flight Recorder format 2 (2.4 to 2.10)"));
}

}  // namespace npkit::test
