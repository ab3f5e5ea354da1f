// meshsync-bench: simulator speed, one scenario per process so that peak memory is the
// scenario's own. scripts/bench runs the table of docs/performance.md with it.
#include <sys/resource.h>

#include <chrono>
#include <iostream>
#include <optional>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "../collective/member_spec.hpp"
#include "../runtime/machine.hpp"

using namespace meshsync;

// The program's entry: libsystemc's main() calls sc_main and exits with its result.
int sc_main(int argc, char* argv[]) {
  CLI::App app{"meshsync-bench: router-cycles simulated per wall second"};
  const MeshShape default_mesh = NetworkConfig{}.mesh;  // config.hpp's, as for meshsync
  std::string scenario = "uniform",
              mesh_text = std::to_string(default_mesh.width) + "x" + std::to_string(default_mesh.height);
  double rate = 0.1;
  std::uint64_t cycles = 20000;
  const RouterParams router_defaults;
  std::uint32_t vcs = router_defaults.unicast_vcs, buffer_depth = router_defaults.buffer_depth;
  app.add_option("--scenario", scenario, "idle | barrier | uniform")->required();
  app.add_option("--mesh", mesh_text, "WxH")->capture_default_str();
  app.add_option("--rate", rate, "uniform: flits/node/cycle (1-flit packets)")->capture_default_str();
  app.add_option("--cycles", cycles, "cycles to simulate (idle, uniform)")->capture_default_str();
  // BookSim2's speed comparison sets its VCs (scripts/bench-booksim); the program checks
  // them as meshsync does (NetworkConfig::validate).
  app.add_option("--vcs", vcs, "unicast VCs per input (meshsync --vcs)")->capture_default_str();
  app.add_option("--buffer-depth", buffer_depth, "flits per worm VC (meshsync --buffer-depth)")->capture_default_str();
  CLI11_PARSE(app, argc, argv);

  std::optional<ValidConfig> valid;
  try {
    NetworkConfig c;
    c.mesh = parse_mesh(mesh_text);
    c.router.unicast_vcs = vcs;
    c.router.buffer_depth = buffer_depth;
    valid.emplace(c);
  } catch (const ConfigError& e) {
    std::cerr << "meshsync-bench: error: " << e.what() << "\n";
    return 2;
  }
  const auto t0 = std::chrono::steady_clock::now();
  // The machine is left to the process exit, as in meshsync (SystemC teardown is slow).
  const ValidConfig& cfg = *valid;
  Machine& m = *new Machine(cfg);
  std::string detail;
  std::unique_ptr<TrafficGenerator> gen;
  if (scenario == "idle") {
    m.spawn("idle", [&] { sc_core::wait(MeshSystem::cycle_time() * static_cast<double>(cycles)); });
  } else if (scenario == "barrier") {
    // Complete BTM barriers back to back with the paper's timing, for `cycles` cycles.
    std::vector<NodeId> all(static_cast<std::size_t>(cfg.mesh.nodes()));
    for (std::size_t i = 0; i < all.size(); ++i) all[i] = static_cast<NodeId>(i);
    const Communicator c = m.groups().create(cfg.mesh, all, BarrierScheme::BTM);
    auto done = std::make_shared<std::uint64_t>(0);
    for (NodeId n : all)
      m.post(n, [&m, c, n, cycles, done] {
        join(m.node(n), c);
        while (m.now() < cycles) barrier(m.node(n), c);
        if (n == 0) *done = m.now();
      });
    detail = "complete BTM barriers back to back";
  } else if (scenario == "uniform") {
    TrafficParams p;
    p.rate = rate;
    p.flits = 1;
    p.warmup = 0;
    p.cycles = cycles;
    gen = std::make_unique<TrafficGenerator>(p, cfg.mesh, 0);
    m.mesh().attach_traffic(gen.get());
    // Exactly `cycles` cycles, no drain: past saturation (64x64 at 0.1) draining the
    // source queues would measure the backlog, not the simulator.
    m.spawn("stop", [&] {
      sc_core::wait(MeshSystem::cycle_time() * static_cast<double>(cycles));
      sc_core::sc_stop();
    });
    detail = fmt::format("uniform {} flits/node/cycle", rate);
    if (vcs != router_defaults.unicast_vcs || buffer_depth != router_defaults.buffer_depth)
      detail += fmt::format(", {} VC{} of {} flits", vcs, vcs == 1 ? "" : "s", buffer_depth);
  } else {
    std::cerr << "meshsync-bench: error: unknown scenario '" << scenario << "'\n";
    return 2;
  }
  const auto t1 = std::chrono::steady_clock::now();
  m.run();
  const auto t2 = std::chrono::steady_clock::now();
  const double sim = std::chrono::duration<double>(t2 - t1).count();
  const double total = std::chrono::duration<double>(t2 - t0).count();
  const double router_cycles = static_cast<double>(m.now()) * cfg.mesh.nodes();
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  fmt::print("| {} | {} | {} | {:.3g} | {:.1f} | {:.3f} | {:.3f} |\n", mesh_text,
             scenario == "uniform" ? detail : scenario, m.now(), router_cycles / sim,
             static_cast<double>(ru.ru_maxrss) / 1024.0, sim, total);
  return 0;
}
