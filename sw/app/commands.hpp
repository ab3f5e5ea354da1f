// The `meshsync` subcommands. Each takes its parsed options and returns an exit code;
// bad input is thrown as ConfigError (one line), failed simulations as SimulationError.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "../../model/core/config.hpp"
#include "../../model/core/traffic.hpp"
#include "../collective/barrier_tree.hpp"
#include "../collective/path_multicast.hpp"
#include "../runtime/machine.hpp"
#include "../runtime/soak.hpp"

namespace meshsync {

// Network options shared by the subcommands. The CLI writes straight into `config`, so
// the defaults are config.hpp's; config.validate() checks how the values combine.
struct NetworkOptions {
  NetworkConfig config;
  // RTL co-simulation (docs/rtl.md): positions "all" | "x,y;x,y;..." | "random:N".
  std::string rtl, lockstep;
  std::string trace;  // FST of the Verilated routers
};

// Ordinary unicast load running while the barriers are measured (`--load`).
struct BackgroundLoad {
  std::string pattern;  // empty: none
  double rate = 0.1;
  std::int64_t flits = 4;
  std::int64_t warmup = 1000;  // cycles of load before the first barrier
};

struct BarrierOptions {
  NetworkOptions net;
  std::string members = "all";
  std::vector<BarrierScheme> schemes{BarrierScheme::BTM};  // two: compare them
  std::int64_t repeat = 1;
  std::uint64_t seed = 1;
  bool json = false;
  std::string vcd;
  BackgroundLoad load;
};
int run_barrier(const BarrierOptions& o);

struct TreeOptions {
  MeshShape mesh = NetworkConfig{}.mesh;
  std::string members = "all";
  BarrierScheme scheme = BarrierScheme::BTM;
  std::uint64_t seed = 1;
  bool json = false;
  bool dot = false;
};
int run_tree(const TreeOptions& o);

struct TrafficOptions {
  NetworkOptions net;
  TrafficParams params;  // written by the CLI, like NetworkOptions::config
  bool json = false;
  std::string vcd;
};
int run_traffic(const TrafficOptions& o);

// The worms of path-based multicasts, without simulating them (like `tree` for barriers).
struct MulticastPlanOptions {
  MeshShape mesh = NetworkConfig{}.mesh;
  std::string source = "0,0";
  std::string dests = "random:10";
  std::vector<MulticastAlgorithm> algorithms{std::begin(kAllMulticastAlgorithms),
                                             std::end(kAllMulticastAlgorithms)};
  double threshold = 0.5;
  MulticastTiming timing;  // prep: each algorithm's own (paper_prep_cycles)
  std::uint64_t seed = 1;
  bool json = false;
};
int run_multicast_plan(const MulticastPlanOptions& o);

// Path-based multicasts simulated (docs/multicast.md): single multicasts in a quiet
// network (`trials`), or the paper's load (`rate` > 0) measured by batch means.
struct MulticastOptions {
  MulticastOptions() {
    // The QG paper's network: start-up 33 cycles, the shortest hop this router has
    // (tp = trn = 1: 2 cycles), all-port NIs (one-port multicast can deadlock on the
    // consumption channel).
    net.config.timing.ts = 33;
    net.config.timing.tp = 1;
    net.config.timing.trn = 1;
    net.config.router.ni_ports = 4;
  }
  NetworkOptions net;
  std::string source;  // empty: (0,0) for single multicasts; under load every node is a source
  std::string dests = "random:10";
  std::vector<MulticastAlgorithm> algorithms{std::begin(kAllMulticastAlgorithms),
                                             std::end(kAllMulticastAlgorithms)};
  std::int64_t flits = 32;  // data flits
  double threshold = 0.5;
  double rate = 0;  // multicasts/node/cycle; 0: single multicasts
  std::int64_t trials = 1;
  std::int64_t warmup = 1000, batches = 10, batch_size = 1000, backlog = 4;
  std::uint64_t seed = 1;
  bool json = false;
  BackgroundLoad load;
};
int run_multicast(const MulticastOptions& o);

// A parameter sweep (docs/sweep.md): the points of SPEC.yaml run as child processes.
struct SweepOptions {
  std::string spec;
  std::int64_t workers = 0;  // 0: one per core
  std::string output;        // empty: the spec's `output`
};
int run_sweep(const SweepOptions& o);

// broadcast (issue 9, parts 1-2) -------------------------------------------------------
enum class BroadcastAlgorithm { Binomial, Adaptive, TwoStage };
// Inline, so that the command line links without the broadcast runs (tb/fuzz).
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

// `meshsync bcast`: broadcasts over point-to-point messages (docs/broadcast.md).
struct BcastOptions {
  NetworkOptions net;
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
  std::uint64_t seed = 1;
  bool json = false;
  bool per_rank = false;
};
int run_bcast(const BcastOptions& o);

// `meshsync adaptive-tree`: Figueira & Mendes' experiments on random distance matrices
// (Figs. 7-9), no simulation.
struct AdaptiveTreeOptions {
  std::string experiment = "swapping";  // swapping (Figs. 7, 8) | churn (Fig. 9)
  std::int64_t nodes = 1024;
  std::int64_t max_distance = 10;
  std::vector<std::int64_t> cost_factors{5, 10, 20, 30, 40};
  std::int64_t topologies = 1000;  // swapping
  std::int64_t trees = 100;        // churn
  std::int64_t operations = 1000;  // churn
  std::uint64_t seed = 1;
  bool json = false;
};
int run_adaptive_tree(const AdaptiveTreeOptions& o);
// end broadcast ---------------------------------------------------------------------

// reliability (issue 11) ----------------------------------------------------------------
// `meshsync soak`: unicast load, concurrent barriers and multicasts in one checked run,
// with optional faults (docs/reliability.md).
struct SoakOptions {
  SoakOptions() {
    // Multicasts need the all-port NI (as `meshsync multicast`).
    net.config.router.ni_ports = 4;
  }
  NetworkOptions net;
  SoakParams params;  // written by the CLI
  std::vector<std::string> faults;  // parsed once the mesh is known
  bool json = false;
};
int run_soak(const SoakOptions& o);
// end reliability ------------------------------------------------------------------

// One measured barrier and the tree it ran on: a row of `meshsync barrier`.
struct BarrierRun {
  std::size_t members = 0;
  Coord root;
  int height = 0;
  std::uint64_t analytic_cycles = 0;
  BarrierMeasurement measured;
};

}  // namespace meshsync
