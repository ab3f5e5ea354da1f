// `meshsync soak` (docs/reliability.md): the summary table or JSON of a soak, and its
// violations as the failure (exit 3).
#include "soak_command.hpp"

#include <optional>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "../collective/path_multicast.hpp"
#include "cosim_attach.hpp"
#include "run_output.hpp"

namespace meshsync {

using nlohmann::json;

namespace {

json scheme_json(const SoakSchemeCounts& c) {
  return json{{"groups", c.groups}, {"overflowed_groups", c.overflowed_groups},
              {"software_members", c.software_members}, {"epochs", c.epochs}};
}

// Host speed: none when no flit was delivered (a soak with every load switched off) or the
// clock saw no time pass, rather than a speed of 0.
std::optional<double> flits_per_second(const SoakResult& r) {
  if (r.flits_delivered == 0 || !(r.wall_seconds > 0)) return std::nullopt;
  return static_cast<double>(r.flits_delivered) / r.wall_seconds;
}

void print_table(const NetworkConfig& cfg, const SoakParams& p, const SoakResult& r) {
  fmt::print("soak on a {}x{} mesh, seed {}: {} cycles of new work, {} simulated\n", cfg.mesh.width,
             cfg.mesh.height, p.seed, p.cycles, r.cycles);
  const auto row = [](const std::string& what, const std::string& value) { fmt::print("  {:<38} {:>14}\n", what, value); };
  row("worm flits injected", std::to_string(r.flits_injected));
  row("worm flits delivered", std::to_string(r.flits_delivered));
  row("worms delivered", std::to_string(r.worms));
  row("  unicast load packets", std::to_string(r.unicast_packets));
  row("multicasts (" + algorithm_name(p.algorithm) + ") called / done",
      fmt::format("{} / {}", r.multicasts, r.multicasts_done));
  row("broadcasts started / done", fmt::format("{} / {}", r.broadcasts, r.broadcasts_done));
  row("  broadcast packets", std::to_string(r.broadcast_messages));
  row("  two-stage: broadcasts, multicast copies kept / dropped",
      fmt::format("{}, {} / {}", r.two_stage_broadcasts, r.tree_copies_kept, r.tree_copies_dropped));
  row("    ranks with a hardware register", fmt::format("{} of {}", r.tree_members_in_hardware, r.tree_members));
  row("allreduces started / done", fmt::format("{} / {}", r.allreduces, r.allreduces_done));
  row("  allreduce packets", std::to_string(r.allreduce_messages));
  row("  in the routers", fmt::format("{} (+{} without free registers, in software)", r.allreduces_in_network,
                                      r.allreduces_without_registers));
  for (const auto& [name, c] : {std::pair<const char*, const SoakSchemeCounts&>{"BTM", r.btm}, {"CS", r.cs}}) {
    row(fmt::format("{} barrier epochs ({} groups)", name, c.groups), std::to_string(c.epochs));
    row(fmt::format("  {} groups overflowed to software", name),
        fmt::format("{} ({} members)", c.overflowed_groups, c.software_members));
  }
  row("host time [s]", fmt::format("{:.3f}", r.wall_seconds));
  row("flits delivered per host second", measured_text(flits_per_second(r), "{:.4g}"));
  fmt::print("  {}\n", r.passed() ? "scoreboard: passed" : fmt::format("scoreboard: {} violation(s)", r.violations.size()));
}

}  // namespace

int run_soak(const SoakOptions& o) {
  const ValidConfig cfg(o.net.config);  // the one validation (ValidConfig)
  if (o.net.wants_rtl() && !o.faults.empty())
    throw ConfigError("--fault: faults live in the model's links and routers; drop --rtl, --lockstep and --trace");
  SoakParams p = o.params;
  for (const std::string& f : o.faults) p.faults.push_back(parse_fault(f, cfg.mesh));
  // With RTL routers the soak is a lockstep soak: the scoreboards check what the RTL
  // delivered, and --lockstep compares every busy router-cycle with the model.
  Cosim cosim;
  TraceSession trace(o.net);
  ProgressBar bar("soak", "cycles", progress_wanted(o.net.progress, o.json));
  bar.set_total(p.cycles);  // then the drain
  const SoakResult r = run_soak_experiment(cfg, p, [&](Machine& m) {
    cosim = attach_network(m, o.net, p.seed, trace);
    follow_cycles(m, bar);
  });
  bar.finish();
  if (o.json) {
    json j{{"passed", r.passed()},
           {"violations", r.violations},
           {"cycles", p.cycles},
           {"simulated_cycles", r.cycles},
           {"seed", p.seed},
           {"flits_injected", r.flits_injected},
           {"flits_delivered", r.flits_delivered},
           {"worms", r.worms},
           {"unicast_packets", r.unicast_packets},
           {"multicasts", r.multicasts},
           {"multicasts_done", r.multicasts_done},
           {"multicast_algorithm", algorithm_name(p.algorithm)},
           {"broadcasts", r.broadcasts},
           {"broadcasts_done", r.broadcasts_done},
           {"broadcast_messages", r.broadcast_messages},
           {"two_stage_broadcasts", r.two_stage_broadcasts},
           {"allreduces", r.allreduces},
           {"allreduces_done", r.allreduces_done},
           {"allreduce_messages", r.allreduce_messages},
           {"allreduces_in_network", r.allreduces_in_network},
           {"allreduces_without_registers", r.allreduces_without_registers},
           {"tree_copies_kept", r.tree_copies_kept},
           {"tree_members", r.tree_members},
           {"tree_members_in_hardware", r.tree_members_in_hardware},
           {"tree_copies_dropped", r.tree_copies_dropped},
           {"btm", scheme_json(r.btm)},
           {"cs", scheme_json(r.cs)},
           {"faults", o.faults},
           {"simulation_seconds", r.wall_seconds},
           {"flits_per_second", measured_json(flits_per_second(r))}};
    print_json(std::move(j), cfg, cosim, r.wall_seconds);
  } else {
    print_table(cfg, p, r);
    print_cosim(cosim);
  }
  if (r.passed()) return 0;
  // Every violation one line (a deadlock report adds its stuck buffers below its line).
  std::string what = "soak: " + std::to_string(r.violations.size()) + " violation(s)";
  constexpr std::size_t kShown = 10;
  for (std::size_t i = 0; i < r.violations.size() && i < kShown; ++i) what += "\n  " + r.violations[i];
  if (r.violations.size() > kShown) what += "\n  ... and " + std::to_string(r.violations.size() - kShown) + " more";
  throw SimulationError(what);
}

}  // namespace meshsync
