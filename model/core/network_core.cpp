#include "network_core.hpp"

#include <algorithm>

namespace meshsync {

NetworkCore::NetworkCore(const ValidConfig& cfg) : cfg_(cfg) {
  const MeshShape& m = cfg_.mesh;
  coords_.resize(static_cast<std::size_t>(m.nodes()));
  for (int n = 0; n < m.nodes(); ++n) coords_[static_cast<std::size_t>(n)] = m.coord(static_cast<NodeId>(n));
  routers_.resize(static_cast<std::size_t>(m.nodes()));
  const Timing& t = cfg_.timing;
  std::uint64_t horizon = 64;
  while (horizon < 4ull + t.tp + std::max(t.trn, t.trm)) horizon *= 2;
  buckets_.resize(horizon);
  horizon_mask_ = horizon - 1;
  neighbors_.resize(routers_.size());
  for (int n = 0; n < m.nodes(); ++n) {
    const Coord c = coords_[static_cast<std::size_t>(n)];
    for (Port p : kAllPorts)
      neighbors_[static_cast<std::size_t>(n)][static_cast<std::size_t>(index(p))] =
          m.has_neighbor(c, p) ? m.id(step(c, p)) : static_cast<NodeId>(n);
  }
}

void NetworkCore::allocate(NodeId n) const {
  routers_[n] = std::make_unique<RouterCore>(n, coords_[n], cfg_, coords_.data());
  ++allocated_;
}

void NetworkCore::set_external(ExternalRouters* ext) {
  external_ = ext;
  ext_.assign(routers_.size(), nullptr);
  in_due_.assign(routers_.size(), 0);
  for (std::size_t n = 0; n < routers_.size(); ++n) ext_[n] = ext->at(static_cast<NodeId>(n));
}

void NetworkCore::set_faults(FaultInjector* f) {
  if (external_) throw ConfigError("fault injection needs model routers: faults live in the model, not the RTL");
  faults_ = f;
}

void NetworkCore::schedule_external(NodeId n, std::uint64_t cycle) {
  // A signal-level router may be due in the cycle the cores just ran (an input that takes
  // effect next cycle): it joins that cycle's external pass.
  if (started_ && cycle <= last_cycle_) {
    if (!external_open_) cycle = last_cycle_ + 1;
    else {
      mark_external_due(n);
      return;
    }
  }
  schedule(n, cycle);
}

void NetworkCore::mark_external_due(NodeId n) {
  if (in_due_[n]) return;
  in_due_[n] = 1;
  external_due_.push_back(n);
}

void NetworkCore::inject(NodeId node, const Flit& f, std::uint64_t cycle, int channel) {
  if (probe_) probe_->on_inject(node, f, cycle);
  if (ExternalRouter* x = ext(node)) {
    schedule_external(node, x->inject(f, cycle, channel));
    return;
  }
  router(node).inject(f, cycle, channel);
  // Inside run_cycle(c) (a traffic source emitting) the router may still run in cycle c.
  const std::uint64_t earliest = !started_ ? 0 : in_cycle_ ? last_cycle_ : last_cycle_ + 1;
  schedule(node, std::max(cycle, earliest));
}

void NetworkCore::program_register(NodeId n, const BarrierRegisterSetup& s, std::uint64_t cycle) {
  if (ExternalRouter* x = ext(n)) {
    schedule_external(n, x->program_register(s, cycle));
    return;
  }
  if (reg_ok_.empty()) reg_ok_.assign(routers_.size(), 0);
  reg_ok_[n] = router(n).program_register(s);
}

void NetworkCore::free_register(NodeId n, std::uint8_t gid, std::uint64_t cycle) {
  if (ExternalRouter* x = ext(n)) {
    schedule_external(n, x->free_register(gid, cycle));
    return;
  }
  if (reg_ok_.empty()) reg_ok_.assign(routers_.size(), 0);
  reg_ok_[n] = router(n).free_register(gid);
}

bool NetworkCore::register_ok(NodeId n) const {
  if (const ExternalRouter* x = ext(n)) return x->register_ok();
  return !reg_ok_.empty() && reg_ok_[n];
}

void NetworkCore::schedule(NodeId n, std::uint64_t cycle) {
  RouterCore& r = router(n);
  // One entry per router is enough: when it runs it schedules its own next wake-up.
  if (cycle >= r.scheduled_at) return;
  if (r.scheduled_at == kNever) ++pending_wakes_;  // counts routers, not entries
  r.scheduled_at = cycle;
  if (cycle <= base_ + horizon_mask_) buckets_[cycle & horizon_mask_].push_back(n);
  else far_.push({cycle, n});
}

void NetworkCore::flit_out(NodeId from, int port, const Flit& f, std::uint64_t cycle) {
  if (port >= kPorts) port = index(Port::Local);  // an all-port ejection output
  if (probe_) probe_->on_output(from, port, f, cycle);
  if (port == index(Port::Local)) {
    if (sink_) sink_->on_eject(from, f, cycle + 1);
    return;
  }
  if (f.sync) {
    counters_.sync_hops += f.head ? 1 : 0;
    ++counters_.sync_flit_hops;
  } else {
    ++counters_.worm_flit_hops;
  }
  const NodeId to = neighbor(from, port);
  const Port in = opposite(port_at(port));
  const std::uint64_t arrival = cycle + 1 + cfg_.timing.tp + link_delay(from, port_at(port));
  if (faults_) {
    Flit crossed = f;
    if (faults_->cross(from, port_at(port), crossed, cycle)) schedule(to, router(to).receive(in, crossed, arrival));
    return;
  }
  if (ExternalRouter* x = ext(to)) schedule_external(to, x->receive(in, f, arrival));
  else schedule(to, router(to).receive(in, f, arrival));
}

bool NetworkCore::carries_tree_worms() const {
  for (const ExternalRouter* x : ext_)
    if (x && !x->carries_tree_worms()) return false;
  return true;
}

void NetworkCore::set_link_delay(NodeId n, Port port, std::uint32_t extra) {
  if (external_) throw ConfigError("a link delay needs model routers: RTL routers fix the link's timing");
  if (port == Port::Local || !cfg_.mesh.has_neighbor(coords_.at(n), port))
    throw ConfigError("a link delay needs a link: node " + std::to_string(n) + " has none at port " +
                      std::string(port_name(port)));
  const Timing& t = cfg_.timing;
  // The longest legitimate wait (config.hpp) grows by the extra delay of a flit and of
  // its credit.
  const std::uint64_t longest = 2 * (t.tp + std::uint64_t{extra} + t.trn + t.trm) + t.ts;
  if (longest >= cfg_.deadlock_cycles)
    throw ConfigError("a link delay of " + std::to_string(extra) + " cycles needs deadlock_cycles above " +
                      std::to_string(longest));
  if (link_delay_.empty()) link_delay_.assign(static_cast<std::size_t>(cfg_.mesh.nodes()), {});
  link_delay_[n][static_cast<std::size_t>(index(port))] = extra;
}

void NetworkCore::credit_out(NodeId from, int port, int vc, std::uint64_t cycle) {
  const NodeId up = neighbor(from, port);
  const std::uint64_t due = cycle + 1 + cfg_.timing.tp + link_delay(from, port_at(port));
  const Port out = opposite(port_at(port));
  if (ExternalRouter* x = ext(up)) {
    schedule_external(up, x->return_credit(out, vc, due));
    return;
  }
  router(up).return_credit(out, vc, due);
  if (probe_) probe_->on_credit(up, index(out), vc, due);
}

void NetworkCore::admit_far(std::uint64_t base) {
  base_ = base;
  while (!far_.empty() && far_.top().cycle <= base_ + horizon_mask_) {
    const NodeEvent w = far_.top();
    far_.pop();
    buckets_[w.cycle & horizon_mask_].push_back(w.node);
  }
}

std::uint64_t NetworkCore::next_event_cycle() const {
  std::uint64_t next = kNever;
  if (pending_wakes_ > 0) {
    for (std::uint64_t c = base_; c <= base_ + horizon_mask_; ++c)
      if (!buckets_[c & horizon_mask_].empty()) {
        next = c;
        break;
      }
    if (next == kNever && !far_.empty()) next = far_.top().cycle;
  }
  if (!external_due_.empty()) next = std::min(next, last_cycle_);
  if (traffic_) {
    // The NI knows a packet a cycle before it may enter the router (see run_cycle).
    const std::uint64_t t = traffic_->next_cycle();
    if (t != kNever) next = std::min(next, t > 0 ? t - 1 : 0);
  }
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
  external_open_ = external_ != nullptr;
  if (probe_) probe_->begin_cycle(c);
  // Packets of the next cycle are handed over now: an RTL router must see a flit on its
  // Local input in the cycle before it enters the buffer, as the core takes it then.
  if (traffic_ && traffic_->next_cycle() <= c + 1) traffic_->emit(c + 1, *this);
  // Wake-ups left in cycles before c (a caller that skipped ahead) run now.
  for (std::uint64_t k = base_; k < c && k <= base_ + horizon_mask_; ++k) {
    auto& late = buckets_[k & horizon_mask_];
    if (late.empty() || (k & horizon_mask_) == (c & horizon_mask_)) continue;
    auto& now = buckets_[c & horizon_mask_];
    now.insert(now.end(), late.begin(), late.end());
    late.clear();
  }
  admit_far(c);
  bool progress = false;
  // Routers of one cycle never see each other's effects in that cycle (a flit or credit
  // takes at least two cycles to cross a link), so their order does not matter.
  scratch_.clear();
  std::swap(scratch_, buckets_[c & horizon_mask_]);
  for (const NodeId n : scratch_) {
    RouterCore& r = *routers_[n];  // scheduled, so allocated
    // A later wake-up means this entry was superseded (and the router has already run).
    if (r.scheduled_at > c) continue;
    r.scheduled_at = kNever;
    --pending_wakes_;
    if (!ext_.empty() && ext_[n]) {
      mark_external_due(n);
      continue;
    }
    if (faults_ && faults_->router_stopped(n, c)) continue;
    progress |= r.step(c, *this);
    ++router_steps_;
    if (probe_) probe_->after_step(n, c);
    const std::uint64_t next = r.next_wake(c);
    if (next != kNever) schedule(n, next);
  }
  in_cycle_ = false;
  // A fault's routers stay awake, so that the watchdog below sees the work they hold.
  if (faults_)
    for (const NodeId n : faults_->held()) schedule(n, c + 1);
  if (progress) {
    last_progress_ = c;
  } else if ((pending_wakes_ > 0 || !external_due_.empty()) && c - last_progress_ > cfg_.deadlock_cycles) {
    throw DeadlockError("deadlock: no flit moved for " + std::to_string(c - last_progress_) +
                        " cycles (cycle " + std::to_string(c) + ")\n" + stuck_report());
  }
}

void NetworkCore::run_external(std::uint64_t c) {
  external_open_ = false;
  if (external_due_.empty()) return;
  std::vector<NodeId>& due = external_stepping_;
  due.clear();
  std::swap(due, external_due_);
  const bool progress = external_->step(c, due, *this);
  router_steps_ += due.size();
  for (const NodeId n : due) {
    in_due_[n] = 0;
    const std::uint64_t next = ext_[n]->next_wake(c);
    if (next != kNever) schedule(n, next);
  }
  if (progress) last_progress_ = c;
}

std::uint64_t NetworkCore::run_until_idle(std::uint64_t limit) {
  for (;;) {
    const std::uint64_t next = next_event_cycle();
    if (next == kNever || next > limit) return last_cycle_;
    if (!ran(next)) run_cycle(next);
    run_external(next);
  }
}

std::string NetworkCore::stuck_report(std::size_t max_lines) const {
  std::vector<std::string> lines;
  // With faults injected, what they did and the routers they hold come first: the cause
  // before the jam that spread from it.
  std::vector<NodeId> first;
  if (faults_) {
    lines = faults_->report();
    first = faults_->held();
    for (const NodeId n : first) router(n).describe_stuck(lines, cfg_.mesh);
  }
  for (std::size_t n = 0; n < routers_.size(); ++n) {
    if (std::find(first.begin(), first.end(), static_cast<NodeId>(n)) != first.end()) continue;
    if (const ExternalRouter* x = ext(static_cast<NodeId>(n))) x->describe_stuck(lines);
    else if (routers_[n]) routers_[n]->describe_stuck(lines, cfg_.mesh);
  }
  std::string s;
  for (std::size_t i = 0; i < lines.size() && i < max_lines; ++i) s += "  " + lines[i] + "\n";
  if (lines.size() > max_lines)
    s += "  ... and " + std::to_string(lines.size() - max_lines) + " more\n";
  return s;
}

bool NetworkCore::holds_sync() const {
  for (const auto& r : routers_)
    if (r && r->holds_sync()) return true;
  return false;
}

}  // namespace meshsync
