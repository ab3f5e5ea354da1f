#include "run_output.hpp"

#include <iostream>

#include "json_io.hpp"

namespace meshsync {

using nlohmann::json;

const char* source_commit() { return MESHSYNC_COMMIT; }

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

void print_json_result(json j, double wall) {
  j["commit"] = source_commit();
  j["wall_seconds"] = wall;
  std::cout << j.dump(2) << "\n";
}

void print_json_result(json j, const NetworkConfig& cfg, double wall) {
  j.update(json(cfg));
  print_json_result(std::move(j), wall);
}

json load_json(const BackgroundLoad& l, const TrafficResult& r) {
  json j = r;
  j.update(json{{"pattern", l.pattern}, {"rate", l.rate}, {"flits", l.flits}, {"warmup", l.warmup}});
  return j;
}

}  // namespace meshsync
