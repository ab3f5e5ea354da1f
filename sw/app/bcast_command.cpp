// `meshsync bcast`: the table or JSON of a broadcast experiment (docs/broadcast.md).
#include "bcast_command.hpp"

#include <algorithm>
#include <chrono>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "../collective/member_spec.hpp"
#include "cosim_attach.hpp"
#include "json_io.hpp"
#include "progress_bar.hpp"
#include "run_output.hpp"

namespace meshsync {

using nlohmann::json;

namespace {

// What a send costs: the start-up ts, or LogP's overhead and latency.
json send_json(const BroadcastParams& p, std::uint32_t ts) {
  const SendModel m = send_model(p, ts);
  const SendCost cost = m.cost.value_or(SendCost{ts, 0});
  return json{{"overhead_cycles", cost.overhead},
              {"latency_cycles", cost.latency},
              {"gap_cycles", cost.gap},
              {"multicast_latency_cycles", m.multicast_latency.value_or(cost.latency)},
              {"done_at", p.done_at}};
}

// A ratio as a percentage with one decimal ("12.5%"), or "-".
std::string percent_text(const std::optional<double>& ratio) {
  return ratio ? fmt::format("{:.1f}%", 100 * *ratio) : std::string("-");
}

json row_json(const BroadcastSummary& row, bool per_rank, const MeshShape& mesh) {
  const BroadcastResult& r = row.result;
  // The root alone: no other rank to time, null rather than 0.
  json j{{"latency_cycles", r.latency()}, {"rank1_cycles", measured_json(row.rank1)},
         {"last_rank_cycles", measured_json(row.last_rank)}, {"median_cycles", measured_json(row.median)},
         {"max_deviation_from_median_ratio", measured_json(row.max_deviation)},
         {"messages", r.messages}, {"hops", r.hops}, {"slow_link", row.slowed}};
  if (row.tree_cost) j["tree_cost_cycles"] = *row.tree_cost;
  const TwoStageStats& t = r.two_stage;
  if (t.fallback) j["two_stage"] = json{{"fallback", "binomial"}};
  if (t.ran) {
    int worst = 0;
    for (int k : t.penalty_rounds) worst = std::max(worst, k);
    j["two_stage"] = json{{"fragments", t.fragments}, {"fragment_bytes", t.fragment_bytes},
                          {"sync_rank", t.sync_rank ? json(*t.sync_rank) : json(nullptr)},
                          {"multicasts", t.multicasts}, {"reliable_sends", t.reliable_sends},
                          {"chain_received", t.chain_received},
                          {"copies_kept", t.copies_kept}, {"copies_unposted", t.copies_unposted},
                          {"copies_lost", t.copies_lost}, {"copies_dropped_in_routers", t.copies_dropped},
                          {"max_penalty_rounds", worst}};
  }
  if (row.adapt)
    j["adapt"] = json{{"raised_edges", row.adapt->raised}, {"searches", row.adapt->searches},
                      {"swaps", row.adapt->swaps}, {"steps", row.adapt->steps},
                      {"cost_after_cycles", row.adapt->cost_after}};
  if (per_rank) {
    json ranks = json::array();
    for (Rank k = 0; k < r.ranks.size(); ++k) {
      const RankTiming& t = r.ranks[k];
      ranks.push_back(json{{"node", mesh.coord(t.node)}, {"parent", row.parent[k] ? json(*row.parent[k]) : json(nullptr)},
                           {"entered_cycle", t.entered}, {"received_cycle", t.received}, {"forwarded_cycle", t.forwarded},
                           {"completion_cycle", t.completion()}});
      if (r.two_stage.ran) ranks.back()["penalty_rounds"] = r.two_stage.penalty_rounds[k];
    }
    j["ranks"] = ranks;
  }
  return j;
}

void print_result_json(const BcastOptions& o, const BroadcastExperimentResult& x, const Cosim& cosim, double wall) {
  const NetworkConfig& cfg = o.net.config;
  const BroadcastParams& p = o.params;
  const MeshShape& mesh = cfg.mesh;
  const auto root = static_cast<Rank>(p.root);
  json algos = json::array();
  for (std::size_t a = 0; a < p.algorithms.size(); ++a) {
    json runs = json::array();
    for (const BroadcastSummary& row : x.runs[a]) runs.push_back(row_json(row, o.per_rank || x.runs[a].size() == 1, mesh));
    // The algorithm's means over its runs (--repeat's summary), beside the runs.
    json algo = mean_over_runs(runs);
    algo["algorithm"] = broadcast_algorithm_name(p.algorithms[a]);
    algo["runs"] = runs;
    algos.push_back(algo);
  }
  json j{{"ranks", x.nodes.size()}, {"root_rank", p.root}, {"root_node", mesh.coord(x.nodes[root])},
         {"comm", p.comm}, {"bytes", p.bytes}, {"mtu", p.mtu}, {"packets", x.message.packets()},
         {"bytes_per_flit", kBytesPerFlit}, {"skew_cycles", p.skew}, {"swapping", p.swapping}, {"learn", p.learn},
         {"seed", p.seed}, {"repeat", p.repeat}, {"send", send_json(p, cfg.timing.ts)}, {"algorithms", algos}};
  if (!p.slow_link.empty()) j["slow_link"] = json{{"link", p.slow_link}, {"from_run", p.slow_at}};
  print_json(std::move(j), cfg, cosim, wall);
}

void print_table(const BcastOptions& o, const BroadcastExperimentResult& x) {
  const NetworkConfig& cfg = o.net.config;
  const BroadcastParams& p = o.params;
  const MeshShape& mesh = cfg.mesh;
  const auto root = static_cast<Rank>(p.root);
  const SendModel send = send_model(p, cfg.timing.ts);
  const std::string logp =
      (send.cost ? fmt::format("  send o={} L={} g={}", send.cost->overhead, send.cost->latency, send.cost->gap)
                 : std::string()) +
      (send.multicast_latency ? fmt::format(" multicast L={}", *send.multicast_latency) : std::string()) +
      (send.until_delivered ? "  done at delivery" : "");
  fmt::print("broadcast of {} bytes ({} packet(s), mtu {}) to {} ranks on a {}x{} mesh, root rank {} at ({},{})  "
             "ts={} tp={} trn={}{}\n",
             p.bytes, x.message.packets(), p.mtu, x.nodes.size(), mesh.width, mesh.height, p.root,
             mesh.coord(x.nodes[root]).x, mesh.coord(x.nodes[root]).y, cfg.timing.ts, cfg.timing.tp, cfg.timing.trn,
             logp);
  fmt::print("{:>9} {:>4} {:>5} {:>14} {:>8} {:>9} {:>8} {:>8} {:>9} {:>8} {:>10} {:>6} {:>8} {:>14}\n", "algo", "run",
             "slow", "latency [cyc]", "rank 1", "last rank", "median", "max dev", "messages", "hops", "tree cost", "swaps",
             "penalty", "mc kept/drop");
  for (std::size_t a = 0; a < p.algorithms.size(); ++a) {
    for (std::size_t i = 0; i < x.runs[a].size(); ++i) {
      const BroadcastSummary& row = x.runs[a][i];
      const TwoStageStats& ts = row.result.two_stage;
      int worst = 0;
      for (int k : ts.penalty_rounds) worst = std::max(worst, k);
      const std::string algo = broadcast_algorithm_name(p.algorithms[a]) + (ts.fallback ? "*" : "");
      fmt::print("{:>9} {:>4} {:>5} {:>14} {:>8} {:>9} {:>8} {:>8} {:>9} {:>8} {:>10} {:>6} {:>8} {:>14}\n", algo,
                 i + 1, row.slowed ? "yes" : "no", row.result.latency(), measured_text(row.rank1),
                 measured_text(row.last_rank), measured_text(row.median), percent_text(row.max_deviation),
                 row.result.messages, row.result.hops,
                 row.tree_cost ? fmt::format("{}", *row.tree_cost) : "-",
                 row.adapt ? fmt::format("{}", row.adapt->swaps) : "-", ts.ran ? fmt::format("{}", worst) : "-",
                 ts.ran ? fmt::format("{}/{}", ts.copies_kept,
                                      ts.copies_unposted + ts.copies_lost + ts.copies_dropped)
                        : "-");
      if (o.per_rank)
        for (Rank k = 0; k < row.result.ranks.size(); ++k) {
          const RankTiming& t = row.result.ranks[k];
          fmt::print("    rank {:>5} ({},{})  parent {:>5}  entered {:>7} received {:>8} forwarded {:>8} completion {:>8}\n",
                     k, mesh.coord(t.node).x, mesh.coord(t.node).y,
                     row.parent[k] ? fmt::format("{}", *row.parent[k]) : "-", t.entered, t.received, t.forwarded,
                     t.completion());
        }
    }
    // --repeat's summary row: the means the JSON gives for the algorithm.
    if (x.runs[a].size() > 1) {
      json runs = json::array();
      for (const BroadcastSummary& row : x.runs[a]) runs.push_back(row_json(row, false, mesh));
      const json m = mean_over_runs(runs);
      const auto at = [&](const char* key) {
        return m.at(key).is_null() ? std::nullopt : std::optional<double>(m.at(key).get<double>());
      };
      fmt::print("{:>9} {:>4} {:>5} {:>14} {:>8} {:>9} {:>8} {:>8} {:>9} {:>8}\n", broadcast_algorithm_name(p.algorithms[a]),
                 "mean", "", measured_text(at("latency_cycles"), "{:.1f}"), measured_text(at("rank1_cycles"), "{:.1f}"),
                 measured_text(at("last_rank_cycles"), "{:.1f}"), measured_text(at("median_cycles"), "{:.1f}"),
                 percent_text(at("max_deviation_from_median_ratio")), measured_text(at("messages"), "{:.1f}"),
                 measured_text(at("hops"), "{:.1f}"));
    }
  }
  for (const auto& algo_rows : x.runs)
    if (!algo_rows.empty() && algo_rows.front().result.two_stage.fallback) {
      fmt::print("* fewer than {} ranks (--threshold): TUNED's binomial broadcast ran\n", p.threshold);
      break;
    }
}

}  // namespace

int run_bcast(const BcastOptions& o) {
  const auto wall0 = std::chrono::steady_clock::now();
  const ValidConfig cfg(o.net.config);  // the one validation (ValidConfig)
  const BroadcastParams& p = o.params;
  if (o.net.wants_rtl() && !p.slow_link.empty())
    throw ConfigError("--slow-link needs model routers: an RTL router's pipeline fixes its links' timing");
  // RTL routers in place of the model's (--rtl, --lockstep, --trace; docs/cosim.md), kept
  // like the machine until the process exits.
  const Cosim* cosim_kept = nullptr;
  // Every rank keeps the message, and it crosses the network as packets the scoreboard
  // also keeps: about four copies a rank, beside the network (the memory check).
  const std::uint64_t ranks = member_count(p.comm, cfg.mesh);
  const MemoryUse use{routers_for_collective(cfg.mesh, ranks), 4 * static_cast<std::uint64_t>(p.bytes) * ranks};
  TraceSession trace(o.net);
  // A broadcast's cycles are known only once it ran: the bar counts them.
  ProgressBar bar("bcast", "cycles", progress_wanted(o.net.progress, o.json));
  const BroadcastExperimentResult x = run_broadcast_experiment(cfg, p, [&](Machine& m) {
    cosim_kept = new Cosim(attach_network(m, o.net, p.seed, trace, use));
    follow_cycles(m, bar);
  });
  bar.finish();
  return report(o.json, *cosim_kept, seconds_since(wall0), [&](double wall) { print_result_json(o, x, *cosim_kept, wall); },
                [&] { print_table(o, x); });
}

}  // namespace meshsync
