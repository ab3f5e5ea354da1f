// The input and output numbering one router's units share (docs/microarchitecture.md,
// "Ports and virtual channels"), and the round-robin pick every arbiter uses.
#pragma once

#include <cstdint>
#include <limits>

#include "../geometry.hpp"

namespace meshsync {

// A cycle that never comes: nothing is due.
inline constexpr std::uint64_t kNever = std::numeric_limits<std::uint64_t>::max();

// Inputs: the five ports, then injection channels 1..3 of an all-port NI.
inline constexpr int kMaxInputs = kPorts + 3;
// Outputs: the five ports, then (all-port) the ejection channels of inputs 1..4.
inline constexpr int kMaxOutputs = kPorts + 4;
// The outputs that are links to neighbours: they hold credits, and the switch allocator
// decides them before the NI outputs.
inline constexpr unsigned kLinkOutputs = ((1u << kPorts) - 1) & ~(1u << index(Port::Local));

constexpr bool is_link_output(int o) { return o != index(Port::Local) && o < kPorts; }
// Where worms enter from the NI: the Local input and an all-port NI's channels 1..3. Only
// there does a worm head's forced first hop count, and a pop there is the NI's, not a
// credit for a neighbour.
constexpr bool is_injection_input(int i) { return i == 0 || i >= kPorts; }
constexpr int input_of_channel(int channel) { return channel == 0 ? 0 : kPorts + channel - 1; }
constexpr int channel_of_input(int i) { return i == 0 ? 0 : i - kPorts + 1; }

// The first set bit of `mask` at or after `start`, wrapping around; -1 if none (the RTL's
// meshsync_rr_pick).
inline int round_robin_pick(unsigned mask, int start) {
  const unsigned high = mask & (~0u << start);
  const unsigned pick = high ? high : mask;
  return pick ? __builtin_ctz(pick) : -1;
}

// The lowest and highest set bit of a non-empty mask.
inline int lowest_bit(unsigned mask) { return __builtin_ctz(mask); }
inline int highest_bit(unsigned mask) { return 31 - __builtin_clz(mask); }

}  // namespace meshsync
