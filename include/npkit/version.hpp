// npkit/version.hpp — the project's version, shared by the capture side and the analyzer.
// Contract: plain constants, no dependency; CMake reads NPKIT_VERSION_STRING from this file.
#pragma once

#define NPKIT_VERSION_MAJOR 0
#define NPKIT_VERSION_MINOR 1
#define NPKIT_VERSION_PATCH 0
#define NPKIT_VERSION_STRING "0.1.0"
