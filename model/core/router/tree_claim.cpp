#include "tree_claim.hpp"

#include "input_unit.hpp"
#include "router_links.hpp"

namespace meshsync {

void TreeClaim::claim(std::uint64_t c, unsigned candidates, const InputUnit* inputs, int n, const RouteUnit& route,
                      const BarrierRegisterFile& cam, std::array<OutputUnit, kMaxOutputs>& outputs,
                      RouterLinks& links) {
  // A claimed output's tree VC never waits for anything but the crossbar, which keeps
  // tree worms out of every dependency cycle (docs/tree-multicast.md). The others claim in
  // later cycles, against the outputs claimed by then.
  for (int k = 0; k < n; ++k) {
    const int i = (rr_ + k) % n;
    if (!((candidates >> i) & 1u) || at(i).claimed) continue;
    const BufferedFlit& b = inputs[i].front(kTreeVc);
    if (!b.flit.head || b.ready > c) continue;
    const Flit& f = b.flit;
    if (!claims_) claims_ = std::make_unique<std::array<Claim, kMaxInputs>>();
    Claim& t = (*claims_)[static_cast<std::size_t>(i)];
    t = Claim{};
    t.claimed = true;
    unsigned want = 0;
    if (f.dest != route.id()) {
      want = 1u << index(route.port(f));
    } else {
      want = 1u << route.eject_output(i);
      // The CAM is looked up as the head claims (the registers as they are at the start
      // of the cycle); no member register: the NI alone gets the worm.
      const int r = cam.lookup(f.gid);
      const BarrierRegister* reg = r >= 0 ? &cam.at(r) : nullptr;
      if (reg && reg->member())
        for (const ChildLink& ch : reg->setup().children) {
          const int p = index(route.port_to(ch.node, ch.route));
          // A register listing this router among its children (not a BTM register) gets
          // no copy for it: the NI's copy is the worm as it came.
          if (p == index(Port::Local)) continue;
          // Two children behind one port (not a BTM register): the later one's copy.
          if ((want >> p) & 1u) links.tree_copy_dropped(route.id(), p, f.packet, c);
          want |= 1u << p;
          t.to_child = static_cast<std::uint16_t>(t.to_child | (1u << p));
          t.child[static_cast<std::size_t>(p)] = ch;
        }
    }
    for (unsigned m = want; m; m &= m - 1) {
      const int o = lowest_bit(m);
      OutputUnit& out = outputs[static_cast<std::size_t>(o)];
      // Room for the whole worm: the buffer behind the output is empty (a tree worm is never
      // longer than it, and the RTL's head has no length field to compare with).
      const bool room = !out.link() || out.credits(kTreeVc) == depth_;
      if (out.owner(kTreeVc) < 0 && room) {
        out.hold(kTreeVc, i);
        t.outputs = static_cast<std::uint16_t>(t.outputs | (1u << o));
      } else {
        links.tree_copy_dropped(route.id(), o, f.packet, c);
      }
    }
    rr_ = static_cast<std::uint8_t>((i + 1) % n);
    return;
  }
}

}  // namespace meshsync
