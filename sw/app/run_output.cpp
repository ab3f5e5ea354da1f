#include "run_output.hpp"

#include <iostream>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <systemc>

#include "json_io.hpp"

namespace meshsync {

using nlohmann::json;

const char* source_commit() { return MESHSYNC_COMMIT; }

std::string version_text() {
  return fmt::format(
      "meshsync, commit {}\nSystemC {}, Verilator {}, CLI11 {}, fmt {}.{}.{}, nlohmann_json {}.{}.{}, yaml-cpp",
      MESHSYNC_COMMIT, SC_VERSION, MESHSYNC_VERILATOR_VERSION, CLI11_VERSION, FMT_VERSION / 10000,
      FMT_VERSION / 100 % 100, FMT_VERSION % 100, NLOHMANN_JSON_VERSION_MAJOR, NLOHMANN_JSON_VERSION_MINOR,
      NLOHMANN_JSON_VERSION_PATCH);
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

namespace {
std::string& json_command() {
  static std::string name;
  return name;
}
}  // namespace

void set_json_command(const std::string& subcommand) { json_command() = subcommand; }

void print_json_result(json j, double wall) {
  j["command"] = json_command();
  j["schema_version"] = kJsonSchemaVersion;
  j["commit"] = source_commit();
  j["wall_seconds"] = wall;
  std::cout << j.dump(2) << "\n";
}

void print_json_result(json j, const NetworkConfig& cfg, double wall, const std::vector<std::string_view>& leave_out) {
  json network = cfg;
  for (const std::string_view name : leave_out) {
    const Parameter& p = parameter(name);
    network.at(p.json_object()).erase(p.json_key);
  }
  j.update(network);
  print_json_result(std::move(j), wall);
}

json mean_over_runs(const json& runs) {
  json mean = json::object();
  if (runs.empty()) return mean;
  for (const auto& [key, first] : runs.front().items()) {
    if (!first.is_number() && !first.is_null()) continue;
    double sum = 0;
    bool everywhere = true, unmeasured = false;
    for (const json& run : runs) {
      const auto it = run.find(key);
      everywhere = everywhere && it != run.end() && (it->is_number() || it->is_null());
      if (!everywhere) break;
      if (it->is_null()) unmeasured = true;
      else sum += it->get<double>();
    }
    if (!everywhere) continue;
    if (unmeasured) mean[key] = nullptr;
    else mean[key] = runs.size() == 1 ? first : json(sum / static_cast<double>(runs.size()));
  }
  return mean;
}

json load_json(const BackgroundLoad& l, const TrafficResult& r) {
  json j = r;
  j.update(json{{"pattern", l.pattern}, {"rate_flits_per_node_cycle", l.rate}, {"flits", l.flits}, {"warmup_cycles", l.warmup}});
  return j;
}

}  // namespace meshsync
