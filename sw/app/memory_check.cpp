#include "memory_check.hpp"

#include <sys/resource.h>

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <limits>
#include <string>

#include <fmt/format.h>

#include "../../model/core/errors.hpp"

namespace meshsync {

namespace {

// Per allocated router (with its NI and software state): 4.6 KB at 1024x1024 with every
// node a member of a barrier (docs/performance.md, "Wafer-scale meshes"), rounded up for
// buffers that grow under load.
constexpr std::uint64_t kBytesPerRouter = 6 * 1024;
// Per unicast VC beyond the first (--vcs), per router: a FIFO and its due cycle at each
// of up to 8 inputs (56 bytes apiece), a credit and an owner at each of 9 outputs, the
// two vectors' headers, rounded up.
constexpr std::uint64_t kBytesPerExtraVc = 640;
// Per node whether its router is allocated or not: the per-node tables (207 MB for a
// 1000-member barrier on 1024x1024, docs/performance.md).
constexpr std::uint64_t kBytesPerNode = 256;
// The process before the network: the program, SystemC, the libraries.
constexpr std::uint64_t kBaseBytes = std::uint64_t{64} << 20;

struct Available {
  std::uint64_t bytes = 0;  // 0: nothing says
  const char* source = "";
};

// The process's address space in use now (VmSize), bytes: what RLIMIT_AS counts.
std::uint64_t address_space_in_use() {
  std::ifstream status("/proc/self/status");
  for (std::string key; status >> key;) {
    if (key == "VmSize:") {
      std::uint64_t kb = 0;
      status >> kb;
      return kb * 1024;
    }
    status.ignore(std::numeric_limits<std::streamsize>::max(), '\n');
  }
  return 0;
}

// What the run may use, bytes, and what says so: the least of the kernel's MemAvailable,
// the cgroup's memory.max (a container sees the host's meminfo), the address-space limit
// (ulimit -v: what is left of it, the process as it is now counted as the estimate's
// base) and MESHSYNC_MEMORY_LIMIT (bytes: a share of a machine others use too).
Available available_bytes() {
  Available limit;
  const auto lower = [&](std::uint64_t v, const char* source) {
    if (v > 0 && (limit.bytes == 0 || v < limit.bytes)) limit = {v, source};
  };
  std::ifstream meminfo("/proc/meminfo");
  for (std::string key; meminfo >> key;) {
    std::uint64_t kb = 0;
    std::string unit;
    meminfo >> kb >> unit;
    if (key == "MemAvailable:") {
      lower(kb * 1024, "available on this machine");
      break;
    }
  }
  std::uint64_t cgroup = 0;
  if (std::ifstream("/sys/fs/cgroup/memory.max") >> cgroup) lower(cgroup, "the cgroup's memory.max");  // "max": nothing
  if (struct rlimit as {}; getrlimit(RLIMIT_AS, &as) == 0 && as.rlim_cur != RLIM_INFINITY) {
    const std::uint64_t in_use = address_space_in_use();
    const std::uint64_t left = as.rlim_cur > in_use ? as.rlim_cur - in_use : 0;
    lower(std::max<std::uint64_t>(left + kBaseBytes, 1), "left of the address-space limit (ulimit -v)");
  }
  if (const char* env = std::getenv("MESHSYNC_MEMORY_LIMIT")) {
    std::uint64_t v = 0;
    const char* end = env + std::strlen(env);
    const auto [stop, ec] = std::from_chars(env, end, v);
    if (ec != std::errc() || stop != end || v == 0)
      throw ConfigError(std::string("MESHSYNC_MEMORY_LIMIT must be a positive number of bytes, got '") + env + "'");
    lower(v, "MESHSYNC_MEMORY_LIMIT");
  }
  return limit;
}

}  // namespace

std::uint64_t network_bytes_estimate(const NetworkConfig& cfg, std::uint64_t routers) {
  // The event wheel (NetworkCore): a 24-byte slot per cycle of the longest hop, as a power of two.
  std::uint64_t wheel = 64;
  while (wheel < 4ull + cfg.timing.tp + std::max(cfg.timing.trn, cfg.timing.trm)) wheel *= 2;
  const auto nodes = static_cast<std::uint64_t>(cfg.mesh.nodes());
  const std::uint64_t per_router = kBytesPerRouter + (cfg.router.unicast_vcs - 1) * kBytesPerExtraVc;
  return kBaseBytes + nodes * kBytesPerNode + std::min(routers, nodes) * per_router + wheel * 24;
}

std::uint64_t routers_for_collective(const MeshShape& mesh, std::uint64_t participants) {
  return participants * static_cast<std::uint64_t>(mesh.width + mesh.height);
}

void check_memory(std::uint64_t bytes, const std::string& what) {
  const Available available = available_bytes();
  if (available.bytes == 0 || bytes <= available.bytes) return;
  throw ConfigError(fmt::format("{} may need up to {:.1f} GB and {:.1f} GB are {}: make it smaller, or "
                                "--no-memory-check to run it anyway",
                                what, static_cast<double>(bytes) / 1e9, static_cast<double>(available.bytes) / 1e9,
                                available.source));
}

void check_memory(const NetworkConfig& cfg, const MemoryUse& use) {
  check_memory(network_bytes_estimate(cfg, use.routers) + use.other_bytes,
               fmt::format("a {}x{} mesh{}", cfg.mesh.width, cfg.mesh.height,
                           use.other_bytes ? fmt::format(" and {} bytes of messages", use.other_bytes) : ""));
}

}  // namespace meshsync
