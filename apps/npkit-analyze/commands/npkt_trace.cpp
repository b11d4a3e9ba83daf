// `npkit-analyze trace PATH -o FILE` for .npkt dumps: a Chrome/Perfetto trace, one process per
// (communicator, rank), event-record streams as threads of their file's process.
#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <fstream>

#include "commands/npkt_input.hpp"
#include "io/file_io.hpp"
#include "render/profiler_trace_writer.hpp"

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
  if (o.output.empty() || o.output == "-") {
    auto written =
        write_profiler_trace(captures, loaded->events, o.path, context.out, "standard output");
    if (!written) return written.error();
  } else {
    // Written beside the target and renamed, so a failed run never leaves a half file; devices
    // and pipes are written in place.
    const bool in_place = io::is_special_file(o.output);
    const std::string target = in_place ? o.output : o.output + ".tmp";
    std::ofstream file(target, std::ios::binary | std::ios::trunc);
    if (!file) return Error{"cannot write " + o.output + ": cannot create " + target};
    auto written = write_profiler_trace(captures, loaded->events, o.path, file, o.output);
    file.close();
    if (!in_place && (!written || std::rename(target.c_str(), o.output.c_str()) != 0)) {
      std::remove(target.c_str());
      return written ? Error{"cannot write " + o.output + ": rename failed"} : written.error();
    }
    if (!written) return written.error();
    if (!o.quiet) {
      context.err << fmt::format("wrote {} events to {}\n", written->events, o.output);
    }
  }
  print_warnings(loaded->diagnostics, o, context);
  return 0;
}

}  // namespace npkit::cli
