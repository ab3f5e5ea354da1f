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
  if (emitter_.reg == r) {
    // A reduction message whose head has left runs to its tail, so that its output VC and
    // the receiver's lane context are freed; nothing else of the batch is sent.
    unsigned streaming = 0;
    for (unsigned m = emitter_.full; m; m &= m - 1)
      if (!emitter_.slot[static_cast<std::size_t>(lowest_bit(m))].head) streaming |= 1u << lowest_bit(m);
    if (streaming == 0) {
      emitter_.reset();
    } else {
      emitter_.full = streaming;
      emitter_.staged_all = true;
      emitter_.fold_left = 0;
    }
  }
  // A reduction message half stored belongs to the old epoch: its remaining flits are
  // taken and dropped.
  for (auto& vcs : incoming_)
    for (Incoming& in : vcs)
      if (in.reg == r) in.live = false;
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

void BarrierUnit::violation(int r, const RouteUnit& route, const std::string& what) const {
  const Coord k = route.here();
  throw std::logic_error("reduction protocol violation: gid " + std::to_string(regs_.at(r).gid()) + " at router (" +
                         std::to_string(k.x) + "," + std::to_string(k.y) + "): " + what);
}

std::uint32_t* BarrierUnit::lane(int r, std::uint32_t k, std::uint32_t words) {
  std::vector<std::uint32_t>& l = regs_.at(r).reduction.lanes[k];
  if (l.size() < words) l.resize(words);
  return l.data();
}

bool BarrierUnit::take(BufferedFlit& b, int input, std::uint64_t c, const RouteUnit& route) {
  const Flit& f = b.flit;
  if (b.cs_update) {
    update_cs_path(f);
    b.cs_update = false;
    return false;
  }
  if (!f.head) return take_body(f, input, c, route);
  if (f.stype == SyncType::Setup || f.stype == SyncType::Teardown) return true;  // path end
  const int r = regs_.lookup(f.gid);
  if (r < 0 || !regs_.at(r).member()) return false;  // freed since its arrival
  take_head(r, b, input, route);
  if (f.tail) complete(r, f.stype, f.data, b.ready, c, route);
  return true;
}

void BarrierUnit::take_head(int r, const BufferedFlit& b, int input, const RouteUnit& route) {
  const Flit& f = b.flit;
  const BarrierRegister& reg = regs_.at(r);
  RegisterReduction& red = regs_.at(r).reduction;
  const bool vector = !f.tail;
  if (f.stype == SyncType::Arrive) {
    // The epoch's first arrival says what it is; a member calling the other collective
    // would otherwise complete a barrier with a reduction's messages, or the reverse.
    if (!red.kind_set) {
      red.kind_set = true;
      red.red = vector;
    } else if (red.red != vector) {
      violation(r, route, vector ? "a reduction message arrived in a barrier's epoch (every member must make the same call)"
                                 : "a barrier message arrived in a reduction's epoch (every member must make the same call)");
    }
  } else {
    // An allreduce's result comes down with the release; the root's release comes from its
    // NI, which relays nothing: the result is in the root's lane 4 already.
    const bool carries = reg.setup().parent.has_value() && red.red && red.desc.all;
    if (vector != carries)
      violation(r, route, vector ? "a release carries a vector where none was reduced for it"
                                 : "an allreduce's release carries no vector");
  }
  if (!vector) return;
  if (reg.transit()) violation(r, route, "a reduction message at a CS path register (routers reduce along BTM trees only)");
  if (reduce_words_ == 0) violation(r, route, "a reduction message at a router without reduction lanes (--reduce-words 0)");
  if (f.stype == SyncType::Arrive) {
    if (f.data > kLocalSlot) violation(r, route, "a reduction message names no child slot (sync data " + std::to_string(f.data) + ")");
    if (reg.arrival_flags() & (1u << f.data))
      violation(r, route, "slot " + std::to_string(f.data) + " sent two reduction messages in one epoch");
  }
  incoming_[static_cast<std::size_t>(input)][sync_vc_index(f.vc())] =
      Incoming{r, true, f.stype == SyncType::Release, f.data, 1, 0, b.ready};
}

bool BarrierUnit::take_body(const Flit& f, int input, std::uint64_t c, const RouteUnit& route) {
  Incoming& in = incoming_[static_cast<std::size_t>(input)][sync_vc_index(f.vc())];
  if (in.reg < 0)
    throw std::logic_error("a sync body flit with no head before it at input " + std::to_string(input));
  const int r = in.reg;
  if (in.live) {
    RegisterReduction& red = regs_.at(r).reduction;
    if (in.pos == 1) {
      // Checked before a word is written: a message the register cannot take stops the run
      // here, so no wrong result can leave the router.
      const auto d = ReductionDescriptor::unpack(f.payload);
      if (!d) violation(r, route, "a descriptor that names no operation of its type");
      if (d->words() > reduce_words_)
        violation(r, route, d->describe() + " is " + std::to_string(d->words()) + " words, more than the " +
                                std::to_string(reduce_words_) + " a lane holds");
      if (in.release) {
        if (*d != red.desc) violation(r, route, "the release carries " + d->describe() + " after " + red.desc.describe());
      } else if (!red.desc_set) {
        red.desc = *d;
        red.desc_set = true;
      } else if (*d != red.desc) {
        violation(r, route, "members call " + red.desc.describe() + " and " + d->describe() +
                                " in one epoch (every member must make the same call)");
      }
      in.flits = d->flits();
    } else {
      store_half(lane(r, in.lane(), (in.flits - 2) / 2), in.pos, f.payload);
    }
    if (f.tail != (in.pos + 1 == in.flits))
      violation(r, route, "a reduction message's tail at flit " + std::to_string(in.pos) + ", its descriptor says " +
                              std::to_string(in.flits) + " flits");
  }
  ++in.pos;
  if (f.tail) {
    const Incoming done = in;
    in.reg = -1;
    if (done.live) complete(r, done.release ? SyncType::Release : SyncType::Arrive, done.slot, done.ready, c, route);
  }
  return true;
}

void BarrierUnit::complete(int r, SyncType type, std::uint8_t slot, std::uint64_t ready, std::uint64_t c,
                           const RouteUnit& route) {
  BarrierRegister& reg = regs_.at(r);
  if (type == SyncType::Arrive) {
    const auto operands = static_cast<std::uint8_t>(reg.arrival_flags() | (slot <= kLocalSlot ? 1u << slot : 0u));
    if (!reg.on_arrive(slot, route.id()).has_value()) return;
    // Complete: the next epoch may say what it is; the descriptor stays for the fold.
    reg.reduction.operands = operands;
    reg.reduction.kind_set = false;
    reg.reduction.desc_set = false;
  }
  const std::uint8_t gid = reg.gid();
  Batch& slot_of = batches_[static_cast<std::size_t>(r)];
  if (slot_of.pending || emitter_.reg == r)
    throw std::logic_error("barrier protocol violation: gid " + std::to_string(gid) +
                           " completed a reduction or distribution while its previous one was "
                           "still being sent");
  // The FIFO holds as many batches as there are registers; only killed entries (software
  // rewrote a register whose batch was queued) can fill it while the emitter is busy.
  if (fifo_.size() >= batches_.size() && emitter_.reg >= 0)
    throw std::logic_error("barrier protocol violation: gid " + std::to_string(gid) +
                           " completed a batch while the emitter's queue was full");
  // It may leave when its message is ready, and in the next cycle at the earliest.
  slot_of = Batch{true, std::max(ready, c + 1)};
  fifo_.push_back(Queued{r, type == SyncType::Release, true, c});
}

void BarrierUnit::take_batch(const Queued& q) {
  batches_[static_cast<std::size_t>(q.reg)].pending = false;
  emitter_.reg = q.reg;
  emitter_.release = q.release;
  emitter_.next = 0;
  emitter_.staged_all = false;
  emitter_.full = 0;
  emitter_.fold_left = 0;
  const RegisterReduction& red = regs_.at(q.reg).reduction;
  // A release carries the result only for an allreduce.
  emitter_.vector = red.red && (!q.release || red.desc.all);
  emitter_.desc = red.desc;
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
    const std::uint32_t* child = lane(q.reg, k, words);
    if (folded++ == 0) acc.assign(child, child + words);
    else combine(d.op, d.type, acc, red.lanes[k], 0, d.count);
  }
  if (folded == 0) return;  // a leaf: its own vector is its partial result
  std::uint32_t* own = lane(q.reg, kLocalSlot, words);
  combine(d.op, d.type, acc, red.lanes[kLocalSlot], 0, d.count);
  std::copy(acc.begin(), acc.end(), own);
  emitter_.fold_left = folded * d.count;
}

void BarrierUnit::stage(const RouteUnit& route) {
  // One message per cycle, built from the register's fields as they are now, into its
  // port's slot; it waits while that slot still holds a message (start of the cycle).
  const BarrierRegister& reg = regs_.at(emitter_.reg);
  const std::size_t children = reg.setup().children.size();
  const bool child = emitter_.release && emitter_.next < children;
  Flit m = emitter_.release ? reg.release_message(child ? emitter_.next : children, route.id())
                            : reg.reduction_message(route.id());
  const int p = index(route.port(m));
  if (emitter_.full & (1u << p)) return;
  // A reduction's result goes up to the parent, to the root's NI for a reduce, and down
  // the distribution for an allreduce.
  if (emitter_.vector && (emitter_.release || reg.setup().parent || !emitter_.desc.all)) {
    m.tail = false;
    m.length = static_cast<std::uint16_t>(emitter_.desc.flits());
    emitter_.head[static_cast<std::size_t>(p)] = m;
    emitter_.pos[static_cast<std::size_t>(p)] = 0;
  }
  emitter_.slot[static_cast<std::size_t>(p)] = m;
  emitter_.full |= 1u << p;
  if (child) ++emitter_.next;
  else emitter_.staged_all = true;
}

EmitterOffer BarrierUnit::offer_batch(std::uint64_t c, const RouteUnit& route,
                                      const std::array<OutputUnit, kMaxOutputs>& outputs, int me) {
  EmitterOffer o;
  if (emitter_.reg < 0) {
    // Idle at the start of the cycle: take the oldest batch created before it, due or not.
    if (fifo_.empty() || fifo_.front().created >= c) return o;
    const Queued q = fifo_.front();
    fifo_.erase(fifo_.begin());
    if (!q.live) return o;  // killed by a software write: discarded, nothing taken
    take_batch(q);
  } else if (batches_[static_cast<std::size_t>(emitter_.reg)].due <= c) {
    // From the due cycle on, every slot (as at the start of the cycle) with a credit and
    // its VC free, or held by the worm the slot streams. The local release leaves after
    // every child's, so software cannot free the register while the batch still reads it:
    // it waits while a child's slot is full.
    constexpr int local = index(Port::Local);
    const unsigned children = emitter_.full & ~(1u << local);
    for (unsigned m = emitter_.full; m; m &= m - 1) {
      const int p = lowest_bit(m);
      const Flit& f = emitter_.slot[static_cast<std::size_t>(p)];
      if (p == local && f.stype == SyncType::Release && children != 0) continue;
      const OutputUnit& out = outputs[static_cast<std::size_t>(p)];
      if (out.has_credit(f.vc()) && out.may_use(f.vc(), f.head, me)) o.ports |= 1u << p;
    }
  }
  if (emitter_.fold_left > 0) {
    --emitter_.fold_left;
    o.folding = true;
  } else if (!emitter_.staged_all) {
    stage(route);
  }
  return o;
}

void BarrierUnit::sent(const EmitterOffer& offer, unsigned granted_ports) {
  if (emitter_.reg < 0) return;
  for (unsigned m = offer.ports & granted_ports; m; m &= m - 1) {
    const auto p = static_cast<std::size_t>(lowest_bit(m));
    if (emitter_.slot[p].tail) {
      emitter_.full &= ~(1u << p);
    } else {
      // The slot offers the worm's next flit from the next cycle.
      emitter_.slot[p] = reduction_flit(emitter_.head[p], emitter_.desc, lane(emitter_.reg, kLocalSlot, emitter_.desc.words()),
                                        ++emitter_.pos[p]);
    }
  }
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
                  (emitter_.staged_all ? "" : ", more to stage") +
                  (emitter_.fold_left > 0 ? ", folding " + std::to_string(emitter_.fold_left) + " more cycle(s)" : ""));
  for (const Queued& q : fifo_)
    out.push_back(me + ": barrier register " + std::to_string(q.reg) +
                  (q.live ? " waits for the emitter" : " (cancelled) waits to be discarded"));
}

}  // namespace meshsync
