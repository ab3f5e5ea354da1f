#include "json_io.hpp"

#include "enum_names.hpp"
#include "run_output.hpp"

namespace meshsync {

using nlohmann::json;

void to_json(json& j, const Coord& c) { j = json::array({c.x, c.y}); }

void to_json(json& j, const MeshShape& m) { j = json::array({m.width, m.height}); }

void from_json(const json& j, MeshShape& m) {
  m.width = j.at(0).get<int>();
  m.height = j.at(1).get<int>();
}

void to_json(json& j, const NetworkConfig& c) {
  j = json{{"mesh", c.mesh}, {"timing", json::object()}, {"router", json::object()},
           {"deadlock_cycles", c.deadlock_cycles}};
  for (const Parameter& p : kParameters) j[p.json_object()][p.json_key] = p.of(c);
}

// Every parameter must be there: a missing one is an error rather than a silent default.
void from_json(const json& j, NetworkConfig& c) {
  j.at("mesh").get_to(c.mesh);
  for (const Parameter& p : kParameters) j.at(p.json_object()).at(p.json_key).get_to(p.of(c));
  j.at("deadlock_cycles").get_to(c.deadlock_cycles);
}

// `--cycles` is the measured window: `measured_cycles`, apart from the length the run
// simulated (TrafficResult's `simulated_cycles`).
void to_json(json& j, const TrafficParams& p) {
  j = json{{"pattern", pattern_name(p.pattern)},
           {"rate_flits_per_node_cycle", p.rate},
           {"flits", p.flits},
           {"warmup_cycles", p.warmup},
           {"measured_cycles", p.cycles},
           {"seed", p.seed},
           {"hotspot_fraction", p.hotspot_fraction},
           {"saturation_stop", p.stop_when_saturated}};
}

std::optional<double> traffic_latency_avg(const TrafficResult& r) {
  // Every delivery takes at least a cycle, so a mean of 0 is a mean over no packet.
  return r.latency_avg > 0 ? std::optional<double>(r.latency_avg) : std::nullopt;
}

std::optional<double> traffic_hops_avg(const TrafficResult& r) {
  return r.packets_measured > 0 ? std::optional<double>(r.hops_avg) : std::nullopt;
}

std::optional<std::uint64_t> traffic_latency(const TrafficResult& r, std::uint64_t v) {
  return traffic_latency_avg(r) ? std::optional<std::uint64_t>(v) : std::nullopt;
}

// The last delivery is where the network finished: the cycles the run simulated. The
// latencies are null when no measured packet arrived (a window too short for any
// packet, a run stopped early); accepted and offered are counts over the window, 0 when
// nothing came, a measurement like any other.
void to_json(json& j, const TrafficResult& r) {
  j = json{{"latency_avg_cycles", measured_json(traffic_latency_avg(r))},
           {"latency_p99_cycles", measured_json(traffic_latency(r, r.latency_p99))},
           {"latency_max_cycles", measured_json(traffic_latency(r, r.latency_max))},
           {"accepted_flits_per_node_cycle", r.accepted},
           {"offered_flits_per_node_cycle", r.offered},
           {"hops_avg", measured_json(traffic_hops_avg(r))},
           {"packets_measured", r.packets_measured},
           {"packets_delivered", r.packets_delivered},
           {"flits_delivered", r.flits_delivered},
           {"simulated_cycles", r.last_delivery}};
}

// Without arrival_cycle and first_release: they say when the run happened in the
// simulation, not how the barrier performed. The wall time is the barrier's own, apart
// from the command's `wall_seconds`.
void to_json(json& j, const BarrierMeasurement& m) {
  j = json{{"latency_cycles", m.latency_cycles},
           {"hops", m.hops},
           {"software_fallbacks", m.software_fallbacks},
           {"barrier_wall_seconds", m.wall_seconds}};
}

void to_json(json& j, const BarrierRun& r) {
  j = r.measured;
  j.update(json{{"members", r.members},
                {"root", r.root},
                {"height", r.height},
                {"analytic_cycles", r.analytic_cycles}});
}

}  // namespace meshsync
