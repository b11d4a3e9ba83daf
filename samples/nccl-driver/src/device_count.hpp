// device_count.hpp — how many CUDA devices this host shows, found in a child process so that the
// parent stays free of CUDA state before it forks the ranks.
//
// Contract: count_devices_in_child() forks one probe process (supervised like a rank, with the
// same time limit) that calls cudaGetDeviceCount and stores the result in the control page.
// Returns the count (>= 1), or -1 after the probe printed why there is no usable device
// ("no CUDA device: ...").
#pragma once

#include "control_page.hpp"

namespace npkit::driver {

int count_devices_in_child(ControlPage* page, int timeout_s);

// Called inside a process that may initialise CUDA: the device count, or throws DriverError whose
// message starts with "no CUDA device".
int visible_device_count();

}  // namespace npkit::driver
