// A run whose network cannot fit in the memory the machine has is refused before it
// starts, rather than ending in bad_alloc or the OOM killer minutes later.
#pragma once

#include <cstdint>
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
// The same for the network with `routers` allocated.
void check_memory(const NetworkConfig& cfg, std::uint64_t routers);

}  // namespace meshsync
