// Multidestination worms of every algorithm's plan, as router tests send them: all steps
// of a plan at once (the routers are under test, not the software's timing), one
// multicast of 5 random destinations every 100..400 cycles until `cycles`. A step's worms
// spread over the NI's injection channels, as the NI sends them. Each worm is registered
// with the mesh's scoreboard. Call from a SystemC thread of `m`.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "model/core/packet.hpp"
#include "model/core/random.hpp"
#include "sim_helpers.hpp"
#include "sw/collective/path_multicast.hpp"

namespace meshsync::test {

// Returns the number of worms sent.
inline std::uint64_t send_multicast_worms(Machine& m, std::uint64_t cycles, std::uint64_t seed) {
  MeshSystem& sys = m.mesh();
  const MeshShape& mesh = sys.mesh();
  Random r(seed * 104729);
  std::uint64_t worms = 0;
  while (sys.now_cycle() < cycles) {
    wait_cycles(100 + r.below(300));
    const auto src = static_cast<NodeId>(r.below(static_cast<std::uint64_t>(mesh.nodes())));
    std::vector<NodeId> dests;
    while (dests.size() < 5) {
      const auto d = static_cast<NodeId>(r.below(static_cast<std::uint64_t>(mesh.nodes())));
      if (d != src && std::find(dests.begin(), dests.end(), d) == dests.end()) dests.push_back(d);
    }
    const MulticastPlan plan = plan_multicast(kAllMulticastAlgorithms[r.below(4)], mesh, src, dests);
    const auto channels = static_cast<std::size_t>(sys.config().router.ni_ports);
    for (const MulticastStep& step : plan.steps)
      for (std::size_t k = 0; k < step.worms.size(); ++k) {
        const Worm& w = step.worms[k];
        const std::uint64_t id = sys.core().new_packet_id(), at = sys.now_cycle() + 1;
        const auto flits = make_multicast_worm(id, step.sender, w.dests, w.base(), w.first_hop, 6, at);
        sys.scoreboard().expect_multicast(id, step.sender, w.dests, static_cast<std::uint16_t>(flits.size()), at);
        for (const Flit& f : flits) sys.inject(step.sender, f, at, static_cast<int>(k % channels));
        ++worms;
      }
  }
  return worms;
}

}  // namespace meshsync::test
