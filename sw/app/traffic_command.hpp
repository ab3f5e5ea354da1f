// `meshsync traffic`: ordinary unicast load, measured like a NoC simulator.
#pragma once

#include <string>

#include "../../model/core/traffic.hpp"
#include "network_options.hpp"

namespace meshsync {

struct TrafficOptions : SimulationOptions<TrafficParams> {
};
int run_traffic(const TrafficOptions& o);

}  // namespace meshsync
