#include "switch_allocator.hpp"

#include <algorithm>

namespace meshsync {

unsigned SwitchAllocator::allocate(const std::array<std::uint16_t, kMaxOutputs>& requests, unsigned asking,
                                   const std::array<std::uint16_t, kMaxInputs>& wants, unsigned several, int inputs,
                                   std::array<std::int8_t, kMaxOutputs>& grant) {
  if (several == 0) {
    for (unsigned m = asking; m; m &= m - 1) {
      const int o = lowest_bit(m);
      const int w = round_robin_pick(requests[static_cast<std::size_t>(o)], rr_[static_cast<std::size_t>(o)]);
      grant[static_cast<std::size_t>(o)] = static_cast<std::int8_t>(w);
      advance(o, w, inputs);
    }
    return asking;
  }
  const unsigned input_bits = (1u << inputs) - 1;
  std::array<std::int8_t, kMaxOutputs> winner;
  winner.fill(-1);
  const auto won_all = [&](int i, unsigned outs) {
    for (unsigned m = outs; m; m &= m - 1)
      if (winner[static_cast<std::size_t>(lowest_bit(m))] != i) return false;
    return true;
  };
  const auto arbitrate = [&](int o, unsigned req) {
    winner[static_cast<std::size_t>(o)] = static_cast<std::int8_t>(round_robin_pick(req, rr_[static_cast<std::size_t>(o)]));
  };
  for (unsigned m = asking & kLinkOutputs; m; m &= m - 1) {
    const int o = lowest_bit(m);
    arbitrate(o, requests[static_cast<std::size_t>(o)]);
  }
  for (unsigned m = asking & ~kLinkOutputs; m; m &= m - 1) {
    const int o = lowest_bit(m);
    unsigned req = requests[static_cast<std::size_t>(o)];
    for (unsigned r = req & input_bits; r; r &= r - 1) {
      const int i = lowest_bit(r);
      if (!won_all(i, wants[static_cast<std::size_t>(i)] & kLinkOutputs)) req &= ~(1u << i);
    }
    if (req) arbitrate(o, req);
    else asking &= ~(1u << o);
  }
  unsigned granted = 0;
  for (unsigned m = asking; m; m &= m - 1) {
    const int o = lowest_bit(m);
    const int w = winner[static_cast<std::size_t>(o)];
    if (w < inputs && !won_all(w, wants[static_cast<std::size_t>(w)])) continue;
    grant[static_cast<std::size_t>(o)] = static_cast<std::int8_t>(w);
    granted |= 1u << o;
  }
  for (unsigned m = granted; m; m &= m - 1) {
    const int o = lowest_bit(m);
    advance(o, grant[static_cast<std::size_t>(o)], inputs);
  }
  return granted;
}

unsigned SwitchAllocator::match(const std::array<std::uint16_t, kMaxOutputs>& requests, unsigned asking,
                                const std::array<std::uint16_t, kMaxInputs>& wants, unsigned several, int inputs,
                                std::array<std::int8_t, kMaxOutputs>& grant) {
  return kind_ == kIslip ? islip(requests, asking, wants, several, inputs, grant)
                         : wavefront(requests, asking, wants, several, inputs, grant);
}

unsigned SwitchAllocator::islip(const std::array<std::uint16_t, kMaxOutputs>& requests, unsigned asking,
                                const std::array<std::uint16_t, kMaxInputs>& wants, unsigned several, int inputs,
                                std::array<std::int8_t, kMaxOutputs>& grant) {
  unsigned matched_out = 0, matched_in = 0;
  for (int it = 0; it < iterations_; ++it) {
    // Grant: each unmatched output offers itself to the first unmatched requester from its
    // pointer.
    std::array<std::uint16_t, kMaxInputs + 1> granted{};  // per requester: outputs offered
    bool any = false;
    for (unsigned m = asking & ~matched_out; m; m &= m - 1) {
      const int o = lowest_bit(m);
      const unsigned req = requests[static_cast<std::size_t>(o)] & ~matched_in;
      if (!req) continue;
      const int w = round_robin_pick(req, rr_[static_cast<std::size_t>(o)]);
      granted[static_cast<std::size_t>(w)] = static_cast<std::uint16_t>(granted[static_cast<std::size_t>(w)] | (1u << o));
      any = true;
    }
    if (!any) break;
    // Accept: an input takes the first offer from its pointer (one flit: all its outputs
    // or none); the emitter takes every offer (a message per port).
    for (int w = 0; w <= inputs; ++w) {
      const unsigned offered = granted[static_cast<std::size_t>(w)];
      if (!offered) continue;
      unsigned take;
      if (w == inputs) take = offered;
      else if (several & (1u << w)) take = (offered & wants[static_cast<std::size_t>(w)]) == wants[static_cast<std::size_t>(w)] ? wants[static_cast<std::size_t>(w)] : 0;
      else take = 1u << round_robin_pick(offered, accept_[static_cast<std::size_t>(w)]);
      if (!take) continue;
      if (w < inputs) matched_in |= 1u << w;
      for (unsigned m = take; m; m &= m - 1) {
        const int o = lowest_bit(m);
        grant[static_cast<std::size_t>(o)] = static_cast<std::int8_t>(w);
        matched_out |= 1u << o;
        // Only the first iteration's matches move the pointers (so that they desynchronise).
        if (it == 0) advance(o, w, inputs);
      }
      if (it == 0 && w < inputs && !(several & (1u << w))) {
        const int o = lowest_bit(take);
        accept_[static_cast<std::size_t>(w)] = static_cast<std::uint8_t>(o + 1 == outputs_ ? 0 : o + 1);
      }
    }
  }
  return matched_out;
}

unsigned SwitchAllocator::wavefront(const std::array<std::uint16_t, kMaxOutputs>& requests, unsigned asking,
                                    const std::array<std::uint16_t, kMaxInputs>& wants, unsigned several, int inputs,
                                    std::array<std::int8_t, kMaxOutputs>& grant) {
  // A square matrix of requesters (the inputs, then the emitter) by outputs; diagonal d
  // holds the cells (w, (w + priority + d) mod n). A cell is granted when its requester
  // asks for its output and neither is taken yet: each diagonal's cells share no row
  // and no column, so one diagonal is one step of the hardware's wave.
  const int n = std::max(inputs + 1, outputs_);
  unsigned matched_out = 0, matched_in = 0;
  for (int d = 0; d < n; ++d) {
    for (int w = 0; w <= inputs; ++w) {
      const int o = (w + priority_ + d) % n;
      if (o >= outputs_ || !(asking & (1u << o)) || (matched_out & (1u << o))) continue;
      if (!(requests[static_cast<std::size_t>(o)] & (1u << w))) continue;
      unsigned take = 1u << o;
      if (w < inputs) {
        if (matched_in & (1u << w)) continue;
        if (several & (1u << w)) {
          take = wants[static_cast<std::size_t>(w)];
          if (take & matched_out) continue;  // one of its outputs is gone: it waits
        }
        matched_in |= 1u << w;
      }
      for (unsigned m = take; m; m &= m - 1) {
        const int k = lowest_bit(m);
        grant[static_cast<std::size_t>(k)] = static_cast<std::int8_t>(w);
        matched_out |= 1u << k;
      }
    }
  }
  priority_ = static_cast<std::uint8_t>(priority_ + 1 == n ? 0 : priority_ + 1);
  return matched_out;
}

}  // namespace meshsync
