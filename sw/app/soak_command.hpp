// `meshsync soak`: unicast load, concurrent barriers and multicasts in one checked run,
// with optional faults (docs/reliability.md).
#pragma once

#include <string>
#include <vector>

#include "../runtime/experiments/soak_experiment.hpp"
#include "network_options.hpp"

namespace meshsync {

struct SoakOptions {
  SoakOptions() {
    // Multicasts need the all-port NI (as `meshsync multicast`).
    net.config.router.ni_ports = 4;
  }
  NetworkOptions net;
  SoakParams params;  // written by the CLI
  std::vector<std::string> faults;  // parsed once the mesh is known
  bool json = false;
};
int run_soak(const SoakOptions& o);

}  // namespace meshsync
