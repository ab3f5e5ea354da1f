#include "commands.hpp"

#include <algorithm>
#include <chrono>
#include <iostream>
#include <optional>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "../../model/core/flit_format.hpp"
#include "../../model/systemc/vcd_probe.hpp"
#include "../collective/member_spec.hpp"
#include "../runtime/machine.hpp"
#include "background_load.hpp"
#include "cosim_attach.hpp"
#include "enum_names.hpp"
#include "json_io.hpp"

namespace meshsync {

using nlohmann::json;

namespace {

std::string coord_text(Coord c) { return fmt::format("({},{})", c.x, c.y); }

// The program's one Machine is never destroyed: SystemC removes objects from its
// registries one by one in linear time, so tearing down 8192 modules of a 64x64 mesh
// would cost more than simulating a barrier on it. The process exit reclaims it.

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}



BarrierRun measured_run(const BarrierTree& t, const NetworkConfig& cfg, const BarrierMeasurement& m) {
  return BarrierRun{t.nodes().size(), cfg.mesh.coord(t.root()), t.height(),
                    t.analytic_cycles(cfg.timing), m};
}

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

double mean_latency(const std::vector<BarrierRun>& runs) {
  double sum = 0;
  for (const BarrierRun& r : runs) sum += static_cast<double>(r.measured.latency_cycles);
  return sum / static_cast<double>(runs.size());
}

}  // namespace

namespace {

// The background load of `meshsync barrier --load`: packets from cycle 1 until the
// driver ends the window after the last barrier.
TrafficParams load_params(const BarrierOptions& o, const Cosim& cosim) {
  // Barriers under load wait for sync messages to drain, which only model routers report.
  if (cosim.rtl) throw ConfigError("--load does not run with RTL routers (--rtl, --lockstep) yet");
  return background_params(o.load, o.seed);
}

}  // namespace

TrafficParams background_params(const BackgroundLoad& l, std::uint64_t seed) {
  TrafficParams p;
  p.pattern = parse_pattern(l.pattern);
  p.rate = l.rate;
  p.flits = static_cast<std::uint16_t>(l.flits);
  p.warmup = static_cast<std::uint64_t>(l.warmup);
  p.cycles = std::uint64_t{1} << 50;  // until end_window
  p.seed = seed;
  return p;
}

void check_drained(const TrafficGenerator& gen) {
  if (!gen.finished())
    throw SimulationError("traffic did not drain: " + std::to_string(gen.scoreboard().in_flight()) +
                          " packets undelivered");
  if (!gen.scoreboard().errors().empty())
    throw SimulationError("scoreboard: " + gen.scoreboard().errors().front());
}

json load_json(const BackgroundLoad& l, const TrafficGenerator& gen) {
  json j = gen.result();
  j.update(json{{"pattern", l.pattern}, {"rate", l.rate}, {"flits", l.flits}, {"warmup", l.warmup}});
  return j;
}

// Every JSON output ends with what produced it, so a result can be reproduced and
// compared from its file alone: the network it ran on, the seed (set by the caller), the
// source commit (read when CMake configured the build) and the host time.
void print_json_result(json j, const NetworkConfig& cfg, double wall) {
  j.update(json(cfg));
  j["commit"] = MESHSYNC_COMMIT;
  j["wall_seconds"] = wall;
  std::cout << j.dump(2) << "\n";
}

int run_barrier(const BarrierOptions& o) {
  const auto wall0 = std::chrono::steady_clock::now();
  const NetworkConfig& cfg = o.net.config;
  cfg.validate();
  const std::vector<BarrierScheme>& schemes = o.schemes;
  check_distinct(schemes, scheme_name, "scheme");
  // Random member sets are drawn afresh for every repetition (seed, seed+1, ...), as the
  // paper averages over random groups; explicit sets repeat the same group. Every scheme
  // sees the same member sets.
  std::vector<std::vector<NodeId>> member_sets;
  for (std::int64_t i = 0; i < o.repeat; ++i)
    member_sets.push_back(parse_members(o.members, cfg.mesh, o.seed + static_cast<std::uint64_t>(i)));

  Machine& machine = *new Machine(cfg);  // never destroyed, see above
  const Cosim cosim = attach_rtl(machine, o.net, o.seed);
  std::optional<VcdProbe> vcd;
  if (!o.vcd.empty()) vcd.emplace(machine.mesh().core(), o.vcd);
  std::optional<TrafficGenerator> load;
  if (!o.load.pattern.empty()) {
    load.emplace(load_params(o, cosim), cfg.mesh, 1);
    machine.mesh().attach_traffic(&*load);
  }
  // Under load the barriers start once it has warmed up, from cycle 1 on.
  const std::uint64_t not_before = load ? 1 + static_cast<std::uint64_t>(o.load.warmup) : 0;

  std::vector<std::vector<BarrierRun>> runs(schemes.size());
  machine.spawn("driver", [&] {
    for (std::size_t s = 0; s < schemes.size(); ++s)
      for (const auto& members : member_sets) {
        Communicator c = machine.groups().create(cfg.mesh, members, schemes[s]);
        runs[s].push_back(measured_run(*c.tree, cfg, measure_barrier(machine, c, not_before)));
        machine.groups().free(c);
      }
    // The load is measured while the barriers ran; then it drains.
    if (load) load->end_window(machine.now());
  });
  machine.run();
  if (load) check_drained(*load);

  const MeshShape& mesh = cfg.mesh;
  const double wall = seconds_since(wall0);
  const double speedup = schemes.size() == 2 ? mean_latency(runs[1]) / mean_latency(runs[0]) : 0;
  if (o.json) {
    json j;
    if (schemes.size() == 1) {
      j = scheme_json(schemes[0], runs[0]);
    } else {
      j["schemes"] = json::array();
      for (std::size_t s = 0; s < schemes.size(); ++s)
        j["schemes"].push_back(scheme_json(schemes[s], runs[s]));
      if (schemes.size() == 2)
        j["speedup"] = speedup;
    }
    j["seed"] = o.seed;
    j["repeat"] = o.repeat;
    if (load) j["load"] = load_json(o.load, *load);
    print_json(std::move(j), cfg, cosim, wall);
    return 0;
  }
  fmt::print("barrier on a {}x{} mesh  ts={} tp={} trn={} trm={}  registers={}\n", mesh.width,
             mesh.height, cfg.timing.ts, cfg.timing.tp, cfg.timing.trn, cfg.timing.trm,
             cfg.router.barrier_registers);
  fmt::print("{:>6} {:>4} {:>8} {:>9} {:>7} {:>14} {:>15} {:>7} {:>10}\n", "scheme", "run",
             "members", "root", "height", "latency [cyc]", "analytic [cyc]", "hops", "sw-fallbk");
  for (std::size_t s = 0; s < schemes.size(); ++s)
    for (std::size_t i = 0; i < runs[s].size(); ++i) {
      const BarrierRun& r = runs[s][i];
      fmt::print("{:>6} {:>4} {:>8} {:>9} {:>7} {:>14} {:>15} {:>7} {:>10}\n",
                 scheme_name(schemes[s]), i + 1, r.members, coord_text(r.root), r.height,
                 r.measured.latency_cycles, r.analytic_cycles, r.measured.hops,
                 r.measured.software_fallbacks);
    }
  if (schemes.size() == 2)
    fmt::print("{} over {}: {:.2f}x faster (mean simulated latency)\n", scheme_name(schemes[0]),
               scheme_name(schemes[1]), speedup);
  if (load) {
    const TrafficResult r = load->result();
    fmt::print("under {} load at {} flits/node/cycle ({}-flit packets): its latency avg {:.2f}, p99 {} cycles, "
               "accepted {:.4f}\n", o.load.pattern, o.load.rate, o.load.flits, r.latency_avg, r.latency_p99,
               r.accepted);
  }
  print_cosim(cosim);
  fmt::print("wall time {:.3f} s\n", wall);
  return 0;
}

int run_tree(const TreeOptions& o) {
  const MeshShape& mesh = o.mesh;
  const BarrierScheme scheme = o.scheme;
  if (o.json && o.dot) throw ConfigError("choose one of --json and --dot");
  const BarrierTree t = build_tree(scheme, mesh, parse_members(o.members, mesh, o.seed));
  // Children are named by the port the distribution leaves the parent through.
  const auto child_port = [&](NodeId parent, const ChildLink& c) {
    return port_name(next_port(mesh.coord(parent), mesh.coord(c.node), c.route));
  };
  if (o.json) {
    json nodes = json::array();
    for (const TreeNode& n : t.nodes()) {
      json children = json::object();
      for (const ChildLink& c : n.children) {
        const std::string key(child_port(n.node, c));
        if (scheme == BarrierScheme::BTM) children[key] = mesh.coord(c.node);
        else children[key].push_back(mesh.coord(c.node));
      }
      nodes.push_back(json{{"node", mesh.coord(n.node)},
                           {"parent", n.parent ? json(mesh.coord(*n.parent)) : json(nullptr)},
                           {"r", std::string(route_name(n.r))},  // the root's is unused
                           {"children", children}});
    }
    json j{{"scheme", scheme_name(scheme)},
           {"mesh", mesh},
           {"root", mesh.coord(t.root())},
           {"height", t.height()},
           {"nodes", nodes}};
    std::cout << j.dump(2) << "\n";
    return 0;
  }
  if (o.dot) {
    fmt::print("digraph {} {{\n  node [shape=box];\n", scheme_name(scheme));
    for (const TreeNode& n : t.nodes()) {
      const Coord c = mesh.coord(n.node);
      fmt::print("  n{} [label=\"({},{})\" pos=\"{},{}!\"];\n", n.node, c.x, c.y, c.x, c.y);
      for (const ChildLink& ch : n.children)
        fmt::print("  n{} -> n{} [label=\"{}\"];\n", n.node, ch.node, child_port(n.node, ch));
    }
    fmt::print("}}\n");
    return 0;
  }
  fmt::print("{} tree on a {}x{} mesh: {} members, root {}, height {}\n", scheme_name(scheme),
             mesh.width, mesh.height, t.nodes().size(), coord_text(mesh.coord(t.root())), t.height());
  fmt::print("{:>9} {:>9} {:>3} {:>5} {:>6}  {}\n", "member", "parent P", "R", "depth", "hops",
             "children (port: member)");
  for (const TreeNode& n : t.nodes()) {
    std::string kids;
    for (const ChildLink& c : n.children)
      kids += fmt::format("{}:{} ", child_port(n.node, c), coord_text(mesh.coord(c.node)));
    fmt::print("{:>9} {:>9} {:>3} {:>5} {:>6}  {}\n", coord_text(mesh.coord(n.node)),
               n.parent ? coord_text(mesh.coord(*n.parent)) : "-", n.parent ? route_name(n.r) : "-",
               n.depth, n.path_hops, kids);
  }
  return 0;
}

int run_traffic(const TrafficOptions& o) {
  const auto wall0 = std::chrono::steady_clock::now();
  const NetworkConfig& cfg = o.net.config;
  cfg.validate();
  const TrafficParams& p = o.params;
  p.validate(cfg.mesh);

  Machine& machine = *new Machine(cfg);  // never destroyed, see above
  const Cosim cosim = attach_rtl(machine, o.net, p.seed);
  std::optional<VcdProbe> vcd;
  if (!o.vcd.empty()) vcd.emplace(machine.mesh().core(), o.vcd);
  // From cycle 1: the NI hands a packet over a cycle before it enters (NetworkCore::run_cycle).
  TrafficGenerator gen(p, cfg.mesh, 1);
  machine.mesh().attach_traffic(&gen);
  const auto sim0 = std::chrono::steady_clock::now();
  machine.run();
  const double sim_wall = seconds_since(sim0);
  check_drained(gen);
  const TrafficResult r = gen.result();
  // The network is done when the last flit arrives (RTL routers may still be returning
  // credits for a few cycles after that).
  const std::uint64_t cycles = r.last_delivery;
  const double router_cycles = static_cast<double>(cycles) * cfg.mesh.nodes();
  const double wall = seconds_since(wall0);
  if (o.json) {
    json j = r;
    j.update(json(p));
    j["router_cycles_per_second"] = router_cycles / sim_wall;
    print_json(std::move(j), cfg, cosim, wall);
    return 0;
  }
  fmt::print("traffic  {} on a {}x{} mesh, rate {} flits/node/cycle, {}-flit packets\n",
             pattern_name(p.pattern), cfg.mesh.width, cfg.mesh.height, p.rate, p.flits);
  fmt::print("  offered   {:.4f}   accepted {:.4f} flits/node/cycle\n", r.offered, r.accepted);
  fmt::print("  latency   avg {:.2f}   p99 {}   max {} cycles ({} packets measured)\n",
             r.latency_avg, r.latency_p99, r.latency_max, r.packets_measured);
  fmt::print("  hops      avg {:.3f}\n", r.hops_avg);
  fmt::print("  simulated {} cycles, {:.3g} router-cycles/s, wall {:.3f} s\n", cycles,
             router_cycles / sim_wall, wall);
  print_cosim(cosim);
  return 0;
}

}  // namespace meshsync
