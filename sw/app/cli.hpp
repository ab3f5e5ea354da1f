// The `meshsync` command line: every subcommand with its options, bound to the options
// structs of commands.hpp. The program parses argv with it; a sweep parses each of its
// points with a fresh one, so a bad point is refused before anything runs.
#pragma once

#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "commands.hpp"

namespace meshsync {

class CommandLine {
 public:
  CommandLine();
  CommandLine(const CommandLine&) = delete;
  CommandLine& operator=(const CommandLine&) = delete;

  // The arguments after the program name. Throws CLI::ParseError (help requests too).
  void parse(const std::vector<std::string>& args);
  // Runs the parsed subcommand and returns its exit code; ConfigError and
  // SimulationError propagate.
  int run();
  CLI::App& app() { return app_; }

 private:
  CLI::App app_;
  BarrierOptions barrier_;
  TreeOptions tree_;
  TrafficOptions traffic_;
  MulticastPlanOptions multicast_plan_;
  MulticastOptions multicast_;
  SweepOptions sweep_;
  CLI::App *barrier_cmd_, *tree_cmd_, *traffic_cmd_, *multicast_plan_cmd_, *multicast_cmd_, *sweep_cmd_;
  BcastOptions bcast_;
  CLI::App* bcast_cmd_ = nullptr;
  AdaptiveTreeOptions adaptive_tree_;
  CLI::App* adaptive_tree_cmd_ = nullptr;
  SoakOptions soak_;  // reliability (issue 11)
  CLI::App* soak_cmd_ = nullptr;
};

}  // namespace meshsync
