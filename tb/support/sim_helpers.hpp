// Helpers for Machine-based tests: configurations, a driver thread, a probe that records
// every sync message leaving a router towards its own network interface.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <systemc>

#include "model/core/network_core.hpp"
#include "sw/runtime/machine.hpp"

namespace meshsync::test {

inline NetworkConfig make_config(MeshShape mesh, Timing t = {}, std::uint32_t registers = 4) {
  NetworkConfig c;
  c.mesh = mesh;
  c.timing = t;
  c.router.barrier_registers = registers;
  return c;
}

// Runs `body` as the single driver thread of a fresh simulation of `m`.
inline void run_driver(Machine& m, std::function<void()> body) {
  m.spawn("driver", std::move(body));
  m.run();
}

// Waits `cycles` network cycles from a software thread.
inline void wait_cycles(std::uint64_t cycles) {
  if (cycles > 0) sc_core::wait(MeshSystem::cycle_time() * static_cast<double>(cycles));
}

struct LocalSync {
  NodeId node;
  Flit flit;
  std::uint64_t cycle;
};

// Records sync messages that routers hand to their own NI (the Local output).
class LocalSyncProbe : public NetworkProbe {
 public:
  std::vector<LocalSync> seen;
  void on_output(NodeId node, int port, const Flit& f, std::uint64_t cycle) override {
    if (port == index(Port::Local) && f.sync) seen.push_back({node, f, cycle});
  }
  void after_step(NodeId, std::uint64_t) override {}
  void touch(NodeId, std::uint64_t) override {}
  std::uint64_t next_cycle() const override { return kNever; }
  void begin_cycle(std::uint64_t) override {}
};

}  // namespace meshsync::test
