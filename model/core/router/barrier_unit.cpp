#include "barrier_unit.hpp"

#include <algorithm>
#include <stdexcept>

namespace meshsync {

int BarrierUnit::program(const BarrierRegisterSetup& s) {
  if (s.children.size() > max_children_) return -1;
  const int r = regs_.find_or_allocate(s.gid);
  if (r < 0) return -1;
  regs_.at(r).program(s);
  cancel_batch(r);
  return r;
}

int BarrierUnit::free(std::uint8_t gid) {
  const int r = regs_.lookup(gid);
  if (r < 0 || !regs_.at(r).member()) return -1;
  regs_.at(r).unprogram();
  cancel_batch(r);
  return r;
}

void BarrierUnit::cancel_batch(int r) {
  // A write starts the register afresh: its batch is no longer pending (the emitter
  // drops it too, Emitter::cancel).
  batches_[static_cast<std::size_t>(r)].pending = false;
  // A reduction message half stored belongs to the old epoch: its remaining flits are
  // taken and dropped.
  for (auto& vcs : incoming_)
    for (Incoming& in : vcs)
      if (in.reg == r) in.live = false;
}

namespace {
// A register counts the CS paths of its group that cross its router in ceil(log2(W*H))
// bits (the RTL's PathRefsW): up to 2^that - 1 >= W*H - 1, as many as the other members
// of a group of every node can lay across one router.
std::uint32_t max_path_refs(const MeshShape& mesh) {
  std::uint32_t bits = 1;
  while ((std::uint64_t{1} << bits) < static_cast<std::uint64_t>(mesh.nodes())) ++bits;
  return (std::uint32_t{1} << bits) - 1;
}
}  // namespace

void BarrierUnit::update_cs_path(const Flit& f, const RouteUnit& route) {
  // CS setup/teardown messages program the routers they cross (not their endpoints).
  if (f.stype == SyncType::Setup) {
    const int r = regs_.find_or_allocate(f.gid);
    if (r >= 0) {
      BarrierRegister& reg = regs_.at(r);
      const std::uint32_t most = max_path_refs(route.mesh());
      if (reg.path_refs() >= most) {
        const Coord k = route.here();
        throw std::logic_error("barrier protocol violation: gid " + std::to_string(f.gid) + " at router (" +
                               std::to_string(k.x) + "," + std::to_string(k.y) + "): a CS path setup beyond the " +
                               std::to_string(most) + " its register counts (setups without teardowns)");
      }
      reg.open_transit(f.gid);
    }
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

bool BarrierUnit::take(BufferedFlit& b, int input, std::uint64_t c, const RouteUnit& route, Emitter& emitter) {
  const Flit& f = b.flit;
  if (b.cs_update) {
    update_cs_path(f, route);
    b.cs_update = false;
    return false;
  }
  if (!f.head) return take_body(f, input, c, route, emitter);
  if (f.stype == SyncType::Setup || f.stype == SyncType::Teardown) return true;  // path end
  const int r = regs_.lookup(f.gid);
  if (r < 0 || !regs_.at(r).member()) return false;  // freed since its arrival
  take_head(r, b, input, route);
  if (f.tail) complete(r, f.stype, f.data, b.ready, c, route, emitter);
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

bool BarrierUnit::take_body(const Flit& f, int input, std::uint64_t c, const RouteUnit& route, Emitter& emitter) {
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
      store_half(regs_.at(r).reduction.lane(in.lane(), (in.flits - 2) / 2), in.pos, f.payload);
    }
    if (f.tail != (in.pos + 1 == in.flits))
      violation(r, route, "a reduction message's tail at flit " + std::to_string(in.pos) + ", its descriptor says " +
                              std::to_string(in.flits) + " flits");
  }
  ++in.pos;
  if (f.tail) {
    const Incoming done = in;
    in.reg = -1;
    if (done.live) complete(r, done.release ? SyncType::Release : SyncType::Arrive, done.slot, done.ready, c, route, emitter);
  }
  return true;
}

void BarrierUnit::complete(int r, SyncType type, std::uint8_t slot, std::uint64_t ready, std::uint64_t c,
                           const RouteUnit& route, Emitter& emitter) {
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
  if (slot_of.pending || emitter.holds(r))
    throw std::logic_error("barrier protocol violation: gid " + std::to_string(gid) +
                           " completed a reduction or distribution while its previous one was "
                           "still being sent");
  // The FIFO holds as many batches as there are registers; only killed entries (software
  // rewrote a register whose batch was queued) can fill it while the emitter is busy.
  if (emitter.full())
    throw std::logic_error("barrier protocol violation: gid " + std::to_string(gid) +
                           " completed a batch while the emitter's queue was full");
  // It may leave when its message is ready, and in the next cycle at the earliest.
  slot_of = Batch{true, std::max(ready, c + 1)};
  emitter.push(r, type == SyncType::Release, c);
}

}  // namespace meshsync
