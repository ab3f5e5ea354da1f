// A run whose network cannot fit in the memory the machine has is refused before it
// starts, rather than ending in bad_alloc or the OOM killer minutes later.
#pragma once

#include <cstdint>
#include <limits>
#include <string>

#include "../../model/core/config.hpp"

namespace meshsync {

// Upper bound of what the simulated network takes, bytes, when `routers` of its routers
// are allocated (they are created as traffic first reaches them): all of them under a
// load, the members' paths for a collective alone (routers_for_collective).
std::uint64_t network_bytes_estimate(const NetworkConfig& cfg, std::uint64_t routers);

// The routers a collective among `participants` nodes can reach alone: each one's
// messages cross at most W + H routers.
std::uint64_t routers_for_collective(const MeshShape& mesh, std::uint64_t participants);

// Throws ConfigError naming `what` (e.g. "a 1024x1024 mesh"), the estimate and what the
// run may use (memory_check.cpp) when `bytes` does not fit; --no-memory-check skips it.
void check_memory(std::uint64_t bytes, const std::string& what);
// What a run may allocate beside the process: `routers` of the network's routers (all by
// default) and `other_bytes` of its own (a broadcast's copies of its message).
struct MemoryUse {
  std::uint64_t routers = std::numeric_limits<std::uint64_t>::max();
  std::uint64_t other_bytes = 0;
};

// The same for a run on the network.
void check_memory(const NetworkConfig& cfg, const MemoryUse& use);

}  // namespace meshsync
