// Handle encoding: bit layout computed by hand from the documented layout
// (tag 0xA @60, type @56, slot @40, id @0).
#include <catch2/catch.hpp>
#include <cstdint>

#include "recorder/event_handle.hpp"

using npkit::capture::decode_handle;
using npkit::capture::dropped_handle;
using npkit::capture::encode_handle;

namespace {

uint64_t bits_of(const void* handle) {
  return reinterpret_cast<uintptr_t>(handle);
}

}  // namespace

TEST_CASE("handle: fields land at the documented bits", "[capture]") {
  CHECK(bits_of(encode_handle(6, 3, 5)) == 0xA600030000000005ull);
  CHECK(bits_of(encode_handle(0, 0, 1)) == 0xA000000000000001ull);
  CHECK(bits_of(encode_handle(11, 0xFFFF, 0xFFFFFFFFFFull)) == 0xABFFFFFFFFFFFFFFull);
}

TEST_CASE("handle: decode inverts encode", "[capture]") {
  const uint64_t ids[] = {1, 2, 1000, 1ull << 20, (1ull << 40) - 1};
  for (uint8_t type = 0; type < 12; ++type) {
    for (uint32_t slot : {0u, 1u, 77u, 65535u}) {
      for (uint64_t id : ids) {
        const auto decoded = decode_handle(encode_handle(type, static_cast<uint16_t>(slot), id));
        REQUIRE(decoded.ours);
        CHECK(decoded.type == type);
        CHECK(decoded.slot == slot);
        CHECK(decoded.event_id == id);
        CHECK_FALSE(decoded.dropped);
      }
    }
  }
}

TEST_CASE("handle: a dropped handle is ours, non-NULL, and names no record", "[capture]") {
  CHECK(bits_of(dropped_handle(3, 0)) == 0xA300000000000000ull);       // ProxyOp, detached slot
  CHECK(bits_of(dropped_handle(4, 0x0102)) == 0xA401020000000000ull);  // ProxyStep, slot 258
  CHECK(dropped_handle(0, 0) != nullptr);
  for (uint8_t type = 0; type < 12; ++type) {
    for (uint32_t slot : {0u, 1u, 65535u}) {
      const auto decoded = decode_handle(dropped_handle(type, static_cast<uint16_t>(slot)));
      REQUIRE(decoded.ours);
      CHECK(decoded.dropped);
      CHECK(decoded.type == type);
      CHECK(decoded.slot == slot);
      CHECK(decoded.event_id == 0);
    }
  }
  CHECK(decode_handle(encode_handle(3, 0, 0)).dropped);
  CHECK_FALSE(decode_handle(nullptr).dropped);
}

TEST_CASE("handle: NULL, pointers and other values are not ours", "[capture]") {
  int local = 0;
  static int global = 0;
  CHECK_FALSE(decode_handle(nullptr).ours);
  CHECK_FALSE(decode_handle(&local).ours);
  CHECK_FALSE(decode_handle(&global).ours);
  CHECK_FALSE(decode_handle(reinterpret_cast<void*>(uintptr_t{0x10})).ours);
  // Kernel-half addresses start with 0xF, other tags with anything but 0xA.
  CHECK_FALSE(decode_handle(reinterpret_cast<void*>(uintptr_t{0xFFFF800000001000ull})).ours);
  CHECK_FALSE(decode_handle(reinterpret_cast<void*>(uintptr_t{0xB603000000000005ull})).ours);
}
