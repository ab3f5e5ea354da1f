#include "network_core.hpp"

#include <algorithm>

namespace meshsync {

NetworkCore::NetworkCore(const NetworkConfig& cfg) : cfg_(cfg) {
  cfg_.validate();
  const MeshShape& m = cfg_.mesh;
  routers_.reserve(static_cast<std::size_t>(m.nodes()));
  for (int n = 0; n < m.nodes(); ++n)
    routers_.emplace_back(static_cast<NodeId>(n), m.coord(static_cast<NodeId>(n)), cfg_);
  for (auto& r : routers_)
    for (Port p : kAllPorts)
      if (m.has_neighbor(r.coord(), p)) r.connect(p, &routers_[m.id(step(r.coord(), p))]);
}

void NetworkCore::inject(NodeId node, const Flit& f, std::uint64_t cycle) {
  routers_[node].inject(f, cycle);
  // Inside run_cycle(c) (a traffic source emitting) the router may still run in cycle c.
  const std::uint64_t earliest = !started_ ? 0 : in_cycle_ ? last_cycle_ : last_cycle_ + 1;
  schedule(node, std::max(cycle, earliest));
}

void NetworkCore::schedule(NodeId n, std::uint64_t cycle) {
  RouterCore& r = routers_[n];
  // One entry per router is enough: when it runs it schedules its own next wake-up.
  if (cycle >= r.scheduled_at) return;
  r.scheduled_at = cycle;
  queue_.push({cycle, n});
}

std::uint64_t NetworkCore::next_event_cycle() const {
  std::uint64_t next = queue_.empty() ? kNever : queue_.top().cycle;
  if (traffic_) next = std::min(next, traffic_->next_cycle());
  if (probe_) next = std::min(next, probe_->next_cycle());
  return next;
}

void NetworkCore::run_cycle(std::uint64_t c) {
  if (started_ && c <= last_cycle_) c = last_cycle_ + 1;
  // After an idle gap nothing was stuck: start the progress clock afresh.
  if (!started_ || c > last_cycle_ + 1) last_progress_ = c;
  started_ = true;
  last_cycle_ = c;
  in_cycle_ = true;
  if (probe_) probe_->begin_cycle(c);
  if (traffic_ && traffic_->next_cycle() <= c) traffic_->emit(c, *this);
  bool progress = false;
  while (!queue_.empty() && queue_.top().cycle <= c) {
    const Wake w = queue_.top();
    queue_.pop();
    RouterCore& r = routers_[w.node];
    if (r.scheduled_at != w.cycle) continue;  // superseded by an earlier wake-up
    r.scheduled_at = kNever;
    progress |= r.step(c, *this);
    ++router_steps_;
    if (probe_) probe_->after_step(w.node, c);
    const std::uint64_t next = r.next_wake(c);
    if (next != kNever) schedule(w.node, next);
  }
  in_cycle_ = false;
  if (progress) {
    last_progress_ = c;
  } else if (!queue_.empty() && c - last_progress_ > cfg_.deadlock_cycles) {
    throw DeadlockError("deadlock: no flit moved for " + std::to_string(c - last_progress_) +
                        " cycles (cycle " + std::to_string(c) + ")\n" + stuck_report());
  }
}

std::uint64_t NetworkCore::run_until_idle(std::uint64_t limit) {
  for (;;) {
    const std::uint64_t next = next_event_cycle();
    if (next == kNever || next > limit) return last_cycle_;
    run_cycle(next);
  }
}

std::string NetworkCore::stuck_report(std::size_t max_lines) const {
  std::vector<std::string> lines;
  for (const auto& r : routers_) r.describe_stuck(lines, cfg_.mesh);
  std::string s;
  for (std::size_t i = 0; i < lines.size() && i < max_lines; ++i) s += "  " + lines[i] + "\n";
  if (lines.size() > max_lines)
    s += "  ... and " + std::to_string(lines.size() - max_lines) + " more\n";
  return s;
}

}  // namespace meshsync
