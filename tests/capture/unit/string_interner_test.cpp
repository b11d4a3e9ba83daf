// String interning by pointer: one id per pointer across threads, text copied once.
#include <catch2/catch.hpp>
#include <cstring>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "recorder/string_interner.hpp"

using npkit::capture::StringInterner;

TEST_CASE("interner: NULL is 0, a pointer keeps its id, another pointer gets another",
          "[capture]") {
  auto interner = std::make_unique<StringInterner>();
  static const char kAllReduce[] = "AllReduce";
  static const char kRing[] = "RING";
  char copy_of_ring[] = "RING";  // equal text, different pointer
  CHECK(interner->intern(nullptr) == 0);
  const uint16_t a = interner->intern(kAllReduce);
  const uint16_t r = interner->intern(kRing);
  const uint16_t r2 = interner->intern(copy_of_ring);
  CHECK(a >= 1);
  CHECK(r >= 1);
  CHECK(r2 >= 1);
  CHECK(a != r);
  CHECK(r2 != r);
  CHECK(interner->intern(kAllReduce) == a);
  CHECK(interner->intern(kRing) == r);

  const auto snapshot = interner->snapshot();
  const std::map<uint16_t, std::string> by_id(snapshot.begin(), snapshot.end());
  CHECK(by_id.size() == 3);
  CHECK(by_id.at(a) == "AllReduce");
  CHECK(by_id.at(r) == "RING");
  CHECK(by_id.at(r2) == "RING");
}

TEST_CASE("interner: the text is copied when first seen", "[capture]") {
  auto interner = std::make_unique<StringInterner>();
  char text[] = "ncclFloat32";
  const uint16_t id = interner->intern(text);
  std::strcpy(text, "changed");
  CHECK(interner->intern(text) == id);  // same pointer, same id
  const auto snapshot = interner->snapshot();
  REQUIRE(snapshot.size() == 1);
  CHECK(snapshot[0].second == "ncclFloat32");
}

TEST_CASE("interner: long text is cut at 255 bytes", "[capture]") {
  auto interner = std::make_unique<StringInterner>();
  const std::string long_text(1000, 'x');
  interner->intern(long_text.c_str());
  const auto snapshot = interner->snapshot();
  REQUIRE(snapshot.size() == 1);
  CHECK(snapshot[0].second == std::string(255, 'x'));
}

TEST_CASE("interner: many threads interning the same pointers agree on every id",
          "[capture][threads]") {
  auto interner = std::make_unique<StringInterner>();
  constexpr int kStrings = 257;  // prime: every odd multiplier below it walks all strings
  constexpr int kThreads = 8;
  std::vector<std::string> texts;
  for (int i = 0; i < kStrings; ++i) texts.push_back("string-" + std::to_string(i));
  std::vector<std::vector<uint16_t>> ids(kThreads, std::vector<uint16_t>(kStrings));
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int round = 0; round < 20; ++round) {
        for (int k = 0; k < kStrings; ++k) {
          // Every thread walks the strings in a different order.
          const int i = (k * (2 * t + 1) + round) % kStrings;
          const uint16_t id = interner->intern(texts[i].c_str());
          if (round == 0)
            ids[t][i] = id;
          else if (ids[t][i] != id)
            ids[t][i] = 0;  // an id that changed: recorded as 0
        }
      }
    });
  }
  for (auto& thread : threads) thread.join();

  std::set<uint16_t> distinct;
  for (int i = 0; i < kStrings; ++i) {
    for (int t = 0; t < kThreads; ++t) {
      INFO("string " << i << " thread " << t);
      REQUIRE(ids[t][i] != 0);
      REQUIRE(ids[t][i] == ids[0][i]);
    }
    distinct.insert(ids[0][i]);
  }
  CHECK(distinct.size() == kStrings);
  const auto snapshot = interner->snapshot();
  REQUIRE(snapshot.size() == kStrings);
  const std::map<uint16_t, std::string> by_id(snapshot.begin(), snapshot.end());
  for (int i = 0; i < kStrings; ++i) CHECK(by_id.at(ids[0][i]) == texts[i]);
}

TEST_CASE("interner: a full table answers 0 for new pointers", "[capture]") {
  auto interner = std::make_unique<StringInterner>();
  std::vector<std::string> texts(StringInterner::kCapacity + 5, "s");
  std::set<uint16_t> ids;
  int zeros = 0;
  for (const std::string& text : texts) {
    const uint16_t id = interner->intern(text.c_str());
    if (id == 0)
      ++zeros;
    else
      ids.insert(id);
  }
  CHECK(ids.size() == StringInterner::kCapacity);
  CHECK(zeros == 5);
}
