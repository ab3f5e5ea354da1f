// meshsync: barrier, tree and traffic experiments on the cycle-accurate mesh.
#include <iostream>
#include <memory>

#include <CLI/CLI.hpp>

#include "../../model/core/network_core.hpp"
#include "../runtime/machine.hpp"
#include "commands.hpp"
#include "yaml_config.hpp"

using namespace meshsync;

namespace {

void add_network_options(CLI::App* app, NetworkOptions& n) {
  app->add_option("--mesh", n.mesh, "mesh size WxH")->capture_default_str();
  app->add_option("--ts", n.ts, "start-up at the NI, cycles")->capture_default_str();
  app->add_option("--tp", n.tp, "link traversal, cycles")->capture_default_str();
  app->add_option("--trn", n.trn, "router delay when only forwarding, cycles")->capture_default_str();
  app->add_option("--trm", n.trm, "router delay at a member for a sync message, cycles")
      ->capture_default_str();
  app->add_option("--buffer-depth", n.buffer_depth, "worm VC input buffer, flits")
      ->capture_default_str();
  app->add_option("--sync-buffer-depth", n.sync_buffer_depth, "each sync VC input buffer, flits")
      ->capture_default_str();
  app->add_option("--registers", n.registers, "barrier registers per router")->capture_default_str();
  app->add_option("--max-children", n.max_children, "children one barrier register holds")
      ->capture_default_str();
  app->add_option("--deadlock-cycles", n.deadlock_cycles,
                  "report a deadlock after this many cycles without progress")
      ->capture_default_str();
  app->add_option("--rtl", n.rtl, "Verilated RTL routers at: all | x,y;x,y;... | random:N");
  app->add_option("--lockstep", n.lockstep,
                  "RTL routers checked every cycle against the model core at: all | x,y;... | random:N");
  app->add_option("--trace", n.trace, "FST waveform of the RTL routers' signals (FILE.fst)");
}

const CLI::Validator kNotNegative(
    [](std::string& v) {
      return v.find('-') == std::string::npos ? std::string{} : "must not be negative, got " + v;
    },
    "N>=0");

int fail(const std::string& what, int code) {
  std::cerr << "meshsync: " << what << "\n";
  return code;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"meshsync: cycle-accurate 2D-mesh routers with barrier registers (BTM, CS)"};
  app.require_subcommand(1);
  app.fallthrough();
  app.set_config("--config", "", "read options from a YAML file (keys are option names)");
  app.config_formatter(std::make_shared<YamlConfig>(&app));
  app.allow_config_extras(CLI::config_extras_mode::error);
  app.footer("Every subcommand also takes --config FILE.yaml.");

  BarrierOptions bo;
  auto* barrier = app.add_subcommand("barrier", "simulate a barrier and compare with the analytic latency");
  add_network_options(barrier, bo.net);
  barrier->add_option("--members", bo.members, "all | random:N | x,y;x,y;...")->capture_default_str();
  barrier->add_option("--scheme", bo.scheme, "btm | cs | btm,cs (compare)")->capture_default_str();
  barrier->add_option("--repeat", bo.repeat, "barriers to measure (random members drawn anew each)")
      ->capture_default_str();
  barrier->add_option("--seed", bo.seed, "seed for random members")
      ->capture_default_str()
      ->check(kNotNegative);
  barrier->add_flag("--json", bo.json, "print JSON");
  barrier->add_option("--vcd", bo.vcd, "write a VCD waveform of every router");

  TreeOptions to;
  auto* tree = app.add_subcommand("tree", "print the barrier tree and every member's register");
  tree->add_option("--mesh", to.mesh, "mesh size WxH")->capture_default_str();
  tree->add_option("--members", to.members, "all | random:N | x,y;x,y;...")->capture_default_str();
  tree->add_option("--scheme", to.scheme, "btm | cs")->capture_default_str();
  tree->add_option("--seed", to.seed, "seed for random members")
      ->capture_default_str()
      ->check(kNotNegative);
  tree->add_flag("--json", to.json, "print JSON");
  tree->add_flag("--dot", to.dot, "print Graphviz DOT");

  TrafficOptions fo;
  auto* traffic = app.add_subcommand("traffic", "ordinary unicast load, measured like a NoC simulator");
  add_network_options(traffic, fo.net);
  traffic->add_option("--pattern", fo.pattern, "uniform | transpose | hotspot")->capture_default_str();
  traffic->add_option("--rate", fo.rate, "offered load, flits/node/cycle")->capture_default_str();
  traffic->add_option("--flits", fo.flits, "flits per packet")->capture_default_str();
  traffic->add_option("--cycles", fo.cycles, "measured cycles")->capture_default_str();
  traffic->add_option("--warmup", fo.warmup, "cycles before measuring")->capture_default_str();
  traffic->add_option("--seed", fo.seed, "seed of the traffic generator")
      ->capture_default_str()
      ->check(kNotNegative);
  traffic->add_flag("--json", fo.json, "print JSON");
  traffic->add_option("--vcd", fo.vcd, "write a VCD waveform of every router");

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::ConfigError& e) {
    std::string m = e.what();
    const std::string prefix = "INI was not able to parse ";
    if (m.rfind(prefix, 0) == 0) {
      std::string key = m.substr(prefix.size());
      const auto dot = key.find('.');
      if (dot != std::string::npos) key = key.substr(dot + 1);
      m = "unknown key '" + key + "' in the config file";
    }
    return fail("error: " + m, 2);
  } catch (const CLI::ParseError& e) {
    // Every kind of bad input exits 2, whichever layer noticed it.
    return fail(std::string("error: ") + e.what(), 2);
  }

  try {
    if (barrier->parsed()) return run_barrier(bo);
    if (tree->parsed()) return run_tree(to);
    if (traffic->parsed()) return run_traffic(fo);
  } catch (const ConfigError& e) {
    return fail(std::string("error: ") + e.what(), 2);
  } catch (const SimulationError& e) {
    return fail(std::string("simulation failed: ") + e.what(), 3);
  } catch (const std::exception& e) {
    return fail(std::string("internal error: ") + e.what(), 4);
  }
  return 0;
}
