#include "barrier_command.hpp"

#include <chrono>
#include <optional>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "../collective/member_spec.hpp"
#include "cosim_attach.hpp"
#include "enum_names.hpp"
#include "json_io.hpp"
#include "run_output.hpp"

namespace meshsync {

using nlohmann::json;

namespace {

std::string coord_text(Coord c) { return fmt::format("({},{})", c.x, c.y); }

// One scheme's runs as one JSON object: the run itself, or means with the runs inside.
json scheme_json(BarrierScheme scheme, const std::vector<BarrierRun>& runs) {
  const json jr = runs;
  json j;
  if (runs.size() == 1) {
    j = jr[0];
  } else {
    const double n = static_cast<double>(runs.size());
    const auto mean = [&](const char* key) {
      double sum = 0;
      for (const auto& r : jr) sum += r[key].get<double>();
      return sum / n;
    };
    j = json{{"members", jr[0]["members"]}, {"root", jr[0]["root"]},
             {"height", mean("height")}, {"latency_cycles", mean("latency_cycles")},
             {"analytic_cycles", mean("analytic_cycles")}, {"hops", mean("hops")},
             {"software_fallbacks", mean("software_fallbacks")},
             {"barrier_wall_seconds", mean("barrier_wall_seconds")}, {"runs", jr}};
  }
  j["scheme"] = scheme_name(scheme);
  return j;
}

void print_result_json(const BarrierOptions& o, const BarrierResult& r, const Cosim& cosim, double wall) {
  const BarrierParams& p = o.params;
  json j;
  if (p.schemes.size() == 1) {
    j = scheme_json(p.schemes[0], r.runs[0]);
  } else {
    j["schemes"] = json::array();
    for (std::size_t s = 0; s < p.schemes.size(); ++s) j["schemes"].push_back(scheme_json(p.schemes[s], r.runs[s]));
    if (p.schemes.size() == 2) j["speedup"] = r.speedup();
  }
  j["seed"] = p.seed;
  j["repeat"] = p.repeat;
  if (r.load) j["load"] = load_json(p.load, *r.load);
  print_json(std::move(j), o.net.config, cosim, wall);
}

void print_table(const BarrierOptions& o, const BarrierResult& r) {
  const NetworkConfig& cfg = o.net.config;
  const BarrierParams& p = o.params;
  fmt::print("barrier on a {}x{} mesh  ts={} tp={} trn={} trm={}  registers={}\n", cfg.mesh.width,
             cfg.mesh.height, cfg.timing.ts, cfg.timing.tp, cfg.timing.trn, cfg.timing.trm,
             cfg.router.barrier_registers);
  fmt::print("{:>6} {:>4} {:>8} {:>9} {:>7} {:>14} {:>15} {:>7} {:>10}\n", "scheme", "run",
             "members", "root", "height", "latency [cyc]", "analytic [cyc]", "hops", "sw-fallbk");
  for (std::size_t s = 0; s < p.schemes.size(); ++s)
    for (std::size_t i = 0; i < r.runs[s].size(); ++i) {
      const BarrierRun& b = r.runs[s][i];
      fmt::print("{:>6} {:>4} {:>8} {:>9} {:>7} {:>14} {:>15} {:>7} {:>10}\n",
                 scheme_name(p.schemes[s]), i + 1, b.members, coord_text(b.root), b.height,
                 b.measured.latency_cycles, b.analytic_cycles, b.measured.hops,
                 b.measured.software_fallbacks);
    }
  if (p.schemes.size() == 2)
    fmt::print("{} over {}: {:.2f}x faster (mean simulated latency)\n", scheme_name(p.schemes[0]),
               scheme_name(p.schemes[1]), r.speedup());
  if (r.load)
    fmt::print("under {} load at {} flits/node/cycle ({}-flit packets): its latency avg {:.2f}, p99 {} cycles, "
               "accepted {:.4f}\n", p.load.pattern, p.load.rate, p.load.flits, r.load->latency_avg,
               r.load->latency_p99, r.load->accepted);
}

}  // namespace

int run_barrier(const BarrierOptions& o) {
  const auto wall0 = std::chrono::steady_clock::now();
  Cosim cosim;
  TraceSession trace(o.net);
  // Alone, a barrier allocates the routers its members' messages cross; a load, all.
  const MeshShape& mesh = o.net.config.mesh;
  const std::uint64_t routers =
      o.params.load.pattern.empty()
          ? routers_for_collective(mesh, member_count(o.params.members, mesh))
          : static_cast<std::uint64_t>(mesh.nodes());
  const BarrierResult r = run_barrier_experiment(o.net.config, o.params, [&](Machine& m) {
    cosim = attach_network(m, o.net, o.params.seed, trace, {routers});
    // Barriers under load wait for sync messages to drain, which only model routers report.
    if (cosim.rtl && !o.params.load.pattern.empty())
      throw ConfigError("--load does not run with RTL routers (--rtl, --lockstep) yet");
  });
  const int status = report(o.json, cosim, seconds_since(wall0),
                            [&](double wall) { print_result_json(o, r, cosim, wall); }, [&] { print_table(o, r); });
  check_exact(o.params, r);  // after the results: they show the difference
  return status;
}

}  // namespace meshsync
