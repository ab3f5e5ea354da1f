#include "barrier_unit.hpp"

#include <algorithm>
#include <stdexcept>

namespace meshsync {

bool BarrierUnit::program(const BarrierRegisterSetup& s) {
  if (s.children.size() > max_children_) return false;
  const int r = regs_.find_or_allocate(s.gid);
  if (r < 0) return false;
  regs_.at(r).program(s);
  cancel_batch(r);
  return true;
}

bool BarrierUnit::free(std::uint8_t gid) {
  const int r = regs_.lookup(gid);
  if (r < 0 || !regs_.at(r).member()) return false;
  regs_.at(r).unprogram();
  cancel_batch(r);
  return true;
}

void BarrierUnit::cancel_batch(int r) {
  // A write starts the register afresh: its queued batch is killed and what the emitter
  // still had to send for it is dropped (software frees a register only after its local
  // release, which leaves last).
  batches_[static_cast<std::size_t>(r)].pending = false;
  for (Queued& q : fifo_)
    if (q.reg == r) q.live = false;
  if (emitter_.reg == r) emitter_.reset();
}

void BarrierUnit::update_cs_path(const Flit& f) {
  // CS setup/teardown messages program the routers they cross (not their endpoints).
  if (f.stype == SyncType::Setup) {
    const int r = regs_.find_or_allocate(f.gid);
    if (r >= 0) regs_.at(r).open_transit(f.gid);
    // No free register: this router stays out of the CS tree and forwards with t_rn.
  } else if (f.stype == SyncType::Teardown) {
    const int r = regs_.lookup(f.gid);
    if (r >= 0) regs_.at(r).close_transit();
  }
}

bool BarrierUnit::take(BufferedFlit& b, std::uint64_t c, NodeId here) {
  const Flit& f = b.flit;
  if (b.cs_update) {
    update_cs_path(f);
    b.cs_update = false;
    return false;
  }
  if (f.stype == SyncType::Setup || f.stype == SyncType::Teardown) return true;  // path end
  const int r = regs_.lookup(f.gid);
  if (r < 0 || !regs_.at(r).member()) return false;  // freed since its arrival
  BarrierRegister& reg = regs_.at(r);
  if (f.stype == SyncType::Arrive && !reg.on_arrive(f.data, here).has_value()) return true;
  Batch& slot = batches_[static_cast<std::size_t>(r)];
  if (slot.pending || emitter_.reg == r)
    throw std::logic_error("barrier protocol violation: gid " + std::to_string(f.gid) +
                           " completed a reduction or distribution while its previous one was "
                           "still being sent");
  // The FIFO holds as many batches as there are registers; only killed entries (software
  // rewrote a register whose batch was queued) can fill it while the emitter is busy.
  if (fifo_.size() >= batches_.size() && emitter_.reg >= 0)
    throw std::logic_error("barrier protocol violation: gid " + std::to_string(f.gid) +
                           " completed a batch while the emitter's queue was full");
  // It may leave when its message is ready, and in the next cycle at the earliest.
  slot = Batch{true, std::max(b.ready, c + 1)};
  fifo_.push_back(Queued{r, f.stype == SyncType::Release, true, c});
  return true;
}

void BarrierUnit::stage(const RouteUnit& route) {
  // One message per cycle, built from the register's fields as they are now, into its
  // port's slot; it waits while that slot still holds a message (start of the cycle).
  const BarrierRegister& reg = regs_.at(emitter_.reg);
  const std::size_t children = reg.setup().children.size();
  const bool child = emitter_.release && emitter_.next < children;
  const Flit m = emitter_.release ? reg.release_message(child ? emitter_.next : children, route.id())
                                  : reg.reduction_message(route.id());
  const int p = index(route.port(m));
  if (emitter_.full & (1u << p)) return;
  emitter_.slot[static_cast<std::size_t>(p)] = m;
  emitter_.full |= 1u << p;
  if (child) ++emitter_.next;
  else emitter_.staged_all = true;
}

EmitterOffer BarrierUnit::offer_batch(std::uint64_t c, const RouteUnit& route,
                                      const std::array<OutputUnit, kMaxOutputs>& outputs) {
  EmitterOffer o;
  if (emitter_.reg < 0) {
    // Idle at the start of the cycle: take the oldest batch created before it, due or not.
    if (fifo_.empty() || fifo_.front().created >= c) return o;
    const Queued q = fifo_.front();
    fifo_.erase(fifo_.begin());
    if (!q.live) return o;  // killed by a software write: discarded, nothing taken
    batches_[static_cast<std::size_t>(q.reg)].pending = false;
    emitter_.reg = q.reg;
    emitter_.release = q.release;
    emitter_.next = 0;
    emitter_.staged_all = false;
    emitter_.full = 0;
  } else if (batches_[static_cast<std::size_t>(emitter_.reg)].due <= c) {
    // From the due cycle on, every slot (as at the start of the cycle) with a credit. The
    // local release leaves after every child's, so software cannot free the register while
    // the batch still reads it: it waits while a child's slot is full.
    constexpr int local = index(Port::Local);
    const unsigned children = emitter_.full & ~(1u << local);
    for (unsigned m = emitter_.full; m; m &= m - 1) {
      const int p = lowest_bit(m);
      const Flit& f = emitter_.slot[static_cast<std::size_t>(p)];
      if (p == local && f.stype == SyncType::Release && children != 0) continue;
      if (outputs[static_cast<std::size_t>(p)].has_credit(f.vc())) o.ports |= 1u << p;
    }
  }
  if (!emitter_.staged_all) stage(route);
  return o;
}

void BarrierUnit::sent(const EmitterOffer& offer, unsigned granted_ports) {
  if (emitter_.reg < 0) return;
  emitter_.full &= ~(offer.ports & granted_ports);
  if (emitter_.staged_all && emitter_.full == 0) emitter_.reset();
}

std::uint64_t BarrierUnit::next_wake(std::uint64_t c) const {
  if (emitter_.reg < 0) return fifo_.empty() ? kNever : c + 1;
  // Staged and waiting for its due cycle: nothing moves before it.
  if (emitter_.staged_all) return std::max(c + 1, batches_[static_cast<std::size_t>(emitter_.reg)].due);
  return c + 1;
}

void BarrierUnit::describe(const std::string& me, std::vector<std::string>& out) const {
  if (emitter_.reg >= 0)
    out.push_back(me + ": barrier register " + std::to_string(emitter_.reg) + " sending: " +
                  std::to_string(__builtin_popcount(emitter_.full)) + " message(s) staged" +
                  (emitter_.staged_all ? "" : ", more to stage"));
  for (const Queued& q : fifo_)
    out.push_back(me + ": barrier register " + std::to_string(q.reg) +
                  (q.live ? " waits for the emitter" : " (cancelled) waits to be discarded"));
}

}  // namespace meshsync
