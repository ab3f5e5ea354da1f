#include "switch_allocator.hpp"

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

}  // namespace meshsync
