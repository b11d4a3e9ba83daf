#include "output/report_summary.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>
#include <set>

#include "output/run_text.hpp"
#include "util/prose_list.hpp"
#include "util/readable_duration.hpp"

namespace npkit {
namespace {

constexpr std::size_t kCommunicatorsShown = 4;
constexpr std::size_t kFindingsShown = 6;

std::string hosts_of(const RunCommunicator& comm) {
  std::set<std::string> hosts;
  for (const auto& r : comm.ranks) {
    if (!r.host.empty()) hosts.insert(r.host);
  }
  if (hosts.empty()) return "";
  if (hosts.size() == 1) return " on host " + *hosts.begin();
  return fmt::format(" on {} hosts", hosts.size());
}

std::string ran_line(const RunCommunicator& comm, const Run& run) {
  std::map<std::string, std::uint64_t> per_func;
  for (const auto& inst : comm.instances) ++per_func[inst.func];
  std::vector<std::string> parts;
  for (const auto& [func, n] : per_func) parts.push_back(fmt::format("{} {}", func, n));
  std::string line =
      comm.absent_ranks.empty()
          ? fmt::format("{}, {} rank(s){}", comm.scope, comm.ranks.size(), hosts_of(comm))
          : fmt::format("{}, {} of {} ranks{} (no data from rank(s) {})", comm.scope,
                        comm.ranks.size(), comm.nranks, hosts_of(comm),
                        fmt::join(comm.absent_ranks, ", "));
  if (comm.instances.empty()) {
    return line + (run.driver_only ? ": nccl-tests' averaged results, no instances"
                                   : ": no collective instances");
  }
  return line + fmt::format(": {} instance(s), {}", comm.instances.size(), fmt::join(parts, ", "));
}

// The rank arriving last most often and the one waiting the largest share of its time.
std::string worst_line(const CommunicatorReport& c, bool with_comm) {
  const SyncAnalysis& sync = c.cross.sync;
  if (sync.ranks.size() < 2 || sync.instances.empty()) return "";
  const auto last = std::max_element(sync.ranks.begin(), sync.ranks.end(),
                                     [](const RankSync& a, const RankSync& b) {
                                       return a.arrived_last_share < b.arrived_last_share;
                                     });
  const auto waits = std::max_element(
      sync.ranks.begin(), sync.ranks.end(),
      [](const RankSync& a, const RankSync& b) { return a.wait_share < b.wait_share; });
  std::string line = with_comm ? comm_key(*c.comm) + ": " : "";
  line += fmt::format("rank {} arrives last at {} of its instances", last->rank,
                      percent(last->arrived_last_share));
  if (last->arrived_last > 0) {
    line += fmt::format(" (a median {} after the next)", readable_duration(last->margin_median_ns));
  }
  line += fmt::format("; rank {} waits most, {} of its collective time", waits->rank,
                      percent(waits->wait_share));
  return line;
}

// Collectives of which no instance has a timed member.
std::string untimed_line(const Run& run) {
  std::map<std::string, std::pair<std::uint64_t, bool>> funcs;  // instances, any timed
  for (const auto& comm : run.comms) {
    for (const auto& inst : comm.instances) {
      auto& [n, timed] = funcs[inst.func];
      ++n;
      timed = timed || std::any_of(inst.members.begin(), inst.members.end(),
                                   [](const RunMember& m) { return m.timed; });
    }
  }
  std::vector<std::string> untimed;
  for (const auto& [func, f] : funcs) {
    if (!f.second) untimed.push_back(fmt::format("{} ({} instances)", func, f.first));
  }
  if (untimed.empty()) return "";
  return prose_list(untimed) + " without GPU time: the warnings below say why";
}

std::string choice_of(const BandwidthRow& r) {
  if (r.algo.empty() && r.proto.empty()) return "-";
  return fmt::format("{}/{}", r.algo.empty() ? "-" : r.algo, r.proto.empty() ? "-" : r.proto);
}

TextTable key_numbers(const RunReport& r) {
  const bool by_comm = r.run->comms.size() > 1;
  TextTable t;
  t.title = "Per collective: its best busbw (GPU span, nccl-tests conventions) and where";
  if (by_comm) t.columns.push_back("comm");
  for (const char* c :
       {"collective", "instances", "timed", "best busbw", "size", "time", "algo", "flags"}) {
    t.columns.push_back(c);
  }
  struct Key {
    std::uint64_t comm;
    std::string func;
    auto operator<=>(const Key&) const = default;
  };
  struct Best {
    std::uint64_t instances = 0;
    std::uint64_t timed = 0;
    const BandwidthRow* best = nullptr;
    const BandwidthRow* best_flagged = nullptr;  // the best of the rows with flags
  };
  std::map<Key, Best> per;
  for (const auto& row : r.rows) {
    Best& b = per[{by_comm ? row.comm_hash : 0, row.func}];
    b.instances += row.instances;
    b.timed += row.timed_instances;
    if (row.timed_instances == 0 || row.busbw_gbps <= 0) continue;
    // A headline number stands on clean rows only: a flagged row's busbw is not shown here.
    const BandwidthRow*& best = row.flags().empty() ? b.best : b.best_flagged;
    if (best == nullptr || row.busbw_gbps > best->busbw_gbps) best = &row;
  }
  std::map<std::uint64_t, std::string> comm_names;
  for (const auto& c : r.run->comms) comm_names[c.hash] = comm_key(c);
  for (const auto& [key, b] : per) {
    std::vector<std::string> cells;
    if (by_comm) cells.push_back(comm_names[key.comm]);
    cells.push_back(key.func);
    cells.push_back(std::to_string(b.instances));
    cells.push_back(std::to_string(b.timed));
    if (b.best == nullptr) {
      const std::string why = b.best_flagged != nullptr
                                  ? fmt::format("no unflagged row (best flagged: {})",
                                                fmt::join(b.best_flagged->flags(), ", "))
                              : b.timed == 0 ? "untimed"
                                             : "-";
      cells.insert(cells.end(), {"-", "-", "-", "-", why});
    } else {
      const BandwidthRow& row = *b.best;
      const auto flags = row.flags();
      cells.insert(cells.end(), {gbps(row.busbw_gbps) + " GB/s", readable_bytes(row.bytes),
                                 readable_duration(row.time_ns), choice_of(row),
                                 flags.empty() ? "-" : fmt::format("{}", fmt::join(flags, ", "))});
    }
    t.add_row(std::move(cells));
  }
  return t;
}

TextTable driver_numbers(const DriverResults& d) {
  TextTable t;
  t.title = fmt::format("Per collective: the best out-of-place busbw of {}", d.program);
  t.columns = {"collective", "sizes", "best busbw", "size", "time"};
  std::map<std::string, std::pair<std::uint64_t, const DriverResult*>> per;
  for (const auto& row : d.rows) {
    auto& [sizes, best] = per[row.func];
    ++sizes;
    if (row.out_of_place &&
        (best == nullptr || row.out_of_place->busbw_gbps > best->out_of_place->busbw_gbps)) {
      best = &row;
    }
  }
  for (const auto& [func, p] : per) {
    if (p.second == nullptr) {
      t.add_row({func, std::to_string(p.first), "-", "-", "-"});
      continue;
    }
    const DriverTiming& timing = *p.second->out_of_place;
    t.add_row({func, std::to_string(p.first), gbps(timing.busbw_gbps) + " GB/s",
               readable_bytes(p.second->bytes), readable_duration(timing.time_ns)});
  }
  return t;
}

}  // namespace

void render_report_summary(const RunReport& r, OutputFormat f, std::string& out) {
  // Continuation lines keep their key empty, so a key shows once per group.
  std::vector<Field> fields;
  std::string group;
  const auto add = [&](const char* key, std::string value) {
    if (value.empty()) return;
    fields.push_back({group != key ? key : "", std::move(value)});
    group = key;
  };
  const auto& comms = r.run->comms;
  for (std::size_t i = 0; i < comms.size() && i < kCommunicatorsShown; ++i) {
    add("ran", ran_line(comms[i], *r.run));
  }
  if (comms.size() > kCommunicatorsShown) {
    add("ran", fmt::format("and {} more communicator(s)", comms.size() - kCommunicatorsShown));
  }
  for (const auto& c : r.hang.comms) {
    if (!c.ranks_without_data.empty()) {
      add("stopped", fmt::format("{}: cannot tell; {}", c.comm->scope, c.verdict));
    } else if (c.stalled) {
      add("stopped", fmt::format("{}: STALLED at {}; {}", c.comm->scope, c.label, c.verdict));
    }
  }
  std::vector<const Finding*> findings;
  for (const auto& c : r.comms) {
    for (const auto& finding : c.findings) findings.push_back(&finding);
  }
  if (findings.empty()) add("findings", "none (no rule's thresholds are crossed)");
  for (std::size_t i = 0; i < findings.size() && i < kFindingsShown; ++i) {
    const Finding& finding = *findings[i];
    add("findings",
        fmt::format("[{}] {}{}", finding.rule, comms.size() > 1 ? finding.scope + ": " : "",
                    finding.headline.empty() ? finding.summary : finding.headline));
  }
  if (findings.size() > kFindingsShown) {
    add("findings", fmt::format("and {} more, below", findings.size() - kFindingsShown));
  }
  for (const auto& c : r.comms) add("slowest rank", worst_line(c, r.comms.size() > 1));
  add("untimed", untimed_line(*r.run));
  for (auto& field : fields) {
    if (!field.key.empty()) field.key += ":";
  }
  if (f == OutputFormat::kMarkdown) {
    out += "## Summary\n\n";
    render_fields(fields, f, out);
  } else {
    out += "\nSummary\n";
    render_fields(fields, f, out, 2, 15);
  }
  if (!r.rows.empty()) {
    render_block(key_numbers(r), f, out);
  } else if (r.run->driver_only) {
    render_block(driver_numbers(r.run->driver), f, out);
  }
}

}  // namespace npkit
