// Output arbitration (contract steps 7 and 8; RTL meshsync_switch_allocator): each output
// goes to one requester, round robin over the inputs and the barrier emitter from the one
// after the last winner. A flit that needs several outputs in one cycle (absorbed and
// forwarded, or a tree worm's copies) leaves only if it wins them all.
//
// That is the separable input-first allocator (each input has offered one VC's flit
// before the outputs choose). The matching allocators (RouterParams::switch_allocator,
// docs/microarchitecture.md "Switch allocators"; the model only) let an input offer a
// flit of each VC that can move and match inputs to outputs: iSLIP (McKeown's, as
// BookSim2 runs it: grant and accept round robin, pointers moved by first-iteration
// matches only) and wavefront (Tamir's: diagonals of the input x output matrix from a
// rotating priority diagonal).
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

  // The matching allocators' kinds (RouterParams::switch_allocator's values).
  enum Kind : std::uint8_t { kSeparable = 0, kIslip = 1, kWavefront = 2 };
  void set_kind(Kind kind, int islip_iterations, int outputs) {
    kind_ = kind;
    iterations_ = islip_iterations;
    outputs_ = outputs;
  }
  Kind kind() const { return kind_; }
  // A matching (iSLIP or wavefront): as allocate(), but `wants[i]` of an input not in
  // `several` holds one output per VC it could send from, and the input gets at most one
  // of them; an input in `several` gets all of wants[i] or none; the emitter (requester
  // `inputs`) may win every output it offers on.
  unsigned match(const std::array<std::uint16_t, kMaxOutputs>& requests, unsigned asking,
                 const std::array<std::uint16_t, kMaxInputs>& wants, unsigned several, int inputs,
                 std::array<std::int8_t, kMaxOutputs>& grant);

 private:
  void advance(int o, int winner, int inputs) {
    rr_[static_cast<std::size_t>(o)] = static_cast<std::uint8_t>(winner + 1 == inputs + 1 ? 0 : winner + 1);
  }
  unsigned islip(const std::array<std::uint16_t, kMaxOutputs>& requests, unsigned asking,
                 const std::array<std::uint16_t, kMaxInputs>& wants, unsigned several, int inputs,
                 std::array<std::int8_t, kMaxOutputs>& grant);
  unsigned wavefront(const std::array<std::uint16_t, kMaxOutputs>& requests, unsigned asking,
                     const std::array<std::uint16_t, kMaxInputs>& wants, unsigned several, int inputs,
                     std::array<std::int8_t, kMaxOutputs>& grant);

  std::array<std::uint8_t, kMaxOutputs> rr_{};  // next requester to favour, per output (iSLIP: grant pointers)
  std::array<std::uint8_t, kMaxInputs> accept_{};  // iSLIP: next output each input favours
  std::uint8_t priority_ = 0;                      // wavefront: the diagonal served first
  Kind kind_ = kSeparable;
  int iterations_ = 1;
  int outputs_ = kPorts;
};

}  // namespace meshsync
