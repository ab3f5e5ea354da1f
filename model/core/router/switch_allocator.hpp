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
  unsigned allocate(const std::array<std::uint16_t, kMaxOutputs>& requests, unsigned asking,
                    const std::array<std::uint16_t, kMaxInputs>& wants, int inputs,
                    std::array<std::int8_t, kMaxOutputs>& grant);

 private:
  std::array<std::uint8_t, kMaxOutputs> rr_{};  // next requester to favour, per output
};

}  // namespace meshsync
