// `meshsync allreduce`: an allreduce over a communicator's ranks, in the routers (btm) and
// with each software algorithm, every rank's result checked (docs/reduction.md).
#pragma once

#include "../runtime/experiments/allreduce_experiment.hpp"
#include "network_options.hpp"

namespace meshsync {

struct AllreduceOptions : SimulationOptions<AllreduceParams> {
  bool per_rank = false;
};
int run_allreduce_command(const AllreduceOptions& o);

}  // namespace meshsync
