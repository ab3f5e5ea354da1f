// One output of a router (RTL meshsync_credit_counters and meshsync_vc_owners): the
// credits for the input buffers behind a link, and which input holds each VC.
#pragma once

#include <array>
#include <cstdint>

#include "../config.hpp"
#include "../flit.hpp"

namespace meshsync {

class OutputUnit {
 public:
  // A link to a neighbour: one credit per slot of the (empty) buffers downstream. Other
  // outputs (Local, an all-port NI's ejection channels) need none: the NI always takes.
  void connect_link(const RouterParams& p) {
    link_ = true;
    for (int v = 0; v < kVcs; ++v) credits_[static_cast<std::size_t>(v)] = p.depth(v);
  }
  bool link() const { return link_; }

  bool has_credit(int vc) const { return !link_ || credits_[static_cast<std::size_t>(vc)] > 0; }
  std::uint32_t credits(int vc) const { return credits_[static_cast<std::size_t>(vc)]; }
  void take_credit(int vc) {
    if (link_) --credits_[static_cast<std::size_t>(vc)];
  }
  void return_credit(int vc) { ++credits_[static_cast<std::size_t>(vc)]; }

  // The input holding VC `vc` of this output, or -1 (the barrier emitter is the input
  // after the last).
  int owner(int vc) const { return owner_[static_cast<std::size_t>(vc)]; }
  // Whether input `i` may put a flit of VC `vc` here now: a head needs the VC free, the
  // other flits of its message need it held by `i`. Every VC follows this rule: a sync
  // message of one flit (every barrier message) takes and frees its VC in one grant, and
  // a reduction message (a sync worm) holds it until its tail like any worm.
  bool may_use(int vc, bool head, int i) const { return owner_[static_cast<std::size_t>(vc)] == (head ? -1 : i); }
  // A flit of input `i` leaves on VC `vc`: a message holds the VC until its tail.
  void pass(int vc, bool tail, int i) { owner_[static_cast<std::size_t>(vc)] = static_cast<std::int8_t>(tail ? -1 : i); }
  // A tree head claims the VC for its whole worm (docs/tree-multicast.md).
  void hold(int vc, int i) { owner_[static_cast<std::size_t>(vc)] = static_cast<std::int8_t>(i); }

 private:
  std::array<std::uint32_t, kVcs> credits_{};
  std::array<std::int8_t, kVcs> owner_{-1, -1, -1, -1, -1};
  bool link_ = false;
};

}  // namespace meshsync
