// A network sink for tests that drive NetworkCore without SystemC: it records every
// ejected flit with its node and cycle and checks ordinary flits on a scoreboard.
#pragma once

#include <cstdint>
#include <vector>

#include "model/core/network_core.hpp"
#include "model/core/packet.hpp"

namespace meshsync::test {

struct Ejection {
  NodeId node;
  Flit flit;
  std::uint64_t cycle;
};

struct RecordingSink : NetworkSink {
  std::vector<Ejection> out;
  Scoreboard board;
  void on_eject(NodeId node, const Flit& f, std::uint64_t cycle) override {
    out.push_back({node, f, cycle});
    if (!f.sync) board.deliver(node, f, cycle);
  }
};

}  // namespace meshsync::test
