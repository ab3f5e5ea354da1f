// `meshsync barrier`: simulate barriers and compare them with the analytic latency.
#pragma once

#include <string>

#include "../runtime/experiments/barrier_experiment.hpp"
#include "network_options.hpp"

namespace meshsync {

struct BarrierOptions : SimulationOptions<BarrierParams> {
};
int run_barrier(const BarrierOptions& o);

}  // namespace meshsync
