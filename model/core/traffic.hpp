// Synthetic unicast load, the way NoC simulators (BookSim, Noxim) measure a router:
// Bernoulli packet injection at every node, a destination pattern, and latency from
// packet creation (source queueing included) to tail delivery. Definitions in
// docs/traffic.md.
#pragma once

#include <cstdint>
#include <queue>
#include <string>
#include <vector>

#include "network_core.hpp"
#include "packet.hpp"
#include "random.hpp"

namespace meshsync {

enum class TrafficPattern { Uniform, Transpose, Hotspot };
inline constexpr TrafficPattern kAllPatterns[] = {TrafficPattern::Uniform, TrafficPattern::Transpose,
                                                  TrafficPattern::Hotspot};
std::string pattern_name(TrafficPattern p);          // "uniform", "transpose", "hotspot"
TrafficPattern parse_pattern(const std::string& s);  // throws ConfigError

// The smallest positive rate (per node and cycle) a run accepts: the largest run (10^8
// cycles on 1024x1024 nodes, 10^14 node-cycles) would see about 100 events at it. A
// smaller one would describe no traffic at all; it is refused rather than run silently
// empty. (Random::next_event saturates, so no rate can wrap a gap around.)
inline constexpr double kSmallestRate = 1e-12;
// Throws ConfigError when a positive `rate` (named `option` in the message) is below it.
void check_rate_expressible(double rate, const std::string& option);

struct TrafficParams {
  TrafficPattern pattern = TrafficPattern::Uniform;
  double rate = 0.1;             // offered flits per node per cycle
  std::uint16_t flits = 1;       // packet length
  std::uint64_t warmup = 1000;   // cycles before measurement
  std::uint64_t cycles = 10000;  // measured cycles
  std::uint64_t seed = 1;
  double hotspot_fraction = 0.2;  // share of packets sent to the hotspot (mesh centre)
  // Like BookSim, keep offering load after the window until every measured packet has
  // arrived. Off: creation ends with the window (a soak, where a fault may lose packets
  // for good and load that never ends would hide the stall from the deadlock watchdog).
  bool offer_until_drained = true;
  // `meshsync traffic`: stop as soon as the backlog shows saturation (as BookSim2 stops
  // an unstable run) rather than run the window to its end.
  bool stop_when_saturated = true;
  void validate(const MeshShape& mesh) const;  // throws ConfigError
};

struct TrafficResult {
  double latency_avg = 0;
  std::uint64_t latency_p99 = 0;
  std::uint64_t latency_max = 0;
  double accepted = 0;  // delivered flits per node per cycle in the window
  double offered = 0;
  double hops_avg = 0;
  std::uint64_t packets_measured = 0;
  std::uint64_t packets_delivered = 0;
  std::uint64_t flits_delivered = 0;
  std::uint64_t last_delivery = 0;  // cycle the last flit reached its NI
};

// Creates packets (a TrafficSource) and checks and measures them (a NetworkSink that the
// owner forwards ordinary flits to).
class TrafficGenerator : public TrafficSource {
 public:
  TrafficGenerator(const TrafficParams& p, const MeshShape& mesh, std::uint64_t start_cycle);

  std::uint64_t next_cycle() const override;
  void emit(std::uint64_t cycle, NetworkCore& net) override;

  bool owns(const Flit& f) const { return board_.knows(f.packet); }
  void on_eject(NodeId node, const Flit& f, std::uint64_t cycle);
  // All measured packets created and delivered.
  bool finished() const;
  const Scoreboard& scoreboard() const { return board_; }
  TrafficResult result() const;
  std::uint64_t window_end() const { return window_end_; }
  // Ends the measurement window at `cycle` (not before it began): background load that
  // runs until the foreground work is done. Creation stops once the window's packets
  // are delivered, as at the end of any window.
  void end_window(std::uint64_t cycle);

 private:
  NodeId pick_dest(NodeId src);
  std::uint64_t gap();

  TrafficParams p_;
  MeshShape mesh_;
  std::uint64_t window_begin_;
  std::uint64_t window_end_;
  Random rng_;
  double packet_chance_;  // that a node starts a packet in a cycle
  std::priority_queue<NodeEvent, std::vector<NodeEvent>, std::greater<NodeEvent>> next_;  // next packet per node
  Scoreboard board_;
  // Latency histogram (one bin per cycle): exact percentiles in memory that does not
  // grow with the run length.
  std::vector<std::uint64_t> latency_bins_;
  std::uint64_t latencies_ = 0;
  double latency_sum_ = 0;
  std::uint64_t measured_created_ = 0;
  std::uint64_t measured_hops_ = 0;
  std::uint64_t window_flits_ = 0;
  std::uint64_t last_delivery_ = 0;
  std::uint64_t created_in_window_flits_ = 0;
  std::uint64_t emitted_until_ = 0;  // the last cycle emit() created packets for
};

}  // namespace meshsync
