#include "broadcast_experiment.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "../../../model/core/random.hpp"
#include "../../collective/member_spec.hpp"
#include "../two_stage_run.hpp"
#include "param_checks.hpp"

namespace meshsync {

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

BroadcastSummary summarize(BroadcastResult r, Rank root) {
  BroadcastSummary row;
  std::vector<std::uint64_t> c;
  for (Rank k = 0; k < r.ranks.size(); ++k)
    if (k != root) c.push_back(r.ranks[k].completion());
  if (!c.empty()) {
    std::sort(c.begin(), c.end());
    const std::size_t n = c.size();
    const std::uint64_t median = n % 2 ? c[n / 2] : (c[n / 2 - 1] + c[n / 2]) / 2;
    row.median = median;
    const double med = static_cast<double>(std::max<std::uint64_t>(median, 1));
    row.max_deviation = std::max(static_cast<double>(median - c.front()), static_cast<double>(c.back() - median)) / med;
    // Ranks counted from the root, as MPI's broadcasts do (relative rank (k - root) mod P):
    // "rank 1" is the root's first peer and the last rank P - 1 after it, whatever --root.
    const Rank P = r.ranks.size();
    row.rank1 = r.ranks[(root + 1) % P].completion();
    row.last_rank = r.ranks[(root + P - 1) % P].completion();
  }
  row.result = std::move(r);
  return row;
}

void check_options(const BroadcastParams& o, std::size_t P, std::uint32_t tree_depth) {
  check_distinct(o.algorithms, broadcast_algorithm_name, "algorithm");
  const bool two_stage =
      std::find(o.algorithms.begin(), o.algorithms.end(), BroadcastAlgorithm::TwoStage) != o.algorithms.end();
  if (o.loss != 0 && !two_stage) throw ConfigError("--loss is the two-stage broadcast's multicast loss: add --algo twostage");
  if (o.multicast_latency && !two_stage)
    throw ConfigError("--multicast-latency is the two-stage broadcast's multicast: add --algo twostage");
  // A fragment's tree worm: a head, the fragment index, its words; fragments are cut to
  // fit the tree buffer (two_stage_fragments), which must hold one word.
  if (two_stage && tree_depth < kTwoStageMinTreeDepth)
    throw ConfigError(fmt::format("--tree-buffer-depth {}: a two-stage fragment's tree worm needs at least {} flits "
                                  "(a head, the fragment index, a word)",
                                  tree_depth, kTwoStageMinTreeDepth));
  if (o.done_at != "posted" && o.done_at != "delivered")
    throw ConfigError("--done-at must be posted or delivered, got '" + o.done_at + "'");
  if ((o.send_overhead || o.send_latency || o.send_gap || o.multicast_latency) && !o.slow_link.empty())
    throw ConfigError("--send-overhead, --send-latency and --send-gap do not run with --slow-link: the adaptive tree "
                      "measures its edges against the start-up ts");
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

// What every broadcast of the experiment shares.
struct BroadcastSetup {
  BroadcastSetup(const NetworkConfig& c, const BroadcastParams& p, std::vector<NodeId> ranks)
      : cfg(c), params(p), nodes(std::move(ranks)) {}
  const NetworkConfig& cfg;
  const BroadcastParams& params;
  std::vector<NodeId> nodes;  // rank -> node
  std::optional<SlowLink> slow;
  BroadcastMessage msg;
  Rank root = 0;
  adaptive::Swapping swapping = adaptive::Swapping::Position;
  std::vector<std::uint8_t> data;  // the message's bytes
  TwoStageOptions two_stage;
  // Entry skews per repetition: every algorithm meets the same ones.
  std::vector<std::uint64_t> entries(std::int64_t run) const {
    std::vector<std::uint64_t> e(nodes.size(), 0);
    Random rng(params.seed + static_cast<std::uint64_t>(run));
    if (params.skew > 0)
      for (std::uint64_t& x : e) x = rng.below(static_cast<std::uint64_t>(params.skew) + 1);
    return e;
  }
  // Worms change the measured edge costs by this much through contention alone; less is
  // not a rise worth swapping for: one hop's worth, the unit of the paper's distances.
  std::uint64_t jitter() const { return cfg.timing.tp + cfg.timing.trn; }
};

// One algorithm's broadcasts, one after another on the running machine.
std::vector<BroadcastSummary> broadcasts(Machine& machine, const BroadcastSetup& s, BroadcastAlgorithm algo) {
  const BroadcastParams& o = s.params;
  const std::vector<NodeId>& nodes = s.nodes;
  const Rank root = s.root;
  const BroadcastMessage& msg = s.msg;
  const std::optional<SlowLink>& slow = s.slow;
  TwoStageOptions two_stage = s.two_stage;
  NetworkCore& core = machine.mesh().core();
  std::vector<BroadcastSummary> out;
  if (slow) core.set_link_delay(slow->node, slow->port, 0);
  std::optional<AdaptiveBroadcast> adaptive;
  BroadcastTree tree;
  if (algo == BroadcastAlgorithm::Adaptive) adaptive.emplace(s.cfg.mesh, s.cfg.timing, nodes, root, s.swapping);
  else tree = binomial_broadcast(nodes.size(), root);
  for (std::int64_t r = 1; r <= o.repeat; ++r) {
    if (slow && r == o.slow_at) core.set_link_delay(slow->node, slow->port, slow->cycles);
    if (adaptive) tree = adaptive->tree();
    if (algo == BroadcastAlgorithm::TwoStage) {
      two_stage.call = static_cast<std::uint64_t>(r - 1);
      BroadcastSummary row = summarize(run_two_stage_broadcast(machine, nodes, root, msg, s.data, s.entries(r), two_stage,
                                                       static_cast<std::size_t>(o.threshold)),
                               root);
      // Per rank, where its data comes from: the chain predecessor (or the binomial parent).
      row.parent = tree.parent;
      if (row.result.two_stage.ran)
        for (Rank k = 0; k < nodes.size(); ++k)
          row.parent[k] = k == root ? std::nullopt : std::optional<Rank>((k + nodes.size() - 1) % nodes.size());
      out.push_back(std::move(row));
      continue;
    }
    BroadcastSummary row =
        summarize(run_broadcast(machine, nodes, tree, msg, s.data, s.entries(r), s.two_stage.send), root);
    row.slowed = slow && r >= o.slow_at;
    row.parent = tree.parent;
    if (adaptive) {
      row.tree_cost = adaptive->cost();
      if (o.learn == "edges") {
        row.adapt = adaptive->observe(row.result.edge_latency, msg.flits(0), s.jitter());
      } else {
        std::vector<AdaptiveBroadcast::LinkLatency> links;
        if (slow) links.push_back({slow->node, slow->port, core.link_delay(slow->node, slow->port)});
        row.adapt = adaptive->observe_links(links);
      }
    }
    out.push_back(std::move(row));
  }
  return out;
}

}  // namespace

SendModel send_model(const BroadcastParams& p, std::uint32_t ts) {
  SendModel m;
  if (p.send_overhead || p.send_latency || p.send_gap || p.multicast_latency)
    m.cost = SendCost{static_cast<std::uint32_t>(p.send_overhead.value_or(ts)),
                      static_cast<std::uint32_t>(p.send_latency.value_or(0)),
                      static_cast<std::uint32_t>(p.send_gap.value_or(0))};
  if (p.multicast_latency) m.multicast_latency = static_cast<std::uint32_t>(*p.multicast_latency);
  m.until_delivered = p.done_at == "delivered";
  return m;
}

BroadcastExperimentResult run_broadcast_experiment(const ValidConfig& cfg, const BroadcastParams& o,
                                                   const MachineHook& hook) {
  const MeshShape& mesh = cfg.mesh;
  BroadcastSetup setup{cfg, o, parse_members(o.comm, mesh, o.seed)};
  const std::vector<NodeId>& nodes = setup.nodes;
  if (!o.slow_link.empty()) setup.slow = parse_slow_link(o.slow_link, mesh);
  setup.msg = BroadcastMessage{static_cast<std::uint64_t>(o.bytes), static_cast<std::uint64_t>(o.mtu)};
  check_options(o, nodes.size(), cfg.router.tree_buffer_depth);
  setup.root = static_cast<Rank>(o.root);
  setup.swapping = adaptive::parse_swapping(o.swapping);
  setup.data = Random(o.seed).bytes(setup.msg.bytes);

  ExperimentRun run(cfg, hook);
  Machine& machine = run.machine();
  // Refused here, with one line, rather than by the block inside the simulation.
  if (std::find(o.algorithms.begin(), o.algorithms.end(), BroadcastAlgorithm::TwoStage) != o.algorithms.end() &&
      uses_two_stage(nodes.size(), static_cast<std::size_t>(o.threshold)) && !machine.mesh().core().carries_tree_worms())
    throw ConfigError("--algo twostage multicasts down the barrier tree, which the RTL mesh block (--rtl mesh) does "
                      "not carry: use model routers or --rtl/--lockstep with positions");
  machine.mesh().set_datagram_loss(o.loss, o.seed);
  setup.two_stage.stage0 = o.stage0 == "none" ? Stage0::None : o.stage0 == "delay" ? Stage0::Delay : Stage0::Sync;
  setup.two_stage.root_delay = static_cast<std::uint64_t>(o.root_delay);
  setup.two_stage.seed = o.seed;
  setup.two_stage.send = send_model(o, cfg.timing.ts);
  if (const std::optional<SlowLink>& slow = setup.slow) {  // refused here, with one line, rather than inside the simulation
    machine.mesh().core().set_link_delay(slow->node, slow->port, slow->cycles);
    machine.mesh().core().set_link_delay(slow->node, slow->port, 0);
  }
  BroadcastExperimentResult out;
  std::vector<std::vector<BroadcastSummary>>& rows = out.runs;
  rows.resize(o.algorithms.size());
  run.run([&] {
    for (std::size_t a = 0; a < o.algorithms.size(); ++a) rows[a] = broadcasts(machine, setup, o.algorithms[a]);
  });
  for (const auto& algo_rows : rows)
    for (const BroadcastSummary& row : algo_rows)
      if (!row.result.wrong_buffers.empty())
        throw SimulationError(fmt::format("broadcast: rank {}'s buffer differs from the root's",
                                          row.result.wrong_buffers.front()));
  out.nodes = nodes;
  out.message = setup.msg;
  return out;
}

}  // namespace meshsync
