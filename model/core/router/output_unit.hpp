// One output of a router (RTL meshsync_credit_counters and meshsync_vc_owners): the
// credits for the input buffers behind a link, and which input holds each VC.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "../config.hpp"
#include "../flit.hpp"

namespace meshsync {

class OutputUnit {
 public:
  // A link to a neighbour: one credit per slot of the (empty) buffers downstream. Other
  // outputs (Local, an all-port NI's ejection channels) need none: the NI always takes.
  // (After set_unicast_vcs.)
  void connect_link(const RouterParams& p) {
    link_ = true;
    for (int v = 0; v < p.vcs(); ++v) credit(v) = p.depth(v);
  }
  // Every output: the unicast VCs a worm head may take here, and how it chooses.
  void set_unicast_vcs(const RouterParams& p) {
    lanes_ = static_cast<std::uint8_t>(p.unicast_vcs);
    most_credits_ = p.vc_allocation == 1;
    if (p.unicast_vcs > 1) extra_ = std::make_unique<ExtraLanes>(p.unicast_vcs - 1);
  }
  bool link() const { return link_; }

  bool has_credit(int vc) const { return !link_ || credits(vc) > 0; }
  std::uint32_t credits(int vc) const { return const_cast<OutputUnit*>(this)->credit(vc); }
  void take_credit(int vc) {
    if (link_) --credit(vc);
  }
  void return_credit(int vc) { ++credit(vc); }

  // The input holding VC `vc` of this output, or -1 (the barrier emitter is the input
  // after the last).
  int owner(int vc) const { return const_cast<OutputUnit*>(this)->owner_of(vc); }
  // Whether input `i` may put a flit of VC `vc` here now: a head needs the VC free, the
  // other flits of its message need it held by `i`. Every VC follows this rule: a sync
  // message of one flit (every barrier message) takes and frees its VC in one grant, and
  // a reduction message (a sync worm) holds it until its tail like any worm.
  bool may_use(int vc, bool head, int i) const { return owner(vc) == (head ? -1 : i); }
  // VC allocation (docs/microarchitecture.md, "Unicast VCs"): the unicast VC a worm head
  // leaving here takes, free and with a credit, or -1. Round robin from the VC after the
  // one last taken, or the one with the most credits (the lowest on a tie). With one
  // unicast VC: VC 0 when a head may use it.
  int allocate_unicast() const {
    const int lane = pick_lane(
        lanes_, next_lane_, most_credits_,
        [&](int l) { return may_use(unicast_vc(l), true, -1) && has_credit(unicast_vc(l)); },
        [&](int l) { return credits(unicast_vc(l)); });
    return lane < 0 ? -1 : unicast_vc(lane);
  }
  // A flit of input `i` leaves on VC `vc`: a message holds the VC until its tail.
  void pass(int vc, bool tail, int i) {
    std::int8_t& owner = owner_of(vc);
    if (owner == -1 && is_unicast_vc(vc)) next_lane_ = static_cast<std::uint8_t>((unicast_lane(vc) + 1) % lanes_);
    owner = static_cast<std::int8_t>(tail ? -1 : i);
  }
  // A tree head claims the VC for its whole worm (docs/tree-multicast.md).
  void hold(int vc, int i) { owner_of(vc) = static_cast<std::int8_t>(i); }

 private:
  // The unicast VCs after VC 0 (--vcs), held apart and only where a router has them.
  struct ExtraLanes {
    explicit ExtraLanes(std::size_t n) : credits(n, 0), owner(n, -1) {}
    std::vector<std::uint32_t> credits;
    std::vector<std::int8_t> owner;
  };
  std::uint32_t& credit(int vc) {
    return vc < kVcs ? credits_[static_cast<std::size_t>(vc)] : extra_->credits[static_cast<std::size_t>(vc - kVcs)];
  }
  std::int8_t& owner_of(int vc) {
    return vc < kVcs ? owner_[static_cast<std::size_t>(vc)] : extra_->owner[static_cast<std::size_t>(vc - kVcs)];
  }

  std::array<std::uint32_t, kVcs> credits_{};
  std::array<std::int8_t, kVcs> owner_{-1, -1, -1, -1, -1};
  std::unique_ptr<ExtraLanes> extra_;
  bool link_ = false;
  std::uint8_t lanes_ = 1;
  std::uint8_t next_lane_ = 0;
  bool most_credits_ = false;
};

}  // namespace meshsync
