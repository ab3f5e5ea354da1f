// `meshsync multicast`: path-based multicasts (DP, MP, CP, QG) simulated, alone or under
// the QG paper's load (docs/multicast.md).
#pragma once

#include "../runtime/experiments/multicast_experiment.hpp"
#include "network_options.hpp"

namespace meshsync {

struct MulticastOptions : SimulationOptions<MulticastParams> {
  MulticastOptions() {
    // The QG paper's network: start-up 33 cycles, the shortest hop this router has
    // (tp = trn = 1: 2 cycles), all-port NIs (one-port multicast can deadlock on the
    // consumption channel).
    net.config.timing.ts = 33;
    net.config.timing.tp = 1;
    net.config.timing.trn = 1;
    net.config.router.ni_ports = 4;
  }
};
int run_multicast(const MulticastOptions& o);

}  // namespace meshsync
