// What every subcommand's output shares: the JSON tail that says what produced a result,
// the fields of a background load, and the host time.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "../../model/core/config.hpp"
#include "../../model/core/traffic.hpp"
#include "../runtime/experiments/experiment_run.hpp"

namespace meshsync {

// The source commit the program was configured from (`git rev-parse --short HEAD`).
const char* source_commit();

// `meshsync --version`: the commit and the versions of what the program was built with.
std::string version_text();

double seconds_since(std::chrono::steady_clock::time_point t0);

// Every JSON output names its subcommand and the version of the output's schema
// (`command`, `schema_version`: docs/output-schema.json, docs/cli.md): set once, when the
// command line is parsed. Version 2: units in the names, `schemes` and `algorithms` always
// lists with their means over `runs`.
inline constexpr int kJsonSchemaVersion = 2;
void set_json_command(const std::string& subcommand);

// Every JSON output ends with what produced it, so a result can be reproduced and
// compared from its file alone: the network it ran on, the source commit and the host
// time (the seed is the caller's to add).
// `leave_out`: parameters (kParameters' names) the command never reads, left out of the
// network's JSON as they are of its options (traffic's ts).
void print_json_result(nlohmann::json j, const NetworkConfig& cfg, double wall_seconds,
                       const std::vector<std::string_view>& leave_out = {});
// The same for a result of no network (adaptive-tree).
void print_json_result(nlohmann::json j, double wall_seconds);

// A value the run measured, or null for one it could not (a mean, percentile or rate
// over no samples): never 0, which a table or a sweep's CSV would read as a measurement
// (docs/cli.md, "JSON output").
template <class T>
nlohmann::json measured_json(const std::optional<T>& v) {
  return v ? nlohmann::json(*v) : nlohmann::json(nullptr);
}
// The same in a terminal table: the value in `spec`'s format, or "-".
template <class T>
std::string measured_text(const std::optional<T>& v, std::string_view spec = "{}") {
  return v ? fmt::format(fmt::runtime(spec), *v) : std::string("-");
}

// The summary of `--repeat`: each number every run has (at the top level of its object),
// as the mean over the runs; a single run's numbers as they are. A key that some run
// could not measure (null there) is null: a mean over fewer runs than asked is none.
nlohmann::json mean_over_runs(const nlohmann::json& runs);

// A background load's result in the fields of `meshsync traffic --json`, with its options.
nlohmann::json load_json(const BackgroundLoad& l, const TrafficResult& r);

}  // namespace meshsync
