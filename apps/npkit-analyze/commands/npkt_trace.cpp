// `npkit-analyze trace PATH -o FILE` for .npkt dumps: a Chrome/Perfetto trace, one process per
// (communicator, rank), event-record streams as threads of their file's process.
#include <algorithm>

#include "commands/npkt_input.hpp"
#include "output/profiler_trace_writer.hpp"

namespace npkit::cli {

Result<int> run_npkt_trace(const CommonOptions& o, CliContext& context) {
  auto loaded = load_npkt_input(o);
  if (!loaded) return loaded.error();
  // Processes in communicator then rank order; files outside any communicator (rank -1) last.
  std::vector<const RankCapture*> captures;
  for (const auto& comm : loaded->comms) {
    captures.insert(captures.end(), comm.ranks.begin(), comm.ranks.end());
  }
  for (const auto& f : loaded->files) {
    if (std::find(captures.begin(), captures.end(), f.get()) == captures.end()) {
      captures.push_back(f.get());
    }
  }
  NPKIT_TRY(write_trace_output(
      o, context, [&](std::ostream& out, const std::string& name) -> Result<std::uint64_t> {
        auto written = write_profiler_trace(captures, loaded->events, o.path, out, name);
        if (!written) return written.error();
        return written->events;
      }));
  print_warnings(loaded->diagnostics, o, context);
  return 0;
}

}  // namespace npkit::cli
