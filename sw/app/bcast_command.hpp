// `meshsync bcast`: broadcasts over point-to-point messages (docs/broadcast.md).
#pragma once

#include "../runtime/experiments/broadcast_experiment.hpp"
#include "network_options.hpp"

namespace meshsync {

struct BcastOptions : SimulationOptions<BroadcastParams> {
  bool per_rank = false;
};
int run_bcast(const BcastOptions& o);

}  // namespace meshsync
