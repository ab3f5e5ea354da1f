// The subcommands' runs, apart from the parser (cli.cpp), so that what only parses the
// command line (tb/fuzz) links without them.
#include "cli.hpp"

#include <iostream>

#include "run_output.hpp"
#include "yaml_config.hpp"

namespace meshsync {

PointParser CommandLine::point_parser() {
  // A fresh command line per question: one that has parsed keeps its options' values.
  return {[](const std::string& command) {
            try {
              CommandLine().app().get_subcommand(command);
              return true;
            } catch (const CLI::OptionNotFound&) {
              return false;
            }
          },
          [](const std::vector<std::string>& args) {
            try {
              CommandLine().parse(args);
              return std::string();
            } catch (const CLI::ParseError& e) {
              return std::string(e.what());
            }
          }};
}

int CommandLine::run() {
  set_json_command(app_.get_subcommands().front()->get_name());
  if (print_config_) {
    const CLI::App* sub = app_.get_subcommands().front();
    std::cout << YamlConfig(&app_).to_config(sub, true, true, "");
    return 0;
  }
  if (barrier_cmd_->parsed()) return run_barrier(barrier_);
  if (tree_cmd_->parsed()) return run_tree(tree_);
  if (traffic_cmd_->parsed()) return run_traffic(traffic_);
  if (multicast_plan_cmd_->parsed()) return run_multicast_plan(multicast_plan_);
  if (multicast_cmd_->parsed()) return run_multicast(multicast_);
  if (sweep_cmd_->parsed()) return run_sweep(sweep_, point_parser());
  if (bcast_cmd_->parsed()) return run_bcast(bcast_);
  if (adaptive_tree_cmd_->parsed()) return run_adaptive_tree(adaptive_tree_);
  if (soak_cmd_->parsed()) return run_soak(soak_);
  if (allreduce_cmd_->parsed()) return run_allreduce_command(allreduce_);
  return 0;
}

}  // namespace meshsync
