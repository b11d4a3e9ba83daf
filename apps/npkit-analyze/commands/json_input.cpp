#include "commands/json_input.hpp"

#include "commands/json_span_commands.hpp"
#include "import/chrome_json/chrome_input.hpp"

namespace npkit::cli {

Result<int> run_json_trace(const CommonOptions& o, CliContext& context) {
  auto files = chrome_trace_files(o.path);
  if (!files) return files.error();
  auto profiler = is_profiler_trace(*files);
  if (!profiler) return profiler.error();
  if (*profiler) {
    return Error{o.path +
                 " holds profiler-plugin events already in the Chrome trace format: open it in "
                 "Perfetto as it is (trace converts NPKit and .npkt dumps and NPKit event traces)"};
  }
  return run_json_span_trace(o, *files, context);
}

}  // namespace npkit::cli
