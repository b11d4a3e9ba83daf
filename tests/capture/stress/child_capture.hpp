// capture/stress/child_capture.hpp — what the resource-limit stress tests do inside their forked
// child: open a communicator through the plugin's v5 entry points and record KernelCh pairs.
//
// Contract: open_communicator() returns the plugin's context, or nullptr after report.fail();
// record_pairs() records `pairs` KernelCh start/stop pairs (two records each) and returns false
// after report.fail() at the first call the plugin refuses.
#pragma once

#include <cstdint>
#include <string>

#include "capture/plugin/plugin_library.hpp"
#include "capture/stress/child_process.hpp"

namespace npkit::test {

void* open_communicator(const PluginLibrary& lib, std::uint64_t hash, const std::string& name,
                        ChildReport& report);
bool record_pairs(const PluginLibrary& lib, void* context, int pairs, ChildReport& report);

}  // namespace npkit::test
