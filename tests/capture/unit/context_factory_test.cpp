// Opening capture for a communicator: directory, file name, metadata, registration; and the
// process's detached context.
#include <stdlib.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstring>
#include <filesystem>
#include <memory>
#include <string>

#include "recorder/context_factory.hpp"
#include "support/temp_dir.hpp"

namespace fmt = npkit::format;
using namespace npkit::capture;

namespace {

std::string meta(const CaptureContext& context, const std::string& key) {
  for (const auto& [k, v] : context.metadata) {
    if (k == key) return v;
  }
  return "<absent>";
}

}  // namespace

TEST_CASE("context factory: a communicator context with its directory and metadata", "[capture]") {
  npkit::test::TempDir dir;
  auto registry = std::make_unique<ContextRegistry>();
  const std::string nested = dir.file("a/b/c");
  setenv("NPKIT_FACTORY_TEST_MARKER", "42", 1);
  const CaptureSettings settings = parse_capture_settings("coll,kernel", "1", nested.c_str());
  char name[] = "trainer";
  CommunicatorIdentity identity;
  identity.comm_hash = 0x00000000deadbeefull;
  identity.rank = 5;
  identity.nranks = 8;
  identity.nnodes = 2;
  identity.profiler_api = 4;
  identity.comm_name = name;
  std::string why_not;
  CaptureContext* context =
      open_communicator_context(*registry, identity, settings, nullptr, &why_not);
  unsetenv("NPKIT_FACTORY_TEST_MARKER");
  std::strcpy(name, "changed");
  REQUIRE(context != nullptr);
  const std::unique_ptr<CaptureContext> owned(context);  // the test's registry dies with it

  CHECK(std::filesystem::is_directory(nested));
  CHECK(context->directory->file_path(context->dump_name) ==
        nested + "/npkit_00000000deadbeef_rank5.npkt");
  CHECK(context->slot == 1);
  CHECK(registry->at(1) == context);
  CHECK(context->rank == 5);
  CHECK(context->nranks == 8);
  CHECK(context->nnodes == 2);
  CHECK(context->profiler_api == 4);
  CHECK(context->pid == getpid());
  CHECK(context->event_mask == 71);
  CHECK(context->buffer.capacity() == 16384);
  CHECK(meta(*context, "comm_name") == "trainer");
  CHECK(meta(*context, "capture.events") == "coll,kernel");
  CHECK(meta(*context, "capture.buffer_size_mb") == "1");
  CHECK(meta(*context, "capture.dump_dir") == nested);
  CHECK(meta(*context, "env.NPKIT_FACTORY_TEST_MARKER") == "42");
  char host[256] = {};
  gethostname(host, sizeof(host) - 1);
  CHECK(meta(*context, "hostname") == host);
  // No CUDA context on this thread: the GPU facts are missing and the notes say why.
  CHECK(meta(*context, "gpu.name") == "<absent>");
  CHECK_FALSE(context->clock_notes.empty());
  CHECK(context->clock_samples.empty());
}

TEST_CASE("context factory: an uncreatable directory disables capture with the reason",
          "[capture]") {
  npkit::test::TempDir dir;
  auto registry = std::make_unique<ContextRegistry>();
  const std::string blocker = dir.write_file("plain", "x");
  const CaptureSettings settings =
      parse_capture_settings(nullptr, "1", (blocker + "/dumps").c_str());
  CommunicatorIdentity identity;
  std::string why_not;
  CHECK(open_communicator_context(*registry, identity, settings, nullptr, &why_not) == nullptr);
  CHECK_THAT(why_not, Catch::Contains(blocker + "/dumps"));
  CHECK_THAT(why_not, Catch::Contains("Not a directory"));
  CHECK(registry->all().empty());
}

TEST_CASE("context factory: a relative directory is taken under the working directory",
          "[capture]") {
  npkit::test::TempDir dir;
  auto registry = std::make_unique<ContextRegistry>();
  const std::filesystem::path previous = std::filesystem::current_path();
  std::filesystem::current_path(dir.path());
  const CaptureSettings settings = parse_capture_settings(nullptr, "1", nullptr);
  CommunicatorIdentity identity;
  std::string why_not;
  CaptureContext* context =
      open_communicator_context(*registry, identity, settings, nullptr, &why_not);
  std::filesystem::current_path(previous);
  REQUIRE(context != nullptr);
  const std::unique_ptr<CaptureContext> owned(context);
  const std::string real_dir = std::filesystem::canonical(dir.path()).string();
  CHECK(context->directory->file_path(context->dump_name) ==
        real_dir + "/npkit-dump/npkit_0000000000000000_rank0.npkt");
}

TEST_CASE("context factory: one detached context per registry", "[capture]") {
  npkit::test::TempDir dir;
  auto registry = std::make_unique<ContextRegistry>();
  const CaptureSettings settings = parse_capture_settings(nullptr, "1", dir.path().c_str());
  std::string why_not;
  CaptureContext* first = ensure_detached_context(*registry, settings, 5, &why_not);
  REQUIRE(first != nullptr);
  const std::unique_ptr<CaptureContext> owned(first);
  CHECK(ensure_detached_context(*registry, settings, 5, &why_not) == first);
  CHECK(first->slot == ContextRegistry::kDetachedSlot);
  CHECK(registry->at(ContextRegistry::kDetachedSlot) == first);
  CHECK(first->rank == -1);
  CHECK(first->comm_hash == 0);
  CHECK(first->directory->file_path(first->dump_name) ==
        dir.path() + "/npkit_detached_pid" + std::to_string(getpid()) + ".npkt");
}
