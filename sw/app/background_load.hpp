// Ordinary unicast load running beside the software's own work (`meshsync barrier
// --load`, `meshsync multicast --load`): the traffic generator's parameters, the check
// that it drained, and its result in the fields of `meshsync traffic --json`.
#pragma once

#include <cstdint>

#include <nlohmann/json.hpp>

#include "../../model/core/traffic.hpp"
#include "commands.hpp"

namespace meshsync {

// Packets from the load's start until the driver ends the window (end_window).
TrafficParams background_params(const BackgroundLoad& l, std::uint64_t seed);
// Throws SimulationError if measured packets were left undelivered or misdelivered.
void check_drained(const TrafficGenerator& gen);
nlohmann::json load_json(const BackgroundLoad& l, const TrafficGenerator& gen);

// Prints a command's JSON result with what produced it: the network it ran on, the
// source commit and the host time (the seed is the caller's to add).
void print_json_result(nlohmann::json j, const NetworkConfig& cfg, double wall_seconds);

}  // namespace meshsync
