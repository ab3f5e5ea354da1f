#include "barrier_command.hpp"

#include <chrono>
#include <optional>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "../collective/member_spec.hpp"
#include "cosim_attach.hpp"
#include "enum_names.hpp"
#include "json_io.hpp"
#include "progress_bar.hpp"
#include "run_output.hpp"

namespace meshsync {

using nlohmann::json;

namespace {

std::string coord_text(Coord c) { return fmt::format("({},{})", c.x, c.y); }

// One scheme's runs as one JSON object: the means over the runs (mean_over_runs), the
// runs inside. The root is the runs' own: random members give each run its own.
json scheme_json(BarrierScheme scheme, const std::vector<BarrierRun>& runs) {
  const json jr = runs;
  json j = mean_over_runs(jr);
  j["scheme"] = scheme_name(scheme);
  j["runs"] = jr;
  return j;
}

void print_result_json(const BarrierOptions& o, const BarrierResult& r, const Cosim& cosim, double wall) {
  const BarrierParams& p = o.params;
  json j{{"schemes", json::array()}};
  for (std::size_t s = 0; s < p.schemes.size(); ++s) j["schemes"].push_back(scheme_json(p.schemes[s], r.runs[s]));
  if (p.schemes.size() == 2) j["speedup"] = r.speedup();
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
  for (std::size_t s = 0; s < p.schemes.size(); ++s) {
    for (std::size_t i = 0; i < r.runs[s].size(); ++i) {
      const BarrierRun& b = r.runs[s][i];
      fmt::print("{:>6} {:>4} {:>8} {:>9} {:>7} {:>14} {:>15} {:>7} {:>10}\n",
                 scheme_name(p.schemes[s]), i + 1, b.members, coord_text(b.root), b.height,
                 b.measured.latency_cycles, b.analytic_cycles, b.measured.hops,
                 b.measured.software_fallbacks);
    }
    // --repeat's summary row: the means the JSON gives for the scheme.
    if (r.runs[s].size() > 1) {
      const json m = mean_over_runs(json(r.runs[s]));
      fmt::print("{:>6} {:>4} {:>8} {:>9} {:>7.1f} {:>14.1f} {:>15.1f} {:>7.1f} {:>10.1f}\n", scheme_name(p.schemes[s]),
                 "mean", r.runs[s][0].members, "", m.at("height").get<double>(), m.at("latency_cycles").get<double>(),
                 m.at("analytic_cycles").get<double>(), m.at("hops").get<double>(),
                 m.at("software_fallbacks").get<double>());
    }
  }
  if (p.schemes.size() == 2)
    fmt::print("{} over {}: {:.2f}x faster (mean simulated latency)\n", scheme_name(p.schemes[0]),
               scheme_name(p.schemes[1]), r.speedup());
  if (r.load) {
    // A load too light for any measured packet to arrive has no latency: "-", not 0.
    const std::optional<double> latency = traffic_latency_avg(*r.load);
    fmt::print("under {} load at {} flits/node/cycle ({}-flit packets): its latency avg {}, p99 {} cycles, "
               "accepted {:.4f}\n", p.load.pattern, p.load.rate, p.load.flits, measured_text(latency, "{:.2f}"),
               latency ? fmt::format("{}", r.load->latency_p99) : "-", r.load->accepted);
  }
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
  // The cycles a barrier takes are known only once it ran: the bar counts them.
  ProgressBar bar("barrier", "cycles", progress_wanted(o.net.progress, o.json));
  const BarrierResult r = run_barrier_experiment(o.net.config, o.params, [&](Machine& m) {
    cosim = attach_network(m, o.net, o.params.seed, trace, {routers});
    follow_cycles(m, bar);
    // Barriers under load wait for sync messages to drain, which only model routers report.
    if (cosim.rtl && !o.params.load.pattern.empty())
      throw ConfigError("--load does not run with RTL routers (--rtl, --lockstep) yet");
  });
  bar.finish();
  const int status = report(o.json, cosim, seconds_since(wall0),
                            [&](double wall) { print_result_json(o, r, cosim, wall); }, [&] { print_table(o, r); });
  check_exact(o.params, r);  // after the results: they show the difference
  return status;
}

}  // namespace meshsync
