#include "traffic.hpp"

#include <algorithm>
#include <cmath>

namespace meshsync {

TrafficPattern parse_pattern(const std::string& s) {
  if (s == "uniform") return TrafficPattern::Uniform;
  if (s == "transpose") return TrafficPattern::Transpose;
  if (s == "hotspot") return TrafficPattern::Hotspot;
  throw ConfigError("unknown traffic pattern '" + s + "' (expected uniform, transpose or hotspot)");
}

void TrafficParams::validate(const MeshShape& mesh) const {
  if (!(rate > 0.0) || rate > 1.0 || std::isnan(rate))
    throw ConfigError("rate must be in (0, 1] flits/node/cycle, got " + std::to_string(rate));
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
    : p_(p),
      mesh_(mesh),
      window_begin_(start_cycle + p.warmup),
      window_end_(start_cycle + p.warmup + p.cycles),
      rng_(p.seed),
      gap_(std::min(1.0, p.rate / p.flits)) {
  p_.validate(mesh);
  // Bernoulli injection per cycle is a geometric gap between packets; drawing the gap
  // keeps idle nodes free of per-cycle work.
  for (int n = 0; n < mesh_.nodes(); ++n)
    next_.push({start_cycle + gap(), static_cast<NodeId>(n)});
}

std::uint64_t TrafficGenerator::gap() { return gap_(rng_); }

std::uint64_t TrafficGenerator::next_cycle() const {
  if (next_.empty() || next_.top().cycle >= window_end_) return kNever;
  return next_.top().cycle;
}

NodeId TrafficGenerator::pick_dest(NodeId src) {
  const int n = mesh_.nodes();
  const auto uniform_other = [&] {
    std::uniform_int_distribution<int> d(0, n - 2);
    const int k = d(rng_);
    return static_cast<NodeId>(k >= static_cast<int>(src) ? k + 1 : k);
  };
  switch (p_.pattern) {
    case TrafficPattern::Transpose: {
      const Coord c = mesh_.coord(src);
      return mesh_.id({c.y, c.x});
    }
    case TrafficPattern::Hotspot: {
      const NodeId hot = mesh_.id({mesh_.width / 2, mesh_.height / 2});
      std::bernoulli_distribution to_hot(p_.hotspot_fraction);
      if (src != hot && to_hot(rng_)) return hot;
      return uniform_other();
    }
    case TrafficPattern::Uniform:
    default:
      return uniform_other();
  }
}

void TrafficGenerator::emit(std::uint64_t cycle, NetworkCore& net) {
  while (!next_.empty() && next_.top().cycle <= cycle) {
    const NextPacket np = next_.top();
    next_.pop();
    next_.push({np.cycle + 1 + gap(), np.node});
    if (np.cycle >= window_end_) continue;
    const NodeId dest = pick_dest(np.node);
    if (dest == np.node) continue;  // transpose: the diagonal sends nothing
    const std::uint64_t id = net.new_packet_id();
    if (first_packet_ == 0) first_packet_ = id;
    const bool measured = np.cycle >= window_begin_;
    if (measured_.size() <= id - first_packet_) measured_.resize(id - first_packet_ + 1);
    measured_[id - first_packet_] = measured;
    if (measured) {
      ++measured_created_;
      measured_hops_ += static_cast<std::uint64_t>(hops(mesh_.coord(np.node), mesh_.coord(dest)));
      created_in_window_flits_ += p_.flits;
    }
    board_.expect(id, np.node, dest, p_.flits, np.cycle);
    for (const Flit& f : make_worm(id, np.node, dest, p_.flits, np.cycle))
      net.inject(np.node, f, np.cycle);
  }
}

void TrafficGenerator::on_eject(NodeId node, const Flit& f, std::uint64_t cycle) {
  if (cycle >= window_begin_ && cycle < window_end_) ++window_flits_;
  if (!board_.deliver(node, f)) return;
  if (measured_[f.packet - first_packet_]) latencies_.push_back(cycle - f.created);
}

bool TrafficGenerator::finished() const {
  return next_cycle() == kNever && latencies_.size() == measured_created_;
}

TrafficResult TrafficGenerator::result() const {
  TrafficResult r;
  r.packets_measured = measured_created_;
  r.packets_delivered = board_.delivered_packets();
  r.flits_delivered = board_.delivered_flits();
  const double node_cycles = static_cast<double>(mesh_.nodes()) * static_cast<double>(p_.cycles);
  r.accepted = static_cast<double>(window_flits_) / node_cycles;
  r.offered = static_cast<double>(created_in_window_flits_) / node_cycles;
  if (!latencies_.empty()) {
    std::vector<std::uint64_t> l = latencies_;
    std::sort(l.begin(), l.end());
    double sum = 0;
    for (auto v : l) sum += static_cast<double>(v);
    r.latency_avg = sum / static_cast<double>(l.size());
    const std::size_t k = static_cast<std::size_t>(std::ceil(0.99 * static_cast<double>(l.size()))) - 1;
    r.latency_p99 = l[std::min(k, l.size() - 1)];
    r.latency_max = l.back();
  }
  if (measured_created_ > 0)
    r.hops_avg = static_cast<double>(measured_hops_) / static_cast<double>(measured_created_);
  return r;
}

}  // namespace meshsync
