#include "output/cross_rank_output.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "output/text_wrap.hpp"
#include "util/readable_duration.hpp"

namespace npkit {
namespace {

std::string rank_list(const std::vector<std::int32_t>& ranks, const char* separator = ",") {
  return fmt::format("{}", fmt::join(ranks, separator));
}

std::string alignment_line(const CrossRankAnalysis& a) {
  const HostAlignment& al = a.alignment;
  switch (al.status) {
    case AlignmentStatus::kHostsUnknown:
      return "Clock alignment: hosts unknown (the dump names no host): all ranks are taken to "
             "share one clock, times are not corrected";
    case AlignmentStatus::kOneHost:
      return fmt::format("Clock alignment: all ranks on one host ({}): one clock, no correction",
                         al.hosts.empty() ? std::string("-") : al.hosts.front().host);
    case AlignmentStatus::kInconsistent:
      return "Clock alignment: the instances admit no consistent host offsets (a clock jumped, or "
             "instances are mis-joined): times are not corrected";
    case AlignmentStatus::kAligned:
      return fmt::format(
          "Clock alignment: {} hosts; offsets bound by \"no rank completes before the last rank "
          "arrived\" (added to each host's times; reference host {})",
          al.hosts.size(), al.hosts.front().host);
  }
  return "";
}

TextTable alignment_table(const HostAlignment& al) {
  TextTable t;
  t.columns = {"host", "ranks", "offset", "lower", "upper", "±", "instances"};
  for (const auto& h : al.hosts) {
    if (h.reference) {
      t.add_row({h.host, rank_list(h.ranks), "0", "-", "-", "-", std::to_string(h.instances)});
    } else if (!h.linked) {
      t.add_row(
          {h.host, rank_list(h.ranks), "not linked", "-", "-", "-", std::to_string(h.instances)});
    } else {
      t.add_row({h.host, rank_list(h.ranks), readable_duration(h.offset_ns),
                 readable_duration(h.lower_ns), readable_duration(h.upper_ns),
                 readable_duration(h.uncertainty_ns), std::to_string(h.instances)});
    }
  }
  return t;
}

TextTable collective_table(const CrossRankAnalysis& a) {
  TextTable t;
  t.title = fmt::format(
      "Sync per collective ({}; spread = last arrival - first; true duration = last arrival to "
      "last completion; wait = each rank's skew capped by its duration, summed)",
      a.input.time_source);
  t.columns = {"collective", "instances", "spread p50", "spread max", "true p50", "wait"};
  for (const auto& c : a.sync.collectives) {
    t.add_row({c.collective, std::to_string(c.instances), readable_duration(c.spread_median_ns),
               readable_duration(c.spread_max_ns), readable_duration(c.true_duration_median_ns),
               readable_duration(c.wait_ns)});
  }
  return t;
}

TextTable rank_table(const CrossRankAnalysis& a) {
  TextTable t;
  t.title =
      "Sync per rank (skew = last arrival - own arrival; margin = how far it arrived after the "
      "next-latest rank, when last)";
  t.columns = {"rank", "instances",  "arrived last", "skew p50",  "skew max",
               "wait", "wait share", "margin p50",   "margin max"};
  for (const auto& r : a.sync.ranks) {
    const bool last = r.arrived_last > 0;
    t.add_row({std::to_string(r.rank), std::to_string(r.instances),
               fmt::format("{} ({})", r.arrived_last, percent(r.arrived_last_share)),
               readable_duration(r.skew_median_ns), readable_duration(r.skew_max_ns),
               readable_duration(r.wait_ns), percent(r.wait_share),
               last ? readable_duration(r.margin_median_ns) : "-",
               last ? readable_duration(r.margin_max_ns) : "-"});
  }
  return t;
}

TextTable imbalance_table(const std::vector<PhaseImbalance>& phases) {
  TextTable t;
  t.title = "Phase imbalance across ranks (per-rank phase totals)";
  t.columns = {"phase", "share", "min", "median", "max", "max rank", "max/median", "CV"};
  for (const auto& p : phases) {
    t.add_row({p.phase, percent(p.share), readable_duration(p.min_ns),
               readable_duration(p.median_ns), readable_duration(p.max_ns),
               std::to_string(p.max_rank), fmt::format("{:.3f}", p.max_over_median),
               fmt::format("{:.3f}", p.cv)});
  }
  return t;
}

void write_numbers(const Finding& f, JsonWriter& w) {
  w.object("numbers", [&] {
    for (const auto& [name, value] : f.numbers) w.field(name, value);
  });
}

// The run's settings the advice read; "" = not set in the run's environment.
void write_settings(const Finding& f, JsonWriter& w) {
  w.object("settings", [&] {
    for (const auto& [name, value] : f.settings) w.field(name, value);
  });
}

}  // namespace

void append_findings(const std::vector<Finding>& findings, OutputFormat format, std::string& out) {
  if (findings.empty()) {
    render_line("Findings: none (no rule's thresholds are crossed; docs/phases.md, Diagnosis)",
                format, out);
    return;
  }
  TextTable t;
  t.title = "Findings (each with the numbers behind it; thresholds: docs/phases.md, Diagnosis)";
  t.columns = {"rule", "scope", "finding", "next step"};
  for (const auto& f : findings) t.add_row({f.rule, f.scope, f.summary, f.next_step});
  if (format == OutputFormat::kMarkdown || format == OutputFormat::kCsv) {
    render_table(t, format, out);
    return;
  }
  out += wrap_text(t.title) + "\n";
  for (const auto& f : findings) {
    out += wrap_text(fmt::format("  [{}] {}: {}", f.rule, f.scope, f.summary), kTextWidth, 6);
    out += "\n";
    out += wrap_text("      next: " + f.next_step, kTextWidth, 12);
    out += "\n";
  }
}

void append_cross_rank_text(const CrossRankAnalysis& a, OutputFormat format, std::string& out,
                            std::vector<std::string>& missing) {
  if (format == OutputFormat::kJson) return;
  if (format == OutputFormat::kCsv) {
    render_table(cross_rank_csv(a), format, out);
    return;
  }
  render_section_line(alignment_line(a), format, out);
  if (a.alignment.status == AlignmentStatus::kAligned) {
    render_table(alignment_table(a.alignment), format, out);
  }
  if (a.alignment.same_host_violations > 0) {
    render_line(fmt::format("{} instance(s) have a rank completing before another rank of its "
                            "host arrived (by up to {}): the times of one host disagree",
                            a.alignment.same_host_violations,
                            readable_duration(a.alignment.same_host_violation_max_ns)),
                format, out);
  }
  if (a.input.gaps.empty()) {
    render_section_line(
        fmt::format("Join: {} instance(s) joined across ranks, no gaps", a.input.instances.size()),
        format, out);
  } else {
    TextTable gaps;
    gaps.title = fmt::format(
        "Join: {} instance(s) joined; gaps (what was not joined is left out of what follows)",
        a.input.instances.size());
    gaps.columns = {"scope", "gap", "detail"};
    for (const auto& g : a.input.gaps) gaps.add_row({g.scope, g.kind, g.detail});
    render_block(gaps, format, out);
  }
  const auto no_starts = std::find_if(a.input.gaps.begin(), a.input.gaps.end(),
                                      [](const JoinGap& g) { return g.kind == "no start times"; });
  if (no_starts != a.input.gaps.end()) {
    missing.push_back("sync (no start times: " + no_starts->detail + ")");
  } else if (a.sync.instances.empty()) {
    missing.push_back("sync (no instance has times on two ranks)");
  } else {
    render_block(collective_table(a), format, out);
    render_block(rank_table(a), format, out);
    render_line("Stragglers (most often last first): " + rank_list(a.sync.straggler_order, ", "),
                format, out);
    if (a.sync.violations > 0) {
      render_line(fmt::format("{} instance(s) have a rank completing before the last arrival "
                              "(negative true duration): clocks or data disagree",
                              a.sync.violations),
                  format, out);
    }
  }
  if (!a.imbalance.empty()) render_block(imbalance_table(a.imbalance), format, out);
}

TextTable cross_rank_csv(const CrossRankAnalysis& a) {
  TextTable t;
  t.columns = {"scope",
               "rank",
               "host",
               "offset_ns",
               "instances",
               "arrived_last",
               "arrived_last_share",
               "skew_median_ns",
               "skew_max_ns",
               "wait_ns",
               "busy_ns",
               "wait_share",
               "margin_median_ns",
               "margin_max_ns"};
  for (const auto& r : a.sync.ranks) {
    std::string host;
    for (const auto& info : a.input.ranks) {
      if (info.rank == r.rank) host = info.host;
    }
    t.add_row({a.input.scope, std::to_string(r.rank), host,
               fmt::format("{:.1f}", a.alignment.offset_of(r.rank)), std::to_string(r.instances),
               std::to_string(r.arrived_last), fmt::format("{:.6f}", r.arrived_last_share),
               fmt::format("{:.1f}", r.skew_median_ns), std::to_string(r.skew_max_ns),
               std::to_string(r.wait_ns), std::to_string(r.busy_ns),
               fmt::format("{:.6f}", r.wait_share), fmt::format("{:.1f}", r.margin_median_ns),
               std::to_string(r.margin_max_ns)});
  }
  return t;
}

void write_findings_json(const std::vector<Finding>& findings, JsonWriter& w) {
  w.objects("findings", findings, [&](const auto& f) {
    w.field("rule", f.rule);
    w.field("scope", f.scope);
    w.field("summary", f.summary);
    w.field("headline", f.headline);
    w.field("next_step", f.next_step);
    write_numbers(f, w);
    write_settings(f, w);
  });
}

void write_cross_rank_json(const CrossRankAnalysis& a, JsonWriter& w, bool with_findings) {
  w.field("time_source", a.input.time_source);
  const HostAlignment& al = a.alignment;
  w.object("alignment", [&] {
    w.field("status", al.status_name());
    w.field("hosts_known", a.input.hosts_known ? 1 : 0);
    w.field("same_host_violations", al.same_host_violations);
    w.field("same_host_violation_max_ns", al.same_host_violation_max_ns);
    w.objects("hosts", al.hosts, [&](const auto& h) {
      w.field("host", h.host);
      w.values("ranks", h.ranks);
      w.field("reference", h.reference ? 1 : 0);
      w.field("linked", h.linked ? 1 : 0);
      w.field("offset_ns", h.offset_ns);
      if (h.linked && !h.reference) {
        w.field("lower_ns", h.lower_ns);
        w.field("upper_ns", h.upper_ns);
        w.field("uncertainty_ns", h.uncertainty_ns);
      }
      w.field("instances", h.instances);
    });
  });
  w.objects("join_gaps", a.input.gaps, [&](const auto& g) {
    w.field("scope", g.scope);
    w.field("kind", g.kind);
    w.field("detail", g.detail);
  });
  w.object("sync", [&] {
    w.field("instances_joined", static_cast<std::uint64_t>(a.input.instances.size()));
    w.field("instances_compared", static_cast<std::uint64_t>(a.sync.instances.size()));
    w.field("violations", a.sync.violations);
    w.values("straggler_order", a.sync.straggler_order);
    w.objects("collectives", a.sync.collectives, [&](const auto& c) {
      w.field("collective", c.collective);
      w.field("instances", c.instances);
      w.field("spread_median_ns", c.spread_median_ns);
      w.field("spread_max_ns", c.spread_max_ns);
      w.field("true_duration_median_ns", c.true_duration_median_ns);
      w.field("wait_ns", c.wait_ns);
    });
    w.objects("ranks", a.sync.ranks, [&](const auto& r) {
      w.field("rank", r.rank);
      w.field("instances", r.instances);
      w.field("arrived_last", r.arrived_last);
      w.field("arrived_last_share", r.arrived_last_share);
      w.field("skew_median_ns", r.skew_median_ns);
      w.field("skew_max_ns", r.skew_max_ns);
      w.field("wait_ns", r.wait_ns);
      w.field("busy_ns", r.busy_ns);
      w.field("wait_share", r.wait_share);
      w.field("margin_median_ns", r.margin_median_ns);
      w.field("margin_max_ns", r.margin_max_ns);
    });
    w.key("instances");
    w.begin_array();
    for (const auto& s : a.sync.instances) {
      const JoinedInstance& inst = a.input.instances[s.instance];
      w.begin_object();
      w.field("label", inst.label);
      w.field("collective", inst.collective);
      w.field("bytes", inst.bytes);
      w.field("ranks", static_cast<std::uint64_t>(inst.ranks.size()));
      w.field("last_rank", s.last_rank);
      w.field("first_arrival_ns", s.first_arrival_ns);
      w.field("spread_ns", s.spread_ns);
      w.field("true_duration_ns", s.true_duration_ns);
      w.field("margin_ns", s.margin_ns);
      w.field("wait_ns", s.wait_ns);
      w.end_object();
    }
    w.end_array();
  });
  w.objects("imbalance", a.imbalance, [&](const auto& p) {
    w.field("phase", p.phase);
    w.field("ranks", static_cast<std::uint64_t>(p.ranks));
    w.field("share", p.share);
    w.field("min_ns", p.min_ns);
    w.field("median_ns", p.median_ns);
    w.field("max_ns", p.max_ns);
    w.field("max_rank", p.max_rank);
    w.field("max_over_median", p.max_over_median);
    w.field("cv", p.cv);
  });
  if (with_findings) write_findings_json(a.findings, w);
}

}  // namespace npkit
