// Output arbitration (contract steps 7 and 8; RTL meshsync_switch_allocator): each output
// goes to one requester, round robin over the inputs and the barrier emitter from the one
// after the last winner. A flit that needs several outputs in one cycle (absorbed and
// forwarded, or a tree worm's copies) leaves only if it wins them all.
#pragma once

#include <array>
#include <cstdint>

#include "ports.hpp"

namespace meshsync {

class SwitchAllocator {
 public:
  // `requests[o]`: bit per requester of output `o` (inputs 0..inputs-1, the emitter
  // `inputs`); `asking`: bit per output with a requester; `wants[i]`: every output input
  // `i` asks for. Fills `grant[o]` for the granted outputs and returns their mask; the
  // pointers of granted outputs move past their winner.
  //
  // The links to neighbours are decided first; a flit that also asks for an NI output
  // competes for it only if it won its links, and leaves only if it wins everything (a
  // link it won alone stays idle and keeps its pointer). Deciding the links first means
  // two absorbing flits never hold one output each and wait for each other's.
  //
  // `several`: bit per input that asks for more than one output; without such inputs the
  // outputs are independent and each simply goes to its round-robin winner.
  unsigned allocate(const std::array<std::uint16_t, kMaxOutputs>& requests, unsigned asking,
                    const std::array<std::uint16_t, kMaxInputs>& wants, unsigned several, int inputs,
                    std::array<std::int8_t, kMaxOutputs>& grant);

 private:
  void advance(int o, int winner, int inputs) {
    rr_[static_cast<std::size_t>(o)] = static_cast<std::uint8_t>(winner + 1 == inputs + 1 ? 0 : winner + 1);
  }
  std::array<std::uint8_t, kMaxOutputs> rr_{};  // next requester to favour, per output
};

}  // namespace meshsync
