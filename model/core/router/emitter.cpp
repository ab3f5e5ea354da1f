#include "emitter.hpp"

#include <algorithm>

namespace meshsync {

void Emitter::cancel(int r) {
  // A write starts the register afresh: its queued batch is killed and what the emitter
  // still had to send for it is dropped (software frees a register only after its local
  // release, which leaves last).
  for (Queued& q : fifo_)
    if (q.reg == r) q.live = false;
  if (active_.reg != r) return;
  // A reduction message whose head has left runs to its tail, so that its output VC and
  // the receiver's lane context are freed; nothing else of the batch is sent.
  unsigned streaming = 0;
  for (unsigned m = active_.full; m; m &= m - 1)
    if (!active_.slot[static_cast<std::size_t>(lowest_bit(m))].head) streaming |= 1u << lowest_bit(m);
  if (streaming == 0) {
    active_.reset();
  } else {
    active_.full = streaming;
    active_.staged_all = true;
    active_.fold_left = 0;
  }
}

void Emitter::take_batch(const Queued& q, BarrierRegisterFile& regs) {
  active_.reg = q.reg;
  active_.release = q.release;
  active_.next = 0;
  active_.staged_all = false;
  active_.full = 0;
  active_.fold_left = 0;
  RegisterReduction& red = regs.at(q.reg).reduction;
  // A release carries the result only for an allreduce.
  active_.vector = red.red && (!q.release || red.desc.all);
  active_.desc = red.desc;
  if (q.release || !red.red) return;
  // The fold (docs/reduction-hardware.md): per element, the present children in slot
  // order (port order +X, -X, +Y, -Y), then the node's own vector, the result in place in
  // lane 4. One ALU operation a cycle: C per element, before the first message is staged.
  const ReductionDescriptor& d = red.desc;
  const std::uint32_t words = d.words();
  ReduceVector acc;
  unsigned folded = 0;
  for (std::uint32_t k = 0; k < kLocalSlot; ++k) {
    if (!(red.operands & (1u << k))) continue;
    const std::uint32_t* child = red.lane(k, words);
    if (folded++ == 0) acc.assign(child, child + words);
    else combine(d.op, d.type, acc, red.lanes[k], 0, d.count);
  }
  if (folded == 0) return;  // a leaf: its own vector is its partial result
  std::uint32_t* own = red.lane(kLocalSlot, words);
  combine(d.op, d.type, acc, red.lanes[kLocalSlot], 0, d.count);
  std::copy(acc.begin(), acc.end(), own);
  active_.fold_left = folded * d.count;
}

void Emitter::stage(const RouteUnit& route, const BarrierRegisterFile& regs) {
  // One message per cycle, built from the register's fields as they are now, into its
  // port's slot; it waits while that slot still holds a message (start of the cycle).
  const BarrierRegister& reg = regs.at(active_.reg);
  const std::size_t children = reg.setup().children.size();
  const bool child = active_.release && active_.next < children;
  Flit m = active_.release ? reg.release_message(child ? active_.next : children, route.id())
                            : reg.reduction_message(route.id());
  const int p = index(route.port(m));
  if (active_.full & (1u << p)) return;
  // A reduction's result goes up to the parent, to the root's NI for a reduce, and down
  // the distribution for an allreduce.
  if (active_.vector && (active_.release || reg.setup().parent || !active_.desc.all)) {
    m.tail = false;
    m.length = static_cast<std::uint16_t>(active_.desc.flits());
    active_.head[static_cast<std::size_t>(p)] = m;
    active_.pos[static_cast<std::size_t>(p)] = 0;
  }
  active_.slot[static_cast<std::size_t>(p)] = m;
  active_.full |= 1u << p;
  if (child) ++active_.next;
  else active_.staged_all = true;
}

EmitterOffer Emitter::offer_batch(std::uint64_t c, const RouteUnit& route, BarrierRegisterFile& regs,
                                  const std::vector<Batch>& batches, const std::array<OutputUnit, kMaxOutputs>& outputs,
                                  int me) {
  EmitterOffer o;
  if (active_.reg < 0) {
    // Idle at the start of the cycle: take the oldest batch created before it, due or not.
    if (fifo_.empty() || fifo_.front().created >= c) return o;
    const Queued q = fifo_.front();
    fifo_.erase(fifo_.begin());
    if (!q.live) return o;  // killed by a software write: discarded, nothing taken
    take_batch(q, regs);
    o.loaded = q.reg;
  } else if (batches[static_cast<std::size_t>(active_.reg)].due <= c) {
    // From the due cycle on, every slot (as at the start of the cycle) with a credit and
    // its VC free, or held by the worm the slot streams. The local release leaves after
    // every child's, so software cannot free the register while the batch still reads it:
    // it waits while a child's slot is full.
    constexpr int local = index(Port::Local);
    const unsigned children = active_.full & ~(1u << local);
    for (unsigned m = active_.full; m; m &= m - 1) {
      const int p = lowest_bit(m);
      const Flit& f = active_.slot[static_cast<std::size_t>(p)];
      if (p == local && f.stype == SyncType::Release && children != 0) continue;
      const OutputUnit& out = outputs[static_cast<std::size_t>(p)];
      if (out.has_credit(f.vc()) && out.may_use(f.vc(), f.head, me)) o.ports |= 1u << p;
    }
  }
  if (active_.fold_left > 0) {
    --active_.fold_left;
    o.folding = true;
  } else if (!active_.staged_all) {
    stage(route, regs);
  }
  return o;
}

void Emitter::sent(const EmitterOffer& offer, unsigned granted_ports, BarrierRegisterFile& regs) {
  if (active_.reg < 0) return;
  for (unsigned m = offer.ports & granted_ports; m; m &= m - 1) {
    const auto p = static_cast<std::size_t>(lowest_bit(m));
    if (active_.slot[p].tail) {
      active_.full &= ~(1u << p);
    } else {
      // The slot offers the worm's next flit from the next cycle.
      std::uint32_t* result = regs.at(active_.reg).reduction.lane(kLocalSlot, active_.desc.words());
      active_.slot[p] = reduction_flit(active_.head[p], active_.desc, result, ++active_.pos[p]);
    }
  }
  if (active_.staged_all && active_.full == 0) active_.reset();
}

std::uint64_t Emitter::next_wake(std::uint64_t c, const std::vector<Batch>& batches) const {
  if (active_.reg < 0) return fifo_.empty() ? kNever : c + 1;
  // Staged and waiting for its due cycle: nothing moves before it.
  if (active_.staged_all) return std::max(c + 1, batches[static_cast<std::size_t>(active_.reg)].due);
  return c + 1;
}

void Emitter::describe(const std::string& me, std::vector<std::string>& out) const {
  if (active_.reg >= 0)
    out.push_back(me + ": barrier register " + std::to_string(active_.reg) + " sending: " +
                  std::to_string(__builtin_popcount(active_.full)) + " message(s) staged" +
                  (active_.staged_all ? "" : ", more to stage") +
                  (active_.fold_left > 0 ? ", folding " + std::to_string(active_.fold_left) + " more cycle(s)" : ""));
  for (const Queued& q : fifo_)
    out.push_back(me + ": barrier register " + std::to_string(q.reg) +
                  (q.live ? " waits for the emitter" : " (cancelled) waits to be discarded"));
}

}  // namespace meshsync
