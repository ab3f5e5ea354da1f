// One input of a router (RTL meshsync_input_port with its meshsync_input_buffer per VC
// and its meshsync_rr_arbiter over the VCs): the VC buffers, what each flit does here, decided as it
// arrives (contract step 3), and the one VC the input offers each cycle (step 4).
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "barrier_register_file.hpp"
#include "../config.hpp"
#include "../flit.hpp"
#include "../flit_fifo.hpp"
#include "output_unit.hpp"
#include "route_unit.hpp"

namespace meshsync {

class TreeClaim;

struct BufferedFlit {
  Flit flit;
  std::uint64_t ready = 0;  // first cycle it may leave the buffer (awaiting its lookup: its arrival)
  // Where it goes: output `out`, unless a flag below says otherwise (the RTL's request
  // flags req_consume and req_tree; the other two are what the RTL's buffer entry learns
  // later: its arrival cycle's CAM lookup, and follow_q at the front).
  std::int8_t out = 0;
  bool consume = false;  // the barrier unit takes it (CONSUME)
  bool tree = false;     // a tree worm's: the outputs its head claimed (TreeClaim)
  bool lookup = false;   // a sync head before its CAM lookup (InputUnit::classify_arrivals)
  // A reduction message's body flit (a sync worm): it goes where its head went, the barrier
  // unit or an output, which is known once the head has left the buffer.
  bool follow = false;
  // A multidestination worm absorbed here and forwarded: the flit also goes to this
  // ejection output, in the same cycle as to `out` (both granted, or neither).
  std::int8_t copy = -1;
  // The first flit forwarded after an absorbing head: it leaves on `out` as a head.
  bool promote = false;
  // A CS setup/teardown passing through: the barrier unit opens/closes its transit
  // entry before the message may leave.
  bool cs_update = false;
};

// What an arriving flit's classification reads: the router's place, its delays and the
// register file as it is at the start of the arrival cycle.
struct ArrivalContext {
  const RouteUnit& route;
  const Timing& timing;
  const BarrierRegisterFile& cam;
};

// An input's request in one cycle (contract step 4).
struct InputRequest {
  std::int8_t vc = -1;          // -1: none
  std::int8_t out_vc = -1;      // the VC it takes at its output (a unicast worm's: allocated)
  bool barrier = false;         // for the barrier unit
  bool drop = false;            // a dropped tree worm's flit: popped through no output
  std::uint16_t outputs = 0;    // bit per output it needs, all in one cycle
};

// The heads that go through the allocation pipeline's head stages: ordinary and
// multidestination worms' (sync messages and tree worms keep t_rn and t_rm alone, so the
// papers' barrier formulas hold whatever the pipeline).
inline bool runs_head_stages(const Flit& f) { return f.head && !f.sync && !f.tree; }

class InputUnit {
 public:
  // `trn`: a forwarded flit's delay, which a sync body flit learns only at the front.
  void set_capacities(const RouterParams& p, std::uint32_t trn) {
    if (p.unicast_vcs > 1) extra_ = std::make_unique<ExtraVcs>(p.unicast_vcs - 1);
    for (int v = 0; v < p.vcs(); ++v) fifo(v).set_capacity(p.depth(v));
    trn_ = trn;
    head_stages_ = p.head_stages();
  }
  bool empty() const { return nonempty_ == 0; }
  bool full(int vc) const { return fifo(vc).full(); }
  std::size_t room(int vc) const { return fifo(vc).capacity() - fifo(vc).size(); }
  int out_vc(int vc) const { return out_vc_[static_cast<std::size_t>(unicast_lane(vc))]; }
  std::size_t size(int vc) const { return fifo(vc).size(); }
  const BufferedFlit& front(int vc) const { return fifo(vc).front(); }
  // For the barrier unit, which may relabel the front or clear its mark: refresh_front()
  // once it has.
  BufferedFlit& front(int vc) { return fifo(vc).front(); }
  void refresh_front(int vc) {
    std::uint64_t& due = due_of(vc);
    if (fifo(vc).empty()) {
      due = kNever;
    } else {
      BufferedFlit& b = fifo(vc).front();
      if (b.follow) follow_head(b);
      // A head for the barrier unit has arrived (it was looked up); a body flit for it may
      // still be on its way: the unit takes it from its arrival on.
      due = (b.consume && b.flit.head) || b.cs_update ? 0 : b.ready;
    }
    earliest_ = *std::min_element(due_.begin(), due_.end());
    if (extra_) earliest_ = std::min(earliest_, *std::min_element(extra_->due.begin(), extra_->due.end()));
  }

  // Step 3: a flit in this input's buffer from `arrival` on. A sync flit waits for its CAM
  // lookup in that cycle (classify_arrivals); worms need none. Returns the first cycle it
  // may leave (for a sync flit, its arrival: the owner runs us then).
  std::uint64_t accept(const Flit& f, std::uint64_t arrival, int input, const ArrivalContext& ctx);
  bool awaits_lookup() const { return unrouted_ != 0; }
  // Every sync flit that has arrived by `c` is looked up in the registers as they are now
  // (the start of its arrival cycle: the owner runs the router in every arrival cycle).
  void classify_arrivals(std::uint64_t c, int input, const ArrivalContext& ctx);

  // Step 4: the first VC, round robin from the one after the last served, whose front
  // flit can move now.
  InputRequest request(std::uint64_t c, int input, const std::array<OutputUnit, kMaxOutputs>& outputs,
                       const TreeClaim& tree) const {
    // Most inputs of a busy router hold only flits still on their way here.
    return earliest_ > c ? InputRequest{} : first_eligible(c, input, outputs, tree);
  }
  // Every VC whose front flit can move now, in the same round-robin order (the matching
  // switch allocators, RouterParams::switch_allocator): their number, written to `out`.
  int requests(std::uint64_t c, int input, const std::array<OutputUnit, kMaxOutputs>& outputs, const TreeClaim& tree,
               std::array<InputRequest, kMaxVcs>& out) const;
  // The front flit of `vc` leaves in cycle `c`; the next VC is favoured from now on.
  void pop(int vc, std::uint64_t c) {
    auto& q = fifo(vc);
    const BufferedFlit& b = q.front();
    if (b.flit.sync && b.flit.head && !b.flit.tail) sync_follow_[sync_vc_index(vc)] = Follow{b.out, b.consume};
    q.pop();
    // A worm head's stages begin when it reaches the front, in the cycle the flit before
    // it traverses the switch (the last cycle of that flit's t_rn), and its own t_rn
    // follows them (the allocation pipeline; with no stages its t_rn ran while it waited).
    if (head_stages_ > 0 && !q.empty() && runs_head_stages(q.front().flit))
      q.front().ready = std::max(q.front().ready, c + head_stages_ + trn_ - 1);
    if (q.empty()) nonempty_ = static_cast<std::uint16_t>(nonempty_ & ~(1u << vc));
    rr_ = static_cast<std::uint8_t>(vc + 1 == kMaxVcs ? 0 : vc + 1);
    refresh_front(vc);
  }
  // A unicast worm's head left `vc` on output VC `out_vc`: its other flits follow there.
  void hold_out_vc(int vc, int out_vc) { out_vc_[static_cast<std::size_t>(unicast_lane(vc))] = static_cast<std::int8_t>(out_vc); }

  // The earliest cycle in which a front flit may be served: `c` for a message the barrier
  // unit takes (from its arrival on), else the front's ready cycle; kNever when empty.
  std::uint64_t earliest_front(std::uint64_t c) const { return earliest_ == 0 ? c : earliest_; }
  bool holds_sync() const;

 private:
  // Per worm VC (0 and 3), what the flits of the worm now arriving do (set by its head).
  struct WormIn {
    std::int8_t out = -1;
    bool copy = false;          // absorbed here as well
    bool promote_next = false;  // the next flit is the forwarded worm's head
  };
  FlitFifo<BufferedFlit>& fifo(int vc) {
    return vc < kVcs ? vcs_[static_cast<std::size_t>(vc)] : extra_->fifo[static_cast<std::size_t>(vc - kVcs)];
  }
  const FlitFifo<BufferedFlit>& fifo(int vc) const { return const_cast<InputUnit*>(this)->fifo(vc); }
  std::uint64_t& due_of(int vc) {
    return vc < kVcs ? due_[static_cast<std::size_t>(vc)] : extra_->due[static_cast<std::size_t>(vc - kVcs)];
  }
  std::uint64_t due_of(int vc) const { return const_cast<InputUnit*>(this)->due_of(vc); }
  InputRequest first_eligible(std::uint64_t c, int input, const std::array<OutputUnit, kMaxOutputs>& outputs,
                              const TreeClaim& tree) const;
  // VC `v`'s request in cycle `c`, if its front flit can move now.
  bool eligible(int v, std::uint64_t c, int input, const std::array<OutputUnit, kMaxOutputs>& outputs,
                const TreeClaim& tree, InputRequest& r) const;
  // The VCs holding flits, rotated so that bit 0 is the VC to favour (rr_).
  unsigned rotated_nonempty() const {
    return ((unsigned{nonempty_} >> rr_) | (unsigned{nonempty_} << (kMaxVcs - rr_))) & ((1u << kMaxVcs) - 1);
  }
  void classify(BufferedFlit& b, int input, std::uint64_t arrival, const ArrivalContext& ctx) const;
  void classify_worm(BufferedFlit& b, int input, const ArrivalContext& ctx);
  // A sync body flit at the front: the barrier unit takes it from its arrival on, an
  // output from its arrival + t_rn - 1, as any forwarded flit.
  void follow_head(BufferedFlit& b) const {
    const Follow& head = sync_follow_[sync_vc_index(b.flit.vc())];
    b.out = head.out;
    b.consume = head.consume;
    b.follow = false;
    if (!b.consume) b.ready += trn_ - 1;
  }

  std::array<FlitFifo<BufferedFlit>, kVcs> vcs_;
  // Per VC, the first cycle its front may be served (0: the barrier unit's, at once;
  // kNever: empty), and their minimum: a summary kept beside the buffers so that a cycle
  // reads the flits only of the VCs that can move.
  std::array<std::uint64_t, kVcs> due_{kNever, kNever, kNever, kNever, kNever};
  // The unicast VCs after VC 0 (--vcs): held apart, and only by a router that has them,
  // so that the papers' router stays as small (a 1024x1024 mesh holds a million inputs).
  struct ExtraVcs {
    explicit ExtraVcs(std::size_t n) : fifo(n), due(n, kNever) {}
    std::vector<FlitFifo<BufferedFlit>> fifo;
    std::vector<std::uint64_t> due;
  };
  std::unique_ptr<ExtraVcs> extra_;
  // Per unicast VC (by lane), the output VC its worm's head took (VC allocation).
  std::array<std::int8_t, kMaxUnicastVcs> out_vc_{};
  std::uint64_t earliest_ = kNever;
  std::array<WormIn, 2> worms_{};  // VCs kWormVc and kSnakeVc
  // Per sync VC, where the reduction message now arriving went: the barrier unit or an
  // output (set as its head leaves the buffer; the RTL's follow_q).
  struct Follow {
    std::int8_t out = 0;
    bool consume = true;
  };
  std::array<Follow, 2> sync_follow_{};
  std::uint32_t trn_ = 1;
  std::uint32_t head_stages_ = 0;  // RouterParams::head_stages()
  std::uint16_t nonempty_ = 0;     // bit per VC
  std::uint16_t unrouted_ = 0;     // bit per VC holding flits that await their lookup
  std::uint8_t rr_ = 0;            // next VC to favour
};

}  // namespace meshsync
