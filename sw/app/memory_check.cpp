#include "memory_check.hpp"

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>

#include <fmt/format.h>

#include "../../model/core/errors.hpp"

namespace meshsync {

namespace {

// Per allocated router (with its NI and software state): 4.6 KB at 1024x1024 with every
// node a member of a barrier (docs/performance.md, "Wafer-scale meshes"), rounded up for
// buffers that grow under load.
constexpr std::uint64_t kBytesPerRouter = 6 * 1024;
// Per node whether its router is allocated or not: the per-node tables (207 MB for a
// 1000-member barrier on 1024x1024, docs/performance.md).
constexpr std::uint64_t kBytesPerNode = 256;
// The process before the network: the program, SystemC, the libraries.
constexpr std::uint64_t kBaseBytes = std::uint64_t{64} << 20;

// What the run may use, bytes, or 0 when nothing says: the least of the kernel's
// MemAvailable, the cgroup's memory.max (a container sees the host's meminfo) and
// MESHSYNC_MEMORY_LIMIT (bytes: a share of a machine others use too).
std::uint64_t available_bytes() {
  std::uint64_t limit = 0;
  const auto lower = [&](std::uint64_t v) {
    if (v > 0 && (limit == 0 || v < limit)) limit = v;
  };
  std::ifstream meminfo("/proc/meminfo");
  for (std::string key; meminfo >> key;) {
    std::uint64_t kb = 0;
    std::string unit;
    meminfo >> kb >> unit;
    if (key == "MemAvailable:") {
      lower(kb * 1024);
      break;
    }
  }
  std::uint64_t cgroup = 0;
  if (std::ifstream("/sys/fs/cgroup/memory.max") >> cgroup) lower(cgroup);  // "max" reads as nothing
  if (const char* env = std::getenv("MESHSYNC_MEMORY_LIMIT")) {
    std::uint64_t v = 0;
    const char* end = env + std::strlen(env);
    const auto [stop, ec] = std::from_chars(env, end, v);
    if (ec != std::errc() || stop != end || v == 0)
      throw ConfigError(std::string("MESHSYNC_MEMORY_LIMIT must be a positive number of bytes, got '") + env + "'");
    lower(v);
  }
  return limit;
}

}  // namespace

std::uint64_t network_bytes_estimate(const NetworkConfig& cfg, std::uint64_t routers) {
  // The event wheel (NetworkCore): a 24-byte slot per cycle of the longest hop, as a power of two.
  std::uint64_t wheel = 64;
  while (wheel < 4ull + cfg.timing.tp + std::max(cfg.timing.trn, cfg.timing.trm)) wheel *= 2;
  const auto nodes = static_cast<std::uint64_t>(cfg.mesh.nodes());
  return kBaseBytes + nodes * kBytesPerNode + std::min(routers, nodes) * kBytesPerRouter + wheel * 24;
}

std::uint64_t routers_for_collective(const MeshShape& mesh, std::uint64_t participants) {
  return participants * static_cast<std::uint64_t>(mesh.width + mesh.height);
}

void check_memory(std::uint64_t bytes, const std::string& what) {
  const std::uint64_t available = available_bytes();
  if (available == 0 || bytes <= available) return;
  throw ConfigError(fmt::format("{} may need up to {:.1f} GB and {:.1f} GB are available: make it smaller, or "
                                "--no-memory-check to run it anyway",
                                what, static_cast<double>(bytes) / 1e9, static_cast<double>(available) / 1e9));
}

void check_memory(const NetworkConfig& cfg, const MemoryUse& use) {
  check_memory(network_bytes_estimate(cfg, use.routers) + use.other_bytes,
               fmt::format("a {}x{} mesh{}", cfg.mesh.width, cfg.mesh.height,
                           use.other_bytes ? fmt::format(" and {} bytes of messages", use.other_bytes) : ""));
}

}  // namespace meshsync
