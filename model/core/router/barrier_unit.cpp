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
  // A write starts the register afresh: messages it still had to send are dropped
  // (software frees a register only after its local release, which leaves last).
  Batch& b = batches_[static_cast<std::size_t>(r)];
  if (b.pending) --pending_;
  b.pending = false;
  if (emitter_.reg == r) {
    emitter_.reset();
    --pending_;
  }
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
  // It may leave when its message is ready, and in the next cycle at the earliest.
  slot = Batch{true, f.stype == SyncType::Release, std::max(b.ready, c + 1)};
  ++pending_;
  return true;
}

void BarrierUnit::select_batch(std::uint64_t c, const RouteUnit& route) {
  for (std::size_t r = 0; r < batches_.size(); ++r) {
    Batch& b = batches_[r];
    if (!b.pending || b.due > c) continue;
    const BarrierRegister& reg = regs_.at(static_cast<int>(r));
    emitter_.reg = static_cast<int>(r);
    emitter_.children.clear();
    const auto add = [&](const Flit& m) {
      emitter_.children.emplace_back(m, static_cast<std::int8_t>(index(route.port(m))));
    };
    if (b.release) {
      std::vector<Flit> msgs = reg.on_release(route.id());
      emitter_.local_flit = msgs.back();
      emitter_.local = true;
      msgs.pop_back();
      for (const Flit& m : msgs) add(m);
    } else {
      add(reg.reduction_message(route.id()));
      emitter_.local = false;
    }
    b.pending = false;  // the emitter now counts for it in pending_
    return;
  }
}

EmitterOffer BarrierUnit::offer_batch(std::uint64_t c, const RouteUnit& route,
                                      const std::array<OutputUnit, kMaxOutputs>& outputs) {
  EmitterOffer o;
  if (emitter_.reg < 0) select_batch(c, route);
  if (emitter_.reg < 0) return o;
  // Per port the first message in child order that goes through it and has a credit, so
  // a BTM's children leave through their four ports in one cycle.
  for (std::size_t j = 0; j < emitter_.children.size(); ++j) {
    const auto& [m, p] = emitter_.children[j];
    if (o.message[static_cast<std::size_t>(p)] == EmitterOffer::kNone &&
        outputs[static_cast<std::size_t>(p)].has_credit(m.vc())) {
      o.message[static_cast<std::size_t>(p)] = static_cast<int>(j);
      o.ports |= 1u << p;
    }
  }
  // The local release leaves after every child's, so software cannot free the register
  // while the batch still reads it.
  if (emitter_.local && emitter_.children.empty()) {
    o.message[static_cast<std::size_t>(index(Port::Local))] = EmitterOffer::kLocalRelease;
    o.ports |= 1u << index(Port::Local);
  }
  return o;
}

void BarrierUnit::sent(const EmitterOffer& offer, unsigned granted_ports) {
  if (emitter_.reg < 0) return;
  // Bit per child index granted (a register holds at most 64 children); erased from the
  // highest index down so that the lower indices stay valid.
  std::uint64_t done = 0;
  for (unsigned m = granted_ports; m; m &= m - 1) {
    const int k = offer.message[static_cast<std::size_t>(lowest_bit(m))];
    if (k == EmitterOffer::kLocalRelease) emitter_.local = false;
    else done |= std::uint64_t{1} << k;
  }
  for (; done; done &= ~(std::uint64_t{1} << (63 - __builtin_clzll(done))))
    emitter_.children.erase(emitter_.children.begin() + (63 - __builtin_clzll(done)));
  if (emitter_.children.empty() && !emitter_.local) {
    emitter_.reset();
    --pending_;
  }
}

std::uint64_t BarrierUnit::next_batch(std::uint64_t c) const {
  if (emitter_.reg >= 0) return c + 1;
  std::uint64_t next = kNever;
  for (const Batch& b : batches_)
    if (b.pending) next = std::min(next, std::max(c + 1, b.due));
  return next;
}

void BarrierUnit::describe(const std::string& me, std::vector<std::string>& out) const {
  if (emitter_.reg >= 0)
    out.push_back(me + ": barrier register " + std::to_string(emitter_.reg) + " sending " +
                  std::to_string(emitter_.children.size() + (emitter_.local ? 1 : 0)) + " message(s)");
  for (std::size_t r = 0; r < batches_.size(); ++r)
    if (batches_[r].pending)
      out.push_back(me + ": barrier register " + std::to_string(r) + " waits for the emitter");
}

}  // namespace meshsync
