// collective_window: the window of the selected instances is the earliest start to the latest
// end of their timed members, by function (any case) and seq range, across communicators; an
// absent function, an empty seq range and untimed instances are errors that say what the run
// holds.
#include "analysis/select/collective_window.hpp"

#include <catch2/catch.hpp>

namespace {

npkit::RunInstance instance(std::string func, std::uint64_t seq, std::int64_t start0,
                            std::int64_t end0, std::int64_t start1, std::int64_t end1,
                            bool timed = true) {
  npkit::RunInstance i;
  i.func = std::move(func);
  i.seq = seq;
  i.members = {{.rank = 0, .timed = timed, .start_ns = start0, .end_ns = end0},
               {.rank = 1, .timed = timed, .start_ns = start1, .end_ns = end1}};
  return i;
}

npkit::Run run() {
  npkit::Run r;
  r.comms.resize(2);
  r.comms[0].instances = {instance("AllReduce", 0, 100, 200, 110, 190),
                          instance("AllReduce", 1, 300, 400, 290, 410),
                          instance("AllGather", 0, 500, 600, 500, 600),
                          instance("AllReduce", 2, 700, 800, 700, 800, /*timed=*/false)};
  r.comms[1].instances = {instance("AllReduce", 1, 1000, 1100, 1050, 1200)};
  return r;
}

}  // namespace

TEST_CASE("collective window: earliest start to latest end of the selected members", "[select]") {
  auto one = npkit::collective_window(run(), "allreduce", 0, 0);
  REQUIRE(one.ok());
  CHECK(one->from_ns == 100);
  CHECK(one->to_ns == 200);
  CHECK(one->instances == 1);

  // seq 1 in both communicators: 290 .. 1200.
  auto both = npkit::collective_window(run(), "AllReduce", 1, 1);
  REQUIRE(both.ok());
  CHECK(both->from_ns == 290);
  CHECK(both->to_ns == 1200);
  CHECK(both->instances == 2);

  // Every seq: the untimed seq 2 adds nothing.
  auto all = npkit::collective_window(run(), "ALLREDUCE", 0, UINT64_MAX);
  REQUIRE(all.ok());
  CHECK(all->from_ns == 100);
  CHECK(all->to_ns == 1200);
  CHECK(all->instances == 3);
}

TEST_CASE("collective window: what cannot be selected says why", "[select]") {
  auto absent = npkit::collective_window(run(), "broadcast", 0, 5);
  REQUIRE_FALSE(absent.ok());
  CHECK(absent.error().message ==
        "--coll broadcast: the run holds no broadcast instance (it holds AllGather, AllReduce)");
  auto range = npkit::collective_window(run(), "allreduce", 5, 9);
  REQUIRE_FALSE(range.ok());
  CHECK(range.error().message ==
        "--seq 5:9: no timed allreduce instance in that range (the run's allreduce seq run from "
        "0 to 2)");
  auto untimed = npkit::collective_window(run(), "allreduce", 2, 2);
  REQUIRE_FALSE(untimed.ok());
}
