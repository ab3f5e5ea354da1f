// JSON forms of the configuration and of the results `meshsync` prints, as nlohmann's
// to_json/from_json, which json's constructor and get<>() find by argument-dependent
// lookup: `json j = cfg;`, `j.get<NetworkConfig>()`.
#pragma once

#include <optional>

#include <nlohmann/json.hpp>

#include "../../model/core/config.hpp"
#include "../../model/core/traffic.hpp"
#include "../runtime/experiments/barrier_experiment.hpp"

namespace meshsync {

// Coordinates and mesh sizes are [x, y] and [W, H].
void to_json(nlohmann::json& j, const Coord& c);
void to_json(nlohmann::json& j, const MeshShape& m);
void from_json(const nlohmann::json& j, MeshShape& m);

// {mesh, timing, router, deadlock_cycles}: `timing` and `router` hold every parameter of
// kParameters (model/core/parameters.hpp) under its JSON key.
void to_json(nlohmann::json& j, const NetworkConfig& c);
void from_json(const nlohmann::json& j, NetworkConfig& c);

void to_json(nlohmann::json& j, const TrafficParams& p);
void to_json(nlohmann::json& j, const TrafficResult& r);
// A traffic result's means, empty when there was nothing to average: no measured packet
// arrived (latency) or none was created (hops). The JSON has null there, a table "-".
std::optional<double> traffic_latency_avg(const TrafficResult& r);
std::optional<double> traffic_hops_avg(const TrafficResult& r);
// A latency figure of `r` (p99, max): `v` when a measured packet arrived, else none.
std::optional<std::uint64_t> traffic_latency(const TrafficResult& r, std::uint64_t v);
void to_json(nlohmann::json& j, const BarrierMeasurement& m);
void to_json(nlohmann::json& j, const BarrierRun& r);

}  // namespace meshsync
