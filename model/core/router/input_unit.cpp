#include "input_unit.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "tree_claim.hpp"

namespace meshsync {

std::uint64_t InputUnit::accept(const Flit& f, std::uint64_t arrival, int input, const ArrivalContext& ctx) {
  const int v = f.vc();
  BufferedFlit& b = fifo(v).push_slot();
  b = BufferedFlit{f};
  if (f.sync && !f.head) {
    b.follow = true;  // resolved at the front (refresh_front)
    b.ready = arrival;
  } else if (f.sync) {
    // The CAM is looked up in the arrival cycle (docs/microarchitecture.md), and the
    // upstream router calls us earlier, when it sends: registers may still change in
    // between.
    b.lookup = true;
    b.ready = arrival;
    unrouted_ = static_cast<std::uint16_t>(unrouted_ | (1u << v));
  } else {
    classify(b, input, arrival, ctx);  // worms need no lookup
    if (f.mcast) classify_worm(b, input, ctx);
  }
  nonempty_ = static_cast<std::uint16_t>(nonempty_ | (1u << v));
  if (fifo(v).size() == 1) refresh_front(v);
  return b.ready;
}

void InputUnit::classify_arrivals(std::uint64_t c, int input, const ArrivalContext& ctx) {
  for (unsigned m = unrouted_; m; m &= m - 1) {
    const int v = lowest_bit(m);
    auto& q = fifo(v);
    bool left = false;
    for (std::size_t k = 0; k < q.size(); ++k) {
      BufferedFlit& b = q.at(k);
      if (!b.lookup) continue;
      if (b.ready > c) {
        left = true;  // arrives later
        continue;
      }
      b.lookup = false;
      classify(b, input, b.ready, ctx);
    }
    if (!left) unrouted_ = static_cast<std::uint16_t>(unrouted_ & ~(1u << v));
    refresh_front(v);
  }
}

void InputUnit::classify(BufferedFlit& b, int input, std::uint64_t arrival, const ArrivalContext& ctx) const {
  const Flit& f = b.flit;
  const RouteUnit& route = ctx.route;
  std::uint32_t delay = ctx.timing.trn;
  if (f.tree) {
    // Its outputs are claimed when the head is at the front (TreeClaim). A head addressed
    // here is processed by the barrier unit's side of the router: t_rm.
    b.tree = true;
    if (f.head && f.dest == route.id()) delay = ctx.timing.trm;
  } else if (f.sync) {
    const BarrierRegisterFile& cam = ctx.cam;
    const int r = cam.lookup(f.gid);
    const bool control = f.stype == SyncType::Setup || f.stype == SyncType::Teardown;
    if (f.dest == route.id()) {
      // Every sync message addressed to this router goes through the CAM (t_rm).
      delay = ctx.timing.trm;
      const bool hardware = r >= 0 && cam.at(r).member();
      // A miss goes on to the network interface: the group lives in node memory there.
      if (control || hardware) b.consume = true;
      else b.out = static_cast<std::int8_t>(route.eject_output(input));
    } else {
      if (r >= 0 && cam.at(r).transit()) delay = ctx.timing.trm;  // a CS path router
      b.out = static_cast<std::int8_t>(index(route.port(f)));
      // Without registers there is no CS entry to open or close.
      b.cs_update = cam.size() > 0 && control;
    }
  } else if (!f.mcast || f.addr) {
    // A multidestination worm's data flits follow its head (classify_worm).
    Port p = route.port(f);
    // MP's forced first hop: taken by the head in the router it is injected into (the
    // quadrant's port, minimal and in the worm's subnetwork; docs/deadlock.md).
    if (f.head && f.first != Port::Local && p != Port::Local && is_injection_input(input)) p = f.first;
    b.out = static_cast<std::int8_t>(p == Port::Local ? route.eject_output(input) : index(p));
  }
  // A worm head runs the allocation pipeline's head stages first (from its arrival at an
  // empty VC; behind another worm, from when it reaches the front: pop()).
  if (runs_head_stages(f)) delay += head_stages_;
  b.ready = arrival + delay - 1;
}

void InputUnit::classify_worm(BufferedFlit& b, int input, const ArrivalContext& ctx) {
  // Flits of one worm arrive in order on one input VC, so the head's decision holds for
  // the flits behind it until the tail.
  const Flit& f = b.flit;
  WormIn& w = worms_[f.vc() == kWormVc ? 0 : 1];
  const NodeId here = ctx.route.id();
  const int eject = ctx.route.eject_output(input);
  if (f.head) {
    w = WormIn{};
    if (f.dest == here) {
      b.out = static_cast<std::int8_t>(eject);  // the head of our copy
      if (f.more) {
        w.copy = true;
        w.promote_next = true;
      } else {
        w.out = static_cast<std::int8_t>(eject);  // the last destination takes it all
      }
    } else {
      w.out = b.out;
    }
  } else if (w.promote_next) {
    // Our address was stripped: the next address flit heads the worm from here on.
    if (!f.addr || f.dest == here)
      throw std::logic_error("multidestination worm " + std::to_string(f.packet) +
                             ": no further destination after an absorbing router");
    w.out = b.out;  // routed by its own destination
    w.promote_next = false;
    b.promote = true;
    b.copy = static_cast<std::int8_t>(eject);
  } else {
    b.out = w.out;
    if (w.copy) b.copy = static_cast<std::int8_t>(eject);
  }
  if (f.tail) w = WormIn{};
}

bool InputUnit::eligible(int v, std::uint64_t c, int input, const std::array<OutputUnit, kMaxOutputs>& outputs,
                         const TreeClaim& tree, InputRequest& r) const {
  if (due_of(v) > c) return false;  // arrives later, or not ready yet
  r = InputRequest{};
  const BufferedFlit& b = front(v);
  if (b.consume || b.cs_update) {
    // The barrier unit takes its messages from their arrival on, ready or not.
    r.barrier = true;
  } else if (b.tree) {
    // A tree flit asks for every output its head claimed, or, dropped, for none.
    if (b.ready > c || !tree.claimed(input)) return false;
    const unsigned outs = tree.outputs(input);
    bool credit = true;
    for (unsigned o = outs; o && credit; o &= o - 1) credit = outputs[static_cast<std::size_t>(lowest_bit(o))].has_credit(v);
    if (!credit) return false;
    r.drop = outs == 0;
    r.outputs = static_cast<std::uint16_t>(outs);
  } else {
    // A flit awaiting its lookup is ready at its arrival, after `c`.
    if (b.ready > c) return false;
    const OutputUnit& out = outputs[static_cast<std::size_t>(b.out)];
    // A unicast worm's head takes a free unicast VC of its output (VC allocation), its
    // other flits the one it took; every other flit keeps its VC.
    int ov = v;
    if (b.flit.allocates_vc()) ov = b.flit.head ? out.allocate_unicast() : out_vc(v);
    if (ov < 0 || !out.has_credit(ov) || !out.may_use(ov, b.flit.head || b.promote, input)) return false;
    if (b.copy >= 0 && !outputs[static_cast<std::size_t>(b.copy)].may_use(v, b.flit.head, input)) return false;
    r.outputs = static_cast<std::uint16_t>((1u << b.out) | (b.copy >= 0 ? 1u << b.copy : 0u));
    r.out_vc = static_cast<std::int8_t>(ov);
  }
  r.vc = static_cast<std::int8_t>(v);
  if (r.out_vc < 0) r.out_vc = r.vc;
  return true;
}

InputRequest InputUnit::first_eligible(std::uint64_t c, int input, const std::array<OutputUnit, kMaxOutputs>& outputs,
                                       const TreeClaim& tree) const {
  InputRequest r;
  // Only the VCs holding flits are looked at, in round-robin order from rr_.
  for (unsigned m = rotated_nonempty(); m; m &= m - 1) {
    int v = lowest_bit(m) + rr_;
    if (v >= kMaxVcs) v -= kMaxVcs;
    if (eligible(v, c, input, outputs, tree, r)) return r;
  }
  return InputRequest{};
}

int InputUnit::requests(std::uint64_t c, int input, const std::array<OutputUnit, kMaxOutputs>& outputs,
                        const TreeClaim& tree, std::array<InputRequest, kMaxVcs>& out) const {
  if (earliest_ > c) return 0;
  int n = 0;
  for (unsigned m = rotated_nonempty(); m; m &= m - 1) {
    int v = lowest_bit(m) + rr_;
    if (v >= kMaxVcs) v -= kMaxVcs;
    if (eligible(v, c, input, outputs, tree, out[static_cast<std::size_t>(n)])) ++n;
  }
  return n;
}

bool InputUnit::holds_sync() const {
  for (unsigned m = nonempty_; m; m &= m - 1)
    if (!is_worm_vc(lowest_bit(m))) return true;
  return false;
}

}  // namespace meshsync
