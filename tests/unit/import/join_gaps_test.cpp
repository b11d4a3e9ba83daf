// The gaps of a join by (function, seq), worded once for every input (import/join_gaps.hpp).
// Expected texts are written out by hand from the contract.

#include <catch2/catch.hpp>

#include "import/join_gaps.hpp"

using npkit::MemberOperation;
using npkit::RunCommunicator;
using npkit::RunInstance;

namespace {

RunCommunicator comm_of(std::int32_t nranks) {
  RunCommunicator c;
  c.scope = "comm 00000000000000aa";
  c.nranks = nranks;
  return c;
}

std::string warning_lines(const npkit::Diagnostics& d) {
  std::string s;
  for (const auto& g : d.warnings()) {
    s += std::to_string(g.count) + " " + g.category + ":";
    for (const auto& e : g.examples) s += " [" + e + "]";
    s += "\n";
  }
  return s;
}

}  // namespace

TEST_CASE("join gaps: seq numbers missing at the start and in between", "[join_gaps]") {
  RunCommunicator c = comm_of(2);
  npkit::Diagnostics d;
  // AllReduce: 2, 2 (a repeat), 3, 5, 9..10, 12, 14: starts at 2 (0 and 1 missing); holes 4,
  // 6-8, 11, 13 = 1 + 3 + 1 + 1 = 6 values, four ranges (three named). Warned: 2 + 6 values.
  // Broadcast: 0..1, none.
  npkit::SeqsByFunc seqs;
  seqs["AllReduce"] = {14, 2, 3, 5, 2, 9, 10, 12};
  seqs["AllReduce"].push_back(14);
  seqs["Broadcast"] = {1, 0};
  npkit::add_seq_gaps(c, 1, seqs, {"jump cause", "start cause"}, d);
  REQUIRE(c.gaps.size() == 2);
  CHECK(c.gaps[0].scope == "comm 00000000000000aa");
  CHECK(c.gaps[0].kind == "seq start");
  CHECK(c.gaps[0].detail ==
        "rank 1 AllReduce: seq numbers start at 2; 2 earlier one(s) are missing (start cause)");
  CHECK(c.gaps[1].kind == "seq jump");
  CHECK(c.gaps[1].detail ==
        "rank 1 AllReduce: 6 seq number(s) missing (4, 6-8, 11, ...): jump cause");
  CHECK(warning_lines(d) == "8 seq gaps: [comm 00000000000000aa: " + c.gaps[0].detail +
                                "] [comm 00000000000000aa: " + c.gaps[1].detail + "]\n");
}

TEST_CASE("join gaps: members agree on every value or the instance is a count mismatch",
          "[join_gaps]") {
  const MemberOperation a{0, 1024, 4096, "ncclFloat32", "RING", "LL"};
  MemberOperation b = a;
  b.rank = 1;
  const std::vector<MemberOperation> same{a, b};
  CHECK(npkit::operations_agree(same));
  for (int field = 0; field < 5; ++field) {
    MemberOperation c = b;
    if (field == 0) c.count = 1025;
    if (field == 1) c.bytes = 4100;
    if (field == 2) c.type = "ncclFloat16";
    if (field == 3) c.algo = "TREE";
    if (field == 4) c.proto = "SIMPLE";
    const std::vector<MemberOperation> differ{a, c};
    CHECK_FALSE(npkit::operations_agree(differ));
  }
  RunCommunicator comm = comm_of(2);
  RunInstance inst;
  inst.label = "AllReduce seq 4";
  b.algo = "TREE";
  const std::vector<MemberOperation> differ{a, b};
  npkit::add_count_mismatch(comm, inst, differ);
  REQUIRE(comm.gaps.size() == 1);
  CHECK(comm.gaps[0].kind == "count mismatch");
  CHECK(comm.gaps[0].detail ==
        "AllReduce seq 4: rank 0 count 1024 ncclFloat32 RING/LL, rank 1 count 1024 ncclFloat32 "
        "TREE/LL; not used");
}

TEST_CASE("join gaps: absent ranks, instances lacking ranks, disagreeing instances",
          "[join_gaps]") {
  RunCommunicator c = comm_of(4);
  c.absent_ranks = {2, 3};
  // Five collectives lack rank 1 (three named), one pair lacks its receiver (pairs are not
  // counted), one collective disagrees.
  for (int i = 0; i < 5; ++i) {
    RunInstance inst;
    inst.label = "AllReduce seq " + std::to_string(i);
    inst.missing_ranks = {1};
    c.instances.push_back(inst);
  }
  RunInstance pair;
  pair.label = "Send/Recv 0 -> 1 #0";
  pair.sender = 0;
  pair.receiver = 1;
  pair.missing_ranks = {1};
  pair.agree = false;
  c.instances.push_back(pair);
  RunInstance mismatch;
  mismatch.label = "Broadcast seq 0";
  mismatch.agree = false;
  c.instances.push_back(mismatch);
  npkit::Diagnostics d;
  npkit::add_rank_gaps(c, d);
  REQUIRE(c.gaps.size() == 2);
  CHECK(c.gaps[0].kind == "absent ranks");
  CHECK(c.gaps[0].detail == "no data for rank(s) 2, 3 of 4");
  CHECK(c.gaps[1].kind == "missing ranks");
  CHECK(c.gaps[1].detail ==
        "5 instance(s) lack ranks that have data (AllReduce seq 0 lacks rank 1; AllReduce seq 1 "
        "lacks rank 1; AllReduce seq 2 lacks rank 1; ...); analysed with the ranks present");
  // Absent ranks are no warning (--ranks leaves ranks out on purpose).
  CHECK(warning_lines(d) ==
        "5 missing ranks: [comm 00000000000000aa: " + c.gaps[1].detail +
            "]\n"
            "1 count mismatch: [comm 00000000000000aa: 1 instance(s) whose ranks disagree on "
            "count, type, algorithm or protocol were not used]\n");
}
