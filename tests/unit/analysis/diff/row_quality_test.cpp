// Row quality: how much of a collective row was timed, and the floor below which a comparison
// marks it (hand-made rows).
#include <catch2/catch.hpp>

#include "analysis/diff/row_quality.hpp"

using npkit::CollectiveRow;
using npkit::RowQuality;

namespace {

// A 2-rank row of `instances`, `untimed` of them without a time, rank samples as given.
CollectiveRow row(std::uint64_t instances, std::uint64_t untimed, bool rank0, bool rank1) {
  CollectiveRow r;
  r.key.collective = "AllReduce";
  r.key.nranks = 2;
  r.instances = instances;
  r.untimed_instances = untimed;
  if (rank0) r.rank_sample(0).add(1000);
  if (rank1) r.rank_sample(1).add(1200);
  r.rank_sample(1);  // a rank entry without a time does not count as timed
  return r;
}

}  // namespace

TEST_CASE("row quality: instances and ranks timed, pooled over rows", "[diff]") {
  const CollectiveRow a = row(23, 12, true, false);
  const CollectiveRow b = row(10, 0, true, true);
  const RowQuality one = npkit::quality_of({&a});
  CHECK(one.instances == 23);
  CHECK(one.timed == 11);
  CHECK(one.ranks_timed == 1);
  CHECK(one.nranks == 2);
  CHECK(one.text() == "11/23 timed, 1/2 ranks");
  const RowQuality both = npkit::quality_of({&a, &b});
  CHECK(both.instances == 33);
  CHECK(both.timed == 21);
  CHECK(both.ranks_timed == 2);
  CHECK(both.stale == 0);
}

TEST_CASE("row quality: instances a stale channel event cost are counted and shown", "[diff]") {
  CollectiveRow a = row(23, 12, true, true);
  a.stale_instances = 3;
  CollectiveRow b = row(10, 2, true, true);
  b.stale_instances = 2;
  CHECK(npkit::quality_of({&a}).text() == "11/23 timed, 2/2 ranks, 3 stale on a rank");
  CHECK(npkit::quality_of({&a, &b}).stale == 5);
  b.stale_instances = 40;  // more than the row's instances (a hostile summary): capped
  CHECK(npkit::quality_of({&b}).stale == 10);
}

TEST_CASE("row quality: the floor is half of the instances timed", "[diff]") {
  const CollectiveRow half = row(22, 11, true, true);
  const CollectiveRow less = row(23, 12, true, true);
  const CollectiveRow none = row(5, 5, false, false);
  const CollectiveRow empty = row(0, 0, false, false);
  CHECK_FALSE(npkit::quality_of({&half}).below_floor());
  CHECK(npkit::quality_of({&less}).below_floor());
  CHECK(npkit::quality_of({&none}).below_floor());
  CHECK(npkit::quality_of({&empty}).below_floor());
}

TEST_CASE("row quality: instances of a communicator whose log lost records are incomplete",
          "[diff]") {
  CollectiveRow a = row(23, 12, true, true);
  CHECK_FALSE(npkit::quality_of({&a}).is_incomplete());
  a.incomplete_instances = 23;
  CollectiveRow b = row(10, 0, true, true);
  const RowQuality one = npkit::quality_of({&a});
  CHECK(one.is_incomplete());
  CHECK(one.text() == "11/23 timed, 2/2 ranks, 23 incomplete (records lost)");
  const RowQuality both = npkit::quality_of({&a, &b});
  CHECK(both.incomplete == 23);
  CHECK(both.is_incomplete());
  b.incomplete_instances = 40;  // more than the row's instances (a hostile summary): capped
  CHECK(npkit::quality_of({&b}).incomplete == 10);
}

TEST_CASE("row quality: instances a sampling capture left out are not a quality loss", "[diff]") {
  // 24 instances, 3 sampled and timed on both ranks, 21 left out by NPKIT_SAMPLE.
  CollectiveRow sampled = row(24, 21, true, true);
  sampled.not_sampled_instances = 21;
  const RowQuality q = npkit::quality_of({&sampled});
  CHECK(q.not_sampled == 21);
  CHECK(q.timed == 3);
  CHECK_FALSE(q.below_floor());
  CHECK(q.text() == "sampled 3 of 24: 3/3 timed, 2/2 ranks");
  // One of the 3 sampled instances timed: under half of the sampled ones.
  CollectiveRow few = row(24, 23, true, false);
  few.not_sampled_instances = 21;
  CHECK(npkit::quality_of({&few}).below_floor());
  CHECK(npkit::quality_of({&few}).text() == "sampled 3 of 24: 1/3 timed, 1/2 ranks");
  // A hostile summary claiming more left out than untimed: capped at the untimed ones.
  CollectiveRow hostile = row(10, 2, true, true);
  hostile.not_sampled_instances = 50;
  CHECK(npkit::quality_of({&hostile}).not_sampled == 2);
}
