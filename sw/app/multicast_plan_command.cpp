// `meshsync multicast-plan`: the worms each path-based multicast sends, step by step, and
// the paper's zero-load latency of every destination (docs/multicast.md).
#include "multicast_plan_command.hpp"

#include <algorithm>
#include <chrono>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "../collective/member_spec.hpp"
#include "enum_names.hpp"
#include "json_io.hpp"
#include "run_output.hpp"

namespace meshsync {

using nlohmann::json;

namespace {

struct Planned {
  MulticastPlan plan;
  MulticastTiming timing;
  std::map<NodeId, std::uint64_t> arrivals;
  std::uint64_t last = 0;  // zero-load latency of the multicast: its last destination
};

Planned plan_one(MulticastAlgorithm a, const MulticastPlanOptions& o, NodeId src, const std::vector<NodeId>& dests) {
  Planned p;
  p.plan = plan_multicast(a, o.mesh, src, dests, o.threshold);
  p.timing = o.timing;
  p.timing.prep = paper_prep_cycles(a);
  p.arrivals = zero_load_arrivals(p.plan, p.timing);
  for (const auto& [node, cycle] : p.arrivals) p.last = std::max(p.last, cycle);
  return p;
}

std::string base_name(const Worm& w) {
  if (w.xy) return "XY";
  return w.subnetwork == Subnetwork::High ? "Hu" : "Hl";
}

std::string at(const MeshShape& m, NodeId n) { return fmt::format("({},{})", m.coord(n).x, m.coord(n).y); }

json nodes_json(const MeshShape& m, const std::vector<NodeId>& nodes) {
  json out = json::array();
  for (NodeId n : nodes) out.push_back(m.coord(n));
  return out;
}

json plan_json(const MeshShape& m, const Planned& p) {
  json steps = json::array();
  for (const MulticastStep& s : p.plan.steps) {
    json worms = json::array();
    for (const Worm& w : s.worms)
      worms.push_back(json{{"base", base_name(w)},
                           {"dests", nodes_json(m, w.dests)},
                           {"dest_hops", w.dest_hops},
                           {"path", nodes_json(m, w.path)}});
    steps.push_back(json{{"sender", m.coord(s.sender)}, {"startups", s.startups}, {"worms", worms}});
  }
  json arrivals = json::array();
  for (const auto& [node, cycle] : p.arrivals) arrivals.push_back(json{{"node", m.coord(node)}, {"latency_cycles", cycle}});
  json j{{"algorithm", algorithm_name(p.plan.algorithm)},
         {"prep_cycles", p.timing.prep},
         {"startups", p.plan.startups()},
         {"worms", p.plan.worms()},
         {"hops", p.plan.hops()},
         {"zero_load_cycles", p.last},
         {"steps", steps},
         {"arrivals", arrivals}};
  if (p.plan.algorithm == MulticastAlgorithm::QG) {
    const QgPartition& part = p.plan.groups;
    json groups = json::array();
    for (const QualifiedGroup& g : part.groups)
      groups.push_back(json{{"representative", m.coord(g.nearest)},
                            {"members", nodes_json(m, g.members)},
                            {"weight", g.weight}});
    j["groups"] = groups;
    j["divisor"] = part.divisor_dimension == 0 ? "X" : "Y";
    j["average_weight"] = part.average_weight;
  }
  return j;
}

void print_plan(const MeshShape& m, const Planned& p) {
  for (std::size_t i = 0; i < p.plan.steps.size(); ++i) {
    const MulticastStep& s = p.plan.steps[i];
    fmt::print("{:>4}  step {} at {} (start-up {}):\n", algorithm_name(p.plan.algorithm), i + 1,
               at(m, s.sender), s.startups);
    for (const Worm& w : s.worms) {
      std::string visits;
      for (std::size_t k = 0; k < w.dests.size(); ++k)
        visits += fmt::format(" {}@{}", at(m, w.dests[k]), w.dest_hops[k]);
      fmt::print("        {} worm, {} hop{}:{}\n", base_name(w), w.hops(), w.hops() == 1 ? "" : "s", visits);
    }
  }
}

}  // namespace

int run_multicast_plan(const MulticastPlanOptions& o) {
  const auto wall0 = std::chrono::steady_clock::now();
  const MeshShape& m = o.mesh;
  const NodeId src = parse_node(o.source, m, "source");
  const std::vector<NodeId> dests = parse_destinations(o.dests, m, src, o.seed);
  check_distinct(o.algorithms, algorithm_name, "algorithm");
  std::vector<Planned> plans;  // plan_multicast checks the destinations
  for (MulticastAlgorithm a : o.algorithms) plans.push_back(plan_one(a, o, src, dests));

  if (o.json) {
    json all = json::array();
    for (const Planned& p : plans) all.push_back(plan_json(m, p));
    json j{{"mesh", m},
                 {"source", m.coord(src)},
                 {"destinations", nodes_json(m, dests)},
                 {"timing", {{"startup_cycles", o.timing.startup}, {"flits", o.timing.flits}, {"hop_cycles", o.timing.hop}}},
                 {"threshold", o.threshold},
                 {"seed", o.seed},
                 {"algorithms", all}};
    print_json_result(std::move(j), seconds_since(wall0));
    return 0;
  }
  fmt::print("multicast from {} to {} destinations on a {}x{} mesh  start-up={} flits={} hop={}  T={}\n",
             at(m, src), dests.size(), m.width, m.height, o.timing.startup, o.timing.flits, o.timing.hop,
             o.threshold);
  fmt::print("{:>4} {:>5} {:>6} {:>10} {:>6} {:>16}\n", "algo", "prep", "worms", "start-ups", "hops",
             "zero-load [cyc]");
  for (const Planned& p : plans)
    fmt::print("{:>4} {:>5} {:>6} {:>10} {:>6} {:>16}\n", algorithm_name(p.plan.algorithm), p.timing.prep,
               p.plan.worms(), p.plan.startups(), p.plan.hops(), p.last);
  for (const Planned& p : plans) print_plan(m, p);
  return 0;
}

}  // namespace meshsync
