// The `meshsync` command line: every subcommand with its options, bound to the options
// structs beside each command (barrier_command.hpp, ...). The program parses argv with it; a sweep parses each of its
// points with a fresh one (point_parser), so a bad point is refused before anything runs.
#pragma once

#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "adaptive_tree_command.hpp"
#include "allreduce_command.hpp"
#include "barrier_command.hpp"
#include "bcast_command.hpp"
#include "multicast_command.hpp"
#include "multicast_plan_command.hpp"
#include "soak_command.hpp"
#include "sweep_command.hpp"
#include "traffic_command.hpp"
#include "tree_command.hpp"

namespace meshsync {

class CommandLine {
 public:
  CommandLine();
  CommandLine(const CommandLine&) = delete;
  CommandLine& operator=(const CommandLine&) = delete;

  // The arguments after the program name. Throws CLI::ParseError (help requests too).
  void parse(const std::vector<std::string>& args);
  // Runs the parsed subcommand and returns its exit code; ConfigError and
  // SimulationError propagate. (cli_run.cpp: the parser links without the runs.)
  int run();
  CLI::App& app() { return app_; }
  // The sweep's questions to the command line (sweep_command.hpp), each answered by a
  // fresh one.
  static PointParser point_parser();

 private:
  CLI::App app_;
  bool print_config_ = false;  // --print-config: the subcommand's options as YAML, not a run
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
  SoakOptions soak_;
  CLI::App* soak_cmd_ = nullptr;
  AllreduceOptions allreduce_;
  CLI::App* allreduce_cmd_ = nullptr;
};

}  // namespace meshsync
