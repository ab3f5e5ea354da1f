// `meshsync traffic`: ordinary unicast load, measured like a NoC simulator.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "../../model/core/traffic.hpp"
#include "network_options.hpp"

namespace meshsync {

struct TrafficOptions : SimulationOptions<TrafficParams> {
};

// The parameters a traffic run never reads (kParameters' names): it injects at the
// routers, past the NI's start-up, and runs no barrier. Not options of `traffic`, and
// not in its JSON.
inline const std::vector<std::string_view> kTrafficUnusedParameters = {"ts", "trm", "registers", "max-children"};
int run_traffic(const TrafficOptions& o);

}  // namespace meshsync
