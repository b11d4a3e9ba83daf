// analysis/diagnose/thresholds.hpp — the settable limits of the diagnosis rules (docs/phases.md,
// "Diagnosis", lists them with their defaults and meaning).
// Contract: set_threshold parses one `NAME=VALUE` (several may be given comma-separated) onto
// `thresholds`; an unknown name, a value that is not a number, or a value outside the name's range
// is an Error naming it and the accepted names. threshold_names lists every name in
// documentation order; threshold_value reads one back by name (for output and tests).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "util/result.hpp"

namespace npkit {

struct Thresholds {
  // load imbalance: a phase's max/median per-rank time at least this ...
  double imbalance = 1.2;
  // ... for a phase holding at least this share of the ranks' reference time.
  double imbalance_min_share = 0.05;
  // straggler: one rank arrives last in at least this share of the instances ...
  double straggler_share = 0.6;
  // ... and the others wait for it a median margin of at least this (ns).
  double straggler_min_margin_ns = 1000;
  // rules that count instances or operations need at least this many.
  double min_instances = 8;
  // network wait: NET proxy steps spend at least this share waiting on the network.
  double net_wait = 0.5;
  // GPU wait: NET proxy steps spend at least this share waiting for the GPU or the peer.
  double gpu_wait = 0.5;
  // small messages: operations below this size (bytes) ...
  double small_bytes = 65536;
  // ... take at least this share of the collective's GPU time ...
  double small_time_share = 0.2;
  // ... at a busbw below this fraction of the collective's best.
  double small_busbw = 0.1;
  // too few channels: operations of at least this size (bytes) ...
  double channels_min_bytes = 1048576;
  // ... running on fewer channels than this ...
  double min_channels = 4;
  // ... at a busbw below this fraction of the collective's best.
  double channels_busbw = 0.5;
};

Status set_threshold(Thresholds& thresholds, std::string_view setting);

// Applies every setting in order.
Result<Thresholds> parse_thresholds(const std::vector<std::string>& settings, Thresholds base = {});

const std::vector<std::string>& threshold_names();
double threshold_value(const Thresholds& thresholds, std::string_view name);

}  // namespace npkit
