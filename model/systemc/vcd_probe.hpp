// Waveforms of every router for GTKWave: per output port the flit leaving in each cycle
// (valid, type, destination, VC) and the credits held, per barrier register its state.
// Names follow the hierarchy, e.g. mesh.r_3_4.east_out.valid (docs/waveforms.md).
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <queue>
#include <string>
#include <vector>

#include <systemc>

#include "../core/network_core.hpp"

namespace meshsync {

class VcdProbe : public NetworkProbe {
 public:
  // Opens `path` (".vcd" is added when missing) and registers every traced value; must
  // be called before the simulation starts.
  VcdProbe(NetworkCore& net, const std::string& path);
  ~VcdProbe() override;

  void on_output(NodeId node, int port, const Flit& f, std::uint64_t cycle) override;
  void after_step(NodeId node, std::uint64_t cycle) override;
  void touch(NodeId node, std::uint64_t cycle) override;
  std::uint64_t next_cycle() const override;
  void begin_cycle(std::uint64_t cycle) override;

  // Flit type codes on the `type` signal.
  enum Type : unsigned { Idle = 0, WormHead = 1, WormBody = 2, WormTail = 3, WormSingle = 4,
                         SyncArrive = 5, SyncRelease = 6, SyncSetup = 7, SyncTeardown = 8 };

 private:
  struct PortTrace {
    bool valid = false;
    unsigned type = Idle;
    unsigned vc = 0;
    unsigned dest_x = 0;
    unsigned dest_y = 0;
    unsigned gid = 0;
    std::array<unsigned, kVcs> credits{};
  };
  struct RegisterTrace {
    bool valid = false;
    bool member = false;
    unsigned gid = 0;
    unsigned arrived = 0;
    unsigned expected = 0;
  };
  struct RouterTrace {
    std::array<PortTrace, kPorts> out;
    std::vector<RegisterTrace> regs;
  };
  void refresh(NodeId node, std::uint64_t cycle);

  NetworkCore& net_;
  sc_core::sc_trace_file* file_ = nullptr;
  std::vector<RouterTrace> routers_;
  std::vector<std::pair<NodeId, int>> pulsing_;  // outputs valid in pulse_cycle_
  std::uint64_t pulse_cycle_ = 0;
  std::priority_queue<std::pair<std::uint64_t, NodeId>, std::vector<std::pair<std::uint64_t, NodeId>>,
                      std::greater<>>
      touched_;
};

}  // namespace meshsync
