// `meshsync soak`: unicast load, concurrent barriers and multicasts in one checked run,
// with optional faults (docs/reliability.md).
#pragma once

#include <string>
#include <vector>

#include "../runtime/experiments/soak_experiment.hpp"
#include "network_options.hpp"

namespace meshsync {

struct SoakOptions : SimulationOptions<SoakParams> {
  SoakOptions() {
    // Multicasts need the all-port NI (as `meshsync multicast`).
    net.config.router.ni_ports = 4;
  }
  std::vector<std::string> faults;  // parsed once the mesh is known
};
int run_soak(const SoakOptions& o);

}  // namespace meshsync
