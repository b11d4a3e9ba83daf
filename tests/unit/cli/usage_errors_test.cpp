// The nearest name of a mistyped command, option or collective (apps/npkit-analyze
// usage_errors.hpp): within two edits (one for names of up to four characters, a swap of
// neighbours is one edit), else the only name the text begins; nothing on a tie, for a name
// itself, or for text far from every name. The expected names follow from the rule and the
// distances, worked out by hand (and checked with a separate implementation of the distance).
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "usage_errors.hpp"

namespace {

const std::vector<std::string> kCommands = {"info", "report",  "bandwidth", "trace",    "summarize",
                                            "diff", "compare", "hang",      "instances"};

std::string nearest(const std::string& typed, const std::vector<std::string>& names = kCommands) {
  return npkit::cli::nearest_name(typed, names).value_or("(none)");
}

}  // namespace

TEST_CASE("nearest name: one or two edits away", "[cli]") {
  CHECK(nearest("reprot") == "report");       // two neighbours swapped: one edit
  CHECK(nearest("bandwith") == "bandwidth");  // one letter left out
  CHECK(nearest("sumarize") == "summarize");
  CHECK(nearest("tarce") == "trace");
  CHECK(nearest("compair") == "compare");  // two substitutions: "ir" for "re"
  CHECK(nearest("instance") == "instances");
  CHECK(nearest("inf") == "info");   // a four-letter name: one edit
  CHECK(nearest("hnag") == "hang");  // a swap is one edit
  CHECK(nearest("dif") == "diff");
}

TEST_CASE("nearest name: prefixes, ties and far-off text", "[cli]") {
  CHECK(nearest("summ") == "summarize");  // three edits away, but the only name it begins
  CHECK(nearest("in") == "(none)");       // begins info and instances, and is two edits from info
  CHECK(nearest("xyz") == "(none)");
  CHECK(nearest("report") == "(none)");              // a name itself: nothing to suggest
  CHECK(nearest("ab", {"abc", "abd"}) == "(none)");  // one edit from both
  CHECK(nearest("stats") == "(none)");               // four edits from trace and from hang
}

TEST_CASE("nearest name: options and collectives", "[cli]") {
  const std::vector<std::string> options = {
      "--format", "--output", "-o", "--ranks", "--quiet", "--finding-threshold", "--iteration"};
  CHECK(nearest("--fromat", options) == "--format");
  CHECK(nearest("--rank", options) == "--ranks");
  CHECK(nearest("--finding-treshold", options) == "--finding-threshold");
  CHECK(nearest("--colour", options) == "(none)");
  const std::vector<std::string> keys = {"all",      "allreduce", "allgather", "reducescatter",
                                         "alltoall", "broadcast", "reduce",    "sendrecv"};
  CHECK(nearest("allreduc", keys) == "allreduce");
  CHECK(nearest("reduc", keys) == "reduce");  // one edit; reducescatter is eight away
  CHECK(nearest("broadcst", keys) == "broadcast");
  CHECK(nearest("allsum", keys) == "(none)");  // three edits from all, five from allreduce
}
