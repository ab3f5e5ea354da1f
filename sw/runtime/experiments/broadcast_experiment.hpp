// `meshsync bcast`: broadcasts over ordinary point-to-point messages on the simulated
// mesh, along TUNED's binomial tree, Figueira & Mendes' adaptive tree, or the two-stage
// broadcast down the barrier tree; per-rank completion, the spread of the ranks around
// the median, and (with a slow link and repetitions) the adaptive tree recovering from a
// slowed link (docs/broadcast.md).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "../../collective/adaptive_broadcast.hpp"
#include "../broadcast_run.hpp"
#include "experiment_run.hpp"

namespace meshsync {

enum class BroadcastAlgorithm { Binomial, Adaptive, TwoStage };
// Inline, so that the command line's names need none of the broadcast runs (tb/fuzz).
inline std::string broadcast_algorithm_name(BroadcastAlgorithm a) {
  switch (a) {
    case BroadcastAlgorithm::Binomial: return "binomial";
    case BroadcastAlgorithm::Adaptive: return "adaptive";
    case BroadcastAlgorithm::TwoStage: return "twostage";
  }
  return "?";
}
inline constexpr BroadcastAlgorithm kAllBroadcastAlgorithms[] = {
    BroadcastAlgorithm::Binomial, BroadcastAlgorithm::Adaptive, BroadcastAlgorithm::TwoStage};

struct BroadcastParams {
  std::string comm = "all";  // the ranks: rank i = the i-th member in node-id order
  std::int64_t root = 0;     // a rank
  std::vector<BroadcastAlgorithm> algorithms{BroadcastAlgorithm::Binomial};
  std::int64_t bytes = 2;  // Hoefler et al. measure 2-byte messages
  std::int64_t mtu = 256;  // bytes per packet
  std::int64_t skew = 0;   // ranks enter within [0, skew] cycles of each other (seeded)
  double loss = 0;         // extra loss of the two-stage broadcast's multicast copies, per NI
  std::string stage0 = "sync";     // two-stage: none | delay | sync (docs/broadcast.md)
  std::int64_t root_delay = 0;     // two-stage, stage0 delay: cycles
  std::int64_t threshold = 20;     // two-stage: fewer ranks run TUNED's binomial tree
  std::int64_t repeat = 1;
  std::string slow_link;   // "x,y:PORT:CYCLES": that link gets slower ...
  std::int64_t slow_at = 2;  // ... before this broadcast (1-based)
  std::string swapping = "position";  // the adaptive tree's strategy
  std::string learn = "links";  // the adaptive tree learns costs from: edges (measured) | links (told)
  // The cost of a send (docs/broadcast.md): unset, the start-up ts of CPU time; with
  // any set, LogP's overhead o (default ts), latency L (default 0) and gap g (default 0).
  std::optional<std::int64_t> send_overhead, send_latency, send_gap;
  std::optional<std::int64_t> multicast_latency;  // the tree multicast's L (default: send_latency)
  std::string done_at = "posted";  // a rank leaves once its last send is posted | delivered
  std::uint64_t seed = 1;
};

// One broadcast of the experiment: its result and what the table and JSON show of it.
struct BroadcastSummary {
  BroadcastResult result;
  // Completions of ranks 1 and P - 1 counted from the root ((root + 1) mod P, (root - 1)
  // mod P) and the median of the non-root ranks', cycles. Empty with the root alone in
  // the communicator: no rank received anything, so there is nothing to measure.
  std::optional<std::uint64_t> rank1, last_rank, median;
  std::optional<double> max_deviation;  // max over non-root ranks of |completion - median| / median
  bool slowed = false;        // the slow link was in place
  std::vector<std::optional<Rank>> parent;  // the tree it ran on
  std::optional<adaptive::Cost> tree_cost;  // adaptive: the cost model's, cycles, before the run
  std::optional<AdaptStep> adapt;           // adaptive: what the measurements changed after it
};

struct BroadcastExperimentResult {
  std::vector<NodeId> nodes;  // rank -> node
  BroadcastMessage message;
  std::vector<std::vector<BroadcastSummary>> runs;  // per algorithm, per repetition
};

// What each send of the broadcast costs, from the parameters and the start-up ts.
SendModel send_model(const BroadcastParams& p, std::uint32_t ts);

// Bad parameters throw ConfigError; a failed simulation or a rank whose buffer differs
// from the root's, SimulationError.
BroadcastExperimentResult run_broadcast_experiment(const ValidConfig& cfg, const BroadcastParams& p,
                                                   const MachineHook& hook = {});

}  // namespace meshsync
