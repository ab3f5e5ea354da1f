#include "traffic.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "real_text.hpp"

namespace meshsync {

std::string pattern_name(TrafficPattern p) {
  switch (p) {
    case TrafficPattern::Uniform: return "uniform";
    case TrafficPattern::Transpose: return "transpose";
    case TrafficPattern::Hotspot: return "hotspot";
  }
  return "?";
}

TrafficPattern parse_pattern(const std::string& s) {
  for (TrafficPattern p : kAllPatterns)
    if (pattern_name(p) == s) return p;
  throw ConfigError("unknown traffic pattern '" + s + "' (expected uniform, transpose or hotspot)");
}

void check_rate_expressible(double rate, const std::string& option) {
  if (!(rate > 0 && rate < kSmallestRate)) return;
  throw ConfigError(option + " " + real_text(rate) + " is below the smallest rate a run can express (" +
                    real_text(kSmallestRate) + ": 10^14 node-cycles, the most a run has, would see about 100 events)");
}

void TrafficParams::validate(const MeshShape& mesh) const {
  if (!(rate > 0.0) || rate > 1.0 || std::isnan(rate))
    throw ConfigError("rate must be in (0, 1] flits/node/cycle, got " + real_text(rate));
  check_rate_expressible(rate, "rate");
  if (flits < 1) throw ConfigError("flits must be at least 1");
  if (cycles < 1) throw ConfigError("cycles must be at least 1");
  if (pattern == TrafficPattern::Transpose && mesh.width != mesh.height)
    throw ConfigError("transpose traffic needs a square mesh, got " + std::to_string(mesh.width) +
                      "x" + std::to_string(mesh.height));
  if (hotspot_fraction < 0.0 || hotspot_fraction > 1.0)
    throw ConfigError("hotspot fraction must be in [0, 1]");
}

TrafficGenerator::TrafficGenerator(const TrafficParams& p, const MeshShape& mesh,
                                   std::uint64_t start_cycle)
    : p_((p.validate(mesh), p)),
      mesh_(mesh),
      window_begin_(start_cycle + p.warmup),
      window_end_(start_cycle + p.warmup + p.cycles),
      rng_(p.seed),
      packet_chance_(std::min(1.0, p.rate / p.flits)) {
  // Bernoulli injection per cycle is a geometric gap between packets; drawing the gap
  // keeps idle nodes free of per-cycle work.
  board_.set_mesh(mesh_);
  for (int n = 0; n < mesh_.nodes(); ++n)
    next_.push({Random::saturating_add(start_cycle, gap()), static_cast<NodeId>(n)});
}

std::uint64_t TrafficGenerator::gap() { return rng_.geometric(packet_chance_); }

std::uint64_t TrafficGenerator::next_cycle() const {
  // Like BookSim, keep offering load after the window until every measured packet has
  // arrived: measured packets must not drain through an emptying network.
  if (next_.empty()) return kNever;
  if (next_.top().cycle >= window_end_ && (!p_.offer_until_drained || latencies_ == measured_created_))
    return kNever;
  return next_.top().cycle;
}

NodeId TrafficGenerator::pick_dest(NodeId src) {
  const int n = mesh_.nodes();
  const auto uniform_other = [&] {
    const auto k = static_cast<NodeId>(rng_.below(static_cast<std::uint64_t>(n - 1)));
    return k >= src ? k + 1 : k;
  };
  switch (p_.pattern) {
    case TrafficPattern::Transpose: {
      const Coord c = mesh_.coord(src);
      return mesh_.id({c.y, c.x});
    }
    case TrafficPattern::Hotspot: {
      const NodeId hot = mesh_.id({mesh_.width / 2, mesh_.height / 2});
      if (src != hot && rng_.bernoulli(p_.hotspot_fraction)) return hot;
      return uniform_other();
    }
    case TrafficPattern::Uniform:
    default:
      return uniform_other();
  }
}

void TrafficGenerator::emit(std::uint64_t cycle, NetworkCore& net) {
  emitted_until_ = std::max(emitted_until_, cycle);
  while (!next_.empty() && next_.top().cycle <= cycle) {
    const NodeEvent np = next_.top();
    next_.pop();
    next_.push({rng_.next_event(np.cycle, packet_chance_), np.node});
    const NodeId dest = pick_dest(np.node);
    if (dest == np.node) continue;  // transpose: the diagonal sends nothing
    const std::uint64_t id = net.new_packet_id();
    if (np.cycle >= window_begin_ && np.cycle < window_end_) {
      ++measured_created_;
      measured_hops_ += static_cast<std::uint64_t>(hops(mesh_.coord(np.node), mesh_.coord(dest)));
      created_in_window_flits_ += p_.flits;
    }
    board_.expect(id, np.node, dest, p_.flits, np.cycle);
    for (std::uint16_t i = 0; i < p_.flits; ++i)
      net.inject(np.node, worm_flit(id, np.node, dest, p_.flits, np.cycle, i), np.cycle);
  }
}

void TrafficGenerator::on_eject(NodeId node, const Flit& f, std::uint64_t cycle) {
  if (cycle >= window_begin_ && cycle < window_end_) ++window_flits_;
  last_delivery_ = std::max(last_delivery_, cycle);
  if (!board_.deliver(node, f, cycle)) return;
  if (f.created < window_begin_ || f.created >= window_end_) return;  // not measured
  const std::uint64_t latency = cycle - f.created;
  if (latency_bins_.size() <= latency) latency_bins_.resize(latency + 1);
  ++latency_bins_[latency];
  ++latencies_;
  latency_sum_ += static_cast<double>(latency);
}

void TrafficGenerator::end_window(std::uint64_t cycle) {
  // Packets already handed over (a cycle ahead) were counted as measured: keep them in.
  window_end_ = std::min(window_end_, std::max({cycle, window_begin_, emitted_until_ + 1}));
}

bool TrafficGenerator::finished() const {
  return latencies_ == measured_created_ && (next_.empty() || next_.top().cycle >= window_end_);
}

TrafficResult TrafficGenerator::result() const {
  TrafficResult r;
  r.packets_measured = measured_created_;
  r.packets_delivered = board_.delivered_packets();
  r.flits_delivered = board_.delivered_flits();
  // The window as it ran (end_window may have shortened it, even to nothing).
  const double node_cycles =
      static_cast<double>(mesh_.nodes()) * static_cast<double>(std::max<std::uint64_t>(1, window_end_ - window_begin_));
  r.accepted = static_cast<double>(window_flits_) / node_cycles;
  r.last_delivery = last_delivery_;
  r.offered = static_cast<double>(created_in_window_flits_) / node_cycles;
  if (latencies_ > 0) {
    r.latency_avg = latency_sum_ / static_cast<double>(latencies_);
    // p99: the smallest latency that at least 99% of the measured packets do not exceed.
    const auto rank = static_cast<std::uint64_t>(std::ceil(0.99 * static_cast<double>(latencies_)));
    std::uint64_t seen = 0;
    for (std::size_t l = 0; l < latency_bins_.size(); ++l) {
      if (latency_bins_[l] == 0) continue;
      seen += latency_bins_[l];
      if (r.latency_p99 == 0 && seen >= rank) r.latency_p99 = l;
      r.latency_max = l;
    }
  }
  if (measured_created_ > 0)
    r.hops_avg = static_cast<double>(measured_hops_) / static_cast<double>(measured_created_);
  return r;
}

}  // namespace meshsync
