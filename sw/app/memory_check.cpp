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

// Per node with every router allocated: 4.6 KB at 1024x1024 with every node a member of
// a barrier (docs/performance.md, "Wafer-scale meshes"), rounded up for buffers that grow
// under load.
constexpr std::uint64_t kBytesPerNode = 6 * 1024;
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

std::uint64_t network_bytes_estimate(const NetworkConfig& cfg) {
  // The event wheel (NetworkCore): a 24-byte slot per cycle of the longest hop, as a power of two.
  std::uint64_t wheel = 64;
  while (wheel < 4ull + cfg.timing.tp + std::max(cfg.timing.trn, cfg.timing.trm)) wheel *= 2;
  return kBaseBytes + static_cast<std::uint64_t>(cfg.mesh.nodes()) * kBytesPerNode + wheel * 24;
}

void check_memory(std::uint64_t bytes, const std::string& what) {
  const std::uint64_t available = available_bytes();
  if (available == 0 || bytes <= available) return;
  throw ConfigError(fmt::format("{} may need up to {:.1f} GB and {:.1f} GB are available: make it smaller, or "
                                "--no-memory-check to run it anyway",
                                what, static_cast<double>(bytes) / 1e9, static_cast<double>(available) / 1e9));
}

void check_memory(const NetworkConfig& cfg) {
  check_memory(network_bytes_estimate(cfg), fmt::format("a {}x{} mesh", cfg.mesh.width, cfg.mesh.height));
}

}  // namespace meshsync
