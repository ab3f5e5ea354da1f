// `meshsync bcast`: broadcasts over ordinary point-to-point messages on the simulated mesh,
// along TUNED's binomial tree or Figueira & Mendes' adaptive tree; per-rank completion,
// the spread of the ranks around the median, and (with --slow-link and --repeat) the
// adaptive tree recovering from a slowed link (docs/broadcast.md).
#include <algorithm>
#include <chrono>
#include <iostream>
#include <optional>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "../../model/core/random.hpp"
#include "../collective/adaptive_broadcast.hpp"
#include "../collective/member_spec.hpp"
#include "../runtime/broadcast_run.hpp"
#include "../runtime/two_stage_run.hpp"
#include "commands.hpp"
#include "cosim_attach.hpp"
#include "enum_names.hpp"
#include "json_io.hpp"

namespace meshsync {

using nlohmann::json;

namespace {

struct SlowLink {
  NodeId node = 0;
  Port port = Port::PlusX;
  std::uint32_t cycles = 0;
};

// "x,y:PORT:CYCLES", PORT one of +X -X +Y -Y.
SlowLink parse_slow_link(const std::string& text, const MeshShape& mesh) {
  const auto bad = [&](const std::string& why) {
    return ConfigError("--slow-link '" + text + "': " + why + " (expected x,y:PORT:CYCLES, PORT +X -X +Y -Y)");
  };
  const auto c1 = text.find(':'), c2 = text.rfind(':');
  if (c1 == std::string::npos || c1 == c2) throw bad("two ':' needed");
  SlowLink s;
  s.node = parse_node(text.substr(0, c1), mesh, "--slow-link node");
  const std::string port = text.substr(c1 + 1, c2 - c1 - 1);
  const auto found = std::find_if(kAllPorts.begin() + 1, kAllPorts.end(), [&](Port p) { return port_name(p) == port; });
  if (found == kAllPorts.end()) throw bad("unknown port '" + port + "'");
  s.port = *found;
  if (!mesh.has_neighbor(mesh.coord(s.node), s.port)) throw bad("no link leaves the node at " + port);
  const std::string cycles = text.substr(c2 + 1);
  if (cycles.empty() || cycles.size() > 9 || cycles.find_first_not_of("0123456789") != std::string::npos)
    throw bad("cycles must be a number below 10^9");
  s.cycles = static_cast<std::uint32_t>(std::stoul(cycles));
  return s;
}

adaptive::Swapping parse_swapping(const std::string& name) {
  for (adaptive::Swapping s : adaptive::kAllSwappings)
    if (adaptive::swapping_name(s) == name) return s;
  throw ConfigError("--swapping '" + name + "': expected family, path, leaf or position");
}

// What the table and JSON show of one broadcast.
struct BcastRow {
  BroadcastResult result;
  std::uint64_t rank1 = 0, last_rank = 0, median = 0;
  double max_deviation = 0;   // max over non-root ranks of |completion - median| / median
  bool slowed = false;        // the slow link was in place
  std::vector<std::optional<Rank>> parent;  // the tree it ran on
  std::optional<adaptive::Cost> tree_cost;  // adaptive: the cost model's, cycles, before the run
  std::optional<AdaptStep> adapt;           // adaptive: what the measurements changed after it
};

BcastRow summarize(BroadcastResult r, Rank root) {
  BcastRow row;
  std::vector<std::uint64_t> c;
  for (Rank k = 0; k < r.ranks.size(); ++k)
    if (k != root) c.push_back(r.ranks[k].completion());
  if (!c.empty()) {
    std::sort(c.begin(), c.end());
    const std::size_t n = c.size();
    row.median = n % 2 ? c[n / 2] : (c[n / 2 - 1] + c[n / 2]) / 2;
    const double med = static_cast<double>(std::max<std::uint64_t>(row.median, 1));
    row.max_deviation = std::max(static_cast<double>(row.median - c.front()), static_cast<double>(c.back() - row.median)) / med;
    row.rank1 = r.ranks[1].completion();
    row.last_rank = r.ranks.back().completion();
  }
  row.result = std::move(r);
  return row;
}

json row_json(const BcastRow& row, bool per_rank, const MeshShape& mesh) {
  const BroadcastResult& r = row.result;
  json j{{"latency_cycles", r.latency()}, {"rank1_cycles", row.rank1}, {"last_rank_cycles", row.last_rank},
         {"median_cycles", row.median}, {"max_deviation_from_median", row.max_deviation},
         {"messages", r.messages}, {"hops", r.hops}, {"slow_link", row.slowed}};
  if (row.tree_cost) j["tree_cost_cycles"] = *row.tree_cost;
  const TwoStageStats& t = r.two_stage;
  if (t.fallback) j["two_stage"] = json{{"fallback", "binomial"}};
  if (t.ran) {
    int worst = 0;
    for (int k : t.penalty_rounds) worst = std::max(worst, k);
    j["two_stage"] = json{{"fragments", t.fragments}, {"sync_rank", t.sync_rank ? json(*t.sync_rank) : json(nullptr)},
                          {"multicasts", t.multicasts}, {"reliable_sends", t.reliable_sends},
                          {"chain_received", t.chain_received},
                          {"copies_kept", t.copies_kept}, {"copies_unposted", t.copies_unposted},
                          {"copies_lost", t.copies_lost}, {"copies_dropped_in_routers", t.copies_dropped},
                          {"max_penalty_rounds", worst}};
  }
  if (row.adapt)
    j["adapt"] = json{{"raised_edges", row.adapt->raised}, {"searches", row.adapt->searches},
                      {"swaps", row.adapt->swaps}, {"steps", row.adapt->steps},
                      {"cost_after", row.adapt->cost_after}};
  if (per_rank) {
    json ranks = json::array();
    for (Rank k = 0; k < r.ranks.size(); ++k) {
      const RankTiming& t = r.ranks[k];
      ranks.push_back(json{{"node", mesh.coord(t.node)}, {"parent", row.parent[k] ? json(*row.parent[k]) : json(nullptr)},
                           {"entered", t.entered}, {"received", t.received}, {"forwarded", t.forwarded},
                           {"completion", t.completion()}});
      if (r.two_stage.ran) ranks.back()["penalty_rounds"] = r.two_stage.penalty_rounds[k];
    }
    j["ranks"] = ranks;
  }
  return j;
}

void check_options(const BcastOptions& o, const BroadcastMessage& msg, std::size_t P, std::uint32_t tree_depth) {
  check_distinct(o.algorithms, broadcast_algorithm_name, "algorithm");
  const bool two_stage =
      std::find(o.algorithms.begin(), o.algorithms.end(), BroadcastAlgorithm::TwoStage) != o.algorithms.end();
  if (o.loss != 0 && !two_stage) throw ConfigError("--loss is the two-stage broadcast's multicast loss: add --algo twostage");
  // A fragment's tree worm: a head, the fragment index, its words; it must fit a tree
  // buffer (virtual cut-through, docs/tree-multicast.md).
  const std::uint64_t fragment_flits = fragment_worm_flits(msg);
  if (two_stage && fragment_flits > tree_depth)
    throw ConfigError(fmt::format("--mtu {}: a two-stage fragment of {} bytes is a {}-flit tree worm, longer than "
                                  "--tree-buffer-depth {}",
                                  o.mtu, std::min(o.mtu, o.bytes), fragment_flits, tree_depth));
  if (two_stage && !o.slow_link.empty())
    throw ConfigError("--slow-link is for the adaptive tree: leave it out with --algo twostage");
  if (o.root < 0 || static_cast<std::size_t>(o.root) >= P)
    throw ConfigError(fmt::format("--root {}: the communicator has ranks 0..{}", o.root, P - 1));
  // A worm's length is 16 bits: at most 65534 body flits behind the head.
  if (o.mtu > 65534 * static_cast<std::int64_t>(kBytesPerFlit))
    throw ConfigError(fmt::format("--mtu {}: a packet holds at most {} bytes", o.mtu, 65534 * kBytesPerFlit));
  if (!o.slow_link.empty() && o.slow_at > o.repeat)
    throw ConfigError(fmt::format("--slow-at {} is after the last of --repeat {} broadcasts", o.slow_at, o.repeat));
}

}  // namespace

int run_bcast(const BcastOptions& o) {
  const auto wall0 = std::chrono::steady_clock::now();
  const NetworkConfig& cfg = o.net.config;
  cfg.validate();
  if ((!o.net.rtl.empty() || !o.net.lockstep.empty() || !o.net.trace.empty()) && !o.slow_link.empty())
    throw ConfigError("--slow-link needs model routers: an RTL router's pipeline fixes its links' timing");
  const MeshShape& mesh = cfg.mesh;
  const std::vector<NodeId> nodes = parse_members(o.comm, mesh, o.seed);
  std::optional<SlowLink> slow;
  if (!o.slow_link.empty()) slow = parse_slow_link(o.slow_link, mesh);
  const BroadcastMessage msg{static_cast<std::uint64_t>(o.bytes), static_cast<std::uint64_t>(o.mtu)};
  check_options(o, msg, nodes.size(), cfg.router.tree_buffer_depth);
  const auto root = static_cast<Rank>(o.root);
  const adaptive::Swapping swapping = parse_swapping(o.swapping);

  const std::vector<std::uint8_t> data = Random(o.seed).bytes(msg.bytes);
  // Entry skews per repetition: every algorithm meets the same ones.
  const auto entries = [&](std::int64_t run) {
    std::vector<std::uint64_t> e(nodes.size(), 0);
    Random rng(o.seed + static_cast<std::uint64_t>(run));
    if (o.skew > 0)
      for (std::uint64_t& x : e) x = rng.below(static_cast<std::uint64_t>(o.skew) + 1);
    return e;
  };
  // Worms change the measured edge costs by this much through contention alone; less is
  // not a rise worth swapping for: one hop's worth, the unit of the paper's distances.
  const std::uint64_t jitter = cfg.timing.tp + cfg.timing.trn;

  Machine& machine = *new Machine(cfg);  // never destroyed (commands.cpp says why)
  // RTL routers in place of the model's (--rtl, --lockstep, --trace; docs/cosim.md).
  const Cosim& cosim = *new Cosim(attach_rtl(machine, o.net, o.seed));
  // Refused here, with one line, rather than by the block inside the simulation.
  if (std::find(o.algorithms.begin(), o.algorithms.end(), BroadcastAlgorithm::TwoStage) != o.algorithms.end() &&
      uses_two_stage(nodes.size(), static_cast<std::size_t>(o.threshold)) && !machine.mesh().core().carries_tree_worms())
    throw ConfigError("--algo twostage multicasts down the barrier tree, which the RTL mesh block (--rtl mesh) does "
                      "not carry: use model routers or --rtl/--lockstep with positions");
  machine.mesh().set_datagram_loss(o.loss, o.seed);
  TwoStageOptions two_stage;
  two_stage.stage0 = o.stage0 == "none" ? Stage0::None : o.stage0 == "delay" ? Stage0::Delay : Stage0::Sync;
  two_stage.root_delay = static_cast<std::uint64_t>(o.root_delay);
  two_stage.seed = o.seed;
  if (slow) {  // refused here, with one line, rather than inside the simulation
    machine.mesh().core().set_link_delay(slow->node, slow->port, slow->cycles);
    machine.mesh().core().set_link_delay(slow->node, slow->port, 0);
  }
  std::vector<std::vector<BcastRow>> rows(o.algorithms.size());
  machine.spawn("driver", [&] {
    NetworkCore& core = machine.mesh().core();
    for (std::size_t a = 0; a < o.algorithms.size(); ++a) {
      if (slow) core.set_link_delay(slow->node, slow->port, 0);
      std::optional<AdaptiveBroadcast> adaptive;
      BroadcastTree tree;
      if (o.algorithms[a] == BroadcastAlgorithm::Adaptive) adaptive.emplace(mesh, cfg.timing, nodes, root, swapping);
      else tree = binomial_broadcast(nodes.size(), root);
      for (std::int64_t run = 1; run <= o.repeat; ++run) {
        if (slow && run == o.slow_at) core.set_link_delay(slow->node, slow->port, slow->cycles);
        if (adaptive) tree = adaptive->tree();
        if (o.algorithms[a] == BroadcastAlgorithm::TwoStage) {
          two_stage.call = static_cast<std::uint64_t>(run - 1);
          BcastRow row = summarize(run_two_stage_broadcast(machine, nodes, root, msg, data, entries(run), two_stage,
                                                           static_cast<std::size_t>(o.threshold)),
                                   root);
          // Per rank, where its data comes from: the chain predecessor (or the binomial parent).
          row.parent = tree.parent;
          if (row.result.two_stage.ran)
            for (Rank k = 0; k < nodes.size(); ++k)
              row.parent[k] = k == root ? std::nullopt : std::optional<Rank>((k + nodes.size() - 1) % nodes.size());
          rows[a].push_back(std::move(row));
          continue;
        }
        BcastRow row = summarize(run_broadcast(machine, nodes, tree, msg, data, entries(run)), root);
        row.slowed = slow && run >= o.slow_at;
        row.parent = tree.parent;
        if (adaptive) {
          row.tree_cost = adaptive->cost();
          if (o.learn == "edges") {
            row.adapt = adaptive->observe(row.result.edge_latency, msg.flits(0), jitter);
          } else {
            std::vector<AdaptiveBroadcast::LinkLatency> links;
            if (slow) links.push_back({slow->node, slow->port, core.link_delay(slow->node, slow->port)});
            row.adapt = adaptive->observe_links(links);
          }
        }
        rows[a].push_back(std::move(row));
      }
    }
  });
  machine.run();
  for (const auto& algo_rows : rows)
    for (const BcastRow& row : algo_rows)
      if (!row.result.wrong_buffers.empty())
        throw SimulationError(fmt::format("broadcast: rank {}'s buffer differs from the root's",
                                          row.result.wrong_buffers.front()));
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();

  if (o.json) {
    json algos = json::array();
    for (std::size_t a = 0; a < o.algorithms.size(); ++a) {
      json runs = json::array();
      for (const BcastRow& row : rows[a]) runs.push_back(row_json(row, o.per_rank || rows[a].size() == 1, mesh));
      algos.push_back(json{{"algo", broadcast_algorithm_name(o.algorithms[a])}, {"runs", runs}});
    }
    json j{{"ranks", nodes.size()}, {"root", o.root}, {"root_node", mesh.coord(nodes[root])},
           {"comm", o.comm}, {"bytes", o.bytes}, {"mtu", o.mtu}, {"packets", msg.packets()},
           {"bytes_per_flit", kBytesPerFlit}, {"skew", o.skew}, {"swapping", o.swapping}, {"learn", o.learn},
           {"seed", o.seed}, {"repeat", o.repeat}, {"algorithms", algos}};
    if (slow) j["slow_link"] = json{{"link", o.slow_link}, {"from_run", o.slow_at}};
    j.update(json(cfg));
    if (cosim.rtl) j["rtl"] = cosim;
    j["commit"] = MESHSYNC_COMMIT;
    j["wall_seconds"] = wall;
    std::cout << j.dump(2) << "\n";
    return 0;
  }
  fmt::print("broadcast of {} bytes ({} packet(s), mtu {}) to {} ranks on a {}x{} mesh, root rank {} at ({},{})  "
             "ts={} tp={} trn={}\n",
             o.bytes, msg.packets(), o.mtu, nodes.size(), mesh.width, mesh.height, o.root,
             mesh.coord(nodes[root]).x, mesh.coord(nodes[root]).y, cfg.timing.ts, cfg.timing.tp, cfg.timing.trn);
  fmt::print("{:>9} {:>4} {:>5} {:>14} {:>8} {:>9} {:>8} {:>8} {:>9} {:>8} {:>10} {:>6} {:>8} {:>14}\n", "algo", "run",
             "slow", "latency [cyc]", "rank 1", "last rank", "median", "max dev", "messages", "hops", "tree cost", "swaps",
             "penalty", "mc kept/drop");
  for (std::size_t a = 0; a < o.algorithms.size(); ++a)
    for (std::size_t i = 0; i < rows[a].size(); ++i) {
      const BcastRow& row = rows[a][i];
      const TwoStageStats& ts = row.result.two_stage;
      int worst = 0;
      for (int k : ts.penalty_rounds) worst = std::max(worst, k);
      const std::string algo = broadcast_algorithm_name(o.algorithms[a]) + (ts.fallback ? "*" : "");
      fmt::print("{:>9} {:>4} {:>5} {:>14} {:>8} {:>9} {:>8} {:>7.1f}% {:>9} {:>8} {:>10} {:>6} {:>8} {:>14}\n", algo,
                 i + 1, row.slowed ? "yes" : "no", row.result.latency(), row.rank1, row.last_rank, row.median,
                 100 * row.max_deviation, row.result.messages, row.result.hops,
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
  for (const auto& algo_rows : rows)
    if (!algo_rows.empty() && algo_rows.front().result.two_stage.fallback) {
      fmt::print("* fewer than {} ranks (--threshold): TUNED's binomial broadcast ran\n", o.threshold);
      break;
    }
  print_cosim(cosim);
  fmt::print("wall time {:.3f} s\n", wall);
  return 0;
}

}  // namespace meshsync
