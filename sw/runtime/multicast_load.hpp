// Measuring path-based multicasts: alone, one after another in a quiet network (the
// zero-load latency the analytic sum must equal), or under the paper's load, every node
// a Poisson generator of multicasts to fresh random destination sets, measured by batch
// means (NOTES-multicast.md section 1; docs/multicast.md "Under load").
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "multicast_service.hpp"

namespace meshsync {

struct MulticastCall {
  NodeId source = 0;
  std::vector<NodeId> dests;
};

// From a driver thread of a running Machine: each call once the previous multicast has
// finished and the network is quiet again (under background unicast load: at once).
std::vector<MulticastRecord> run_in_turn(Machine& m, MulticastService& svc, const std::vector<MulticastCall>& calls);

// The smallest value that at least 99% of `v` do not exceed (0 for none).
std::uint64_t percentile99(std::vector<std::uint64_t> v);

struct MulticastLoad {
  double rate = 0.001;            // multicasts per node per cycle
  std::size_t destinations = 10;  // exactly this many per multicast, fresh each time
  std::uint64_t warmup = 1000;    // multicasts discarded (in the order of their calls)
  std::uint64_t batches = 10;
  std::uint64_t batch_size = 1000;
  // Saturated: more multicasts unfinished than this many per node, or the measured
  // ones not finished within twice the time it takes to generate them (+ 100 start-ups).
  std::uint64_t backlog_per_node = 4;
  std::uint64_t seed = 1;
};

// What was not measured is empty, never 0: a saturated run may stop before any measured
// multicast finished, and a mean over nothing is no latency (the JSON says null).
struct MulticastLoadResult {
  bool saturated = false;
  std::string saturation;  // why, when saturated
  // After a saturation stop the network did not drain: what is stuck and where (the
  // deadlock report's lines). The simulation cannot finish; the experiment fails with it.
  std::string deadlock;
  std::uint64_t measured = 0;  // multicasts finished among the measured ones
  std::optional<double> latency_avg;     // mean of the batch means (cycles, call to last destination)
  std::optional<double> latency_stderr;  // standard error of the batch means: two or more of them
  std::optional<std::uint64_t> latency_p99;
  std::optional<std::uint64_t> latency_max;
  std::vector<double> batch_means;
  std::optional<double> startups_avg, worms_avg, hops_avg;
  std::optional<double> zero_load_avg;  // the analytic zero-load latency of the same multicasts
  std::optional<double> throughput;     // measured multicasts finished per node per cycle
  std::uint64_t cycles = 0;  // simulated when the measurement ended
};

// From a driver thread of a running Machine: generates from now on until the measured
// multicasts have finished or the network is saturated, and returns; the multicasts
// still in flight are left to the caller (Machine::stop ends the run). A network that
// deadlocked is returned in `deadlock`, not thrown: an exception leaving a SystemC
// process would reach the program as an internal error, not as a failed simulation.
MulticastLoadResult measure_multicast_load(Machine& m, MulticastService& svc, const MulticastLoad& p);

}  // namespace meshsync
