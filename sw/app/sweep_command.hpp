// `meshsync sweep`: the points of SPEC.yaml run as child processes (docs/sweep.md).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace meshsync {

struct SweepOptions {
  std::string spec;
  std::int64_t workers = 0;  // 0: one per core
  std::string output;        // empty: the spec's `output`
  std::int64_t max_points = 100000;  // a larger product is refused before it is enumerated
  double point_timeout = 0;          // seconds a point may run; 0: no limit
  bool keep_failed = false;          // a point that fails (exit 2 or 3) is a row with `failure`, not the sweep's end
};
// What a sweep asks of the command line, which sits above it (cli_run.cpp passes it, so
// that the sweep includes no parser): whether `command` names a subcommand, and why a
// point's arguments are refused ("": they parse), so that a bad point is refused before
// anything runs.
struct PointParser {
  std::function<bool(const std::string& command)> is_command;
  std::function<std::string(const std::vector<std::string>& args)> refusal;
};
int run_sweep(const SweepOptions& o, const PointParser& parser);

}  // namespace meshsync
