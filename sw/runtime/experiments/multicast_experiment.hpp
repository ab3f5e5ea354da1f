// `meshsync multicast`: path-based multicasts (DP, MP, CP, QG) simulated on the mesh,
// alone (every destination's arrival beside the analytic zero-load sum) or under the QG
// paper's load (mean latency by batch means, saturation marked). docs/multicast.md.
// Each algorithm runs on a machine of its own.
#pragma once

#include <cstdint>
#include <iterator>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "../../collective/path_multicast.hpp"
#include "../multicast_load.hpp"
#include "experiment_run.hpp"

namespace meshsync {

struct MulticastParams {
  std::string source;  // empty: (0,0) for single multicasts; under load every node is a source
  std::string dests = "random:10";
  std::vector<MulticastAlgorithm> algorithms{std::begin(kAllMulticastAlgorithms),
                                             std::end(kAllMulticastAlgorithms)};
  std::int64_t flits = 32;  // data flits (the message's flits with AddressFlits::Within)
  double threshold = 0.5;
  MulticastModel model;  // the paper's model, switch by switch (docs/multicast.md)
  double rate = 0;  // multicasts/node/cycle; 0: single multicasts
  std::int64_t trials = 1;
  std::int64_t warmup = 1000, batches = 10, batch_size = 1000, backlog = 4;
  std::uint64_t seed = 1;
  BackgroundLoad load;
};

// One algorithm's simulation: single multicasts or the load.
struct MulticastAlgorithmRun {
  MulticastAlgorithm algorithm = MulticastAlgorithm::DP;
  std::vector<MulticastRecord> trials;             // single multicasts
  std::map<NodeId, std::uint64_t> analytic_first;  // the first trial's analytic arrivals
  std::optional<MulticastLoadResult> load;         // under a rate
  std::optional<TrafficResult> background;         // the unicast load beside them, if any
};

struct MulticastResult {
  NodeId source = 0;              // of single multicasts
  std::size_t destinations = 0;   // per multicast
  std::vector<MulticastAlgorithmRun> runs;  // in the order of the algorithms
};

// The hook sees each algorithm's machine in turn. Random destinations of single
// multicasts are drawn anew for every trial (seed, seed+1, ...); every algorithm gets
// the same sets, and under load the same multicasts (times, sources, destinations).
MulticastResult run_multicast_experiment(const ValidConfig& cfg, const MulticastParams& p,
                                         const MachineHook& hook = {});

// Over the trials of one algorithm: the mean of a record's field, and the latencies' p99.
double trials_avg(const MulticastAlgorithmRun& r, std::uint64_t (*field)(const MulticastRecord&));
std::uint64_t trials_p99(const MulticastAlgorithmRun& r);
inline std::uint64_t latency_of(const MulticastRecord& t) { return t.latency(); }
inline std::uint64_t startups_of(const MulticastRecord& t) { return static_cast<std::uint64_t>(t.startups); }
inline std::uint64_t worms_of(const MulticastRecord& t) { return t.worms; }
inline std::uint64_t hops_of(const MulticastRecord& t) { return t.hops; }
inline std::uint64_t zero_load_of(const MulticastRecord& t) { return t.zero_load; }

}  // namespace meshsync
