// A run whose network cannot fit in the memory the machine has is refused before it
// starts, rather than ending in bad_alloc or the OOM killer minutes later.
#pragma once

#include <cstdint>
#include <string>

#include "../../model/core/config.hpp"

namespace meshsync {

// Upper bound of what the simulated network takes, bytes: every router allocated, as a
// run that loads every node does (docs/reliability.md, "Resource limits").
std::uint64_t network_bytes_estimate(const NetworkConfig& cfg);

// Throws ConfigError naming `what` (e.g. "a 1024x1024 mesh"), the estimate and what the
// run may use (memory_check.cpp) when `bytes` does not fit; --no-memory-check skips it.
void check_memory(std::uint64_t bytes, const std::string& what);
// The same for the network alone.
void check_memory(const NetworkConfig& cfg);

}  // namespace meshsync
