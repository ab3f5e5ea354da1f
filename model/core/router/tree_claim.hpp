// The tree claim (RTL meshsync_tree_claim; docs/tree-multicast.md): a tree worm's head,
// ready at the front of its input's tree VC, claims every output it needs at once, with
// room downstream for the whole worm; the outputs it does not get lose their copy. The
// claimed outputs are then the worm's until its tail.
#pragma once

#include <array>
#include <cstdint>
#include <memory>

#include "barrier_register_file.hpp"
#include "../flit.hpp"
#include "output_unit.hpp"
#include "ports.hpp"
#include "route_unit.hpp"
#include "router_links.hpp"

namespace meshsync {

class InputUnit;

class TreeClaim {
 public:
  // `tree_depth`: the tree VC's buffer depth, so its credits when the buffer is empty.
  explicit TreeClaim(std::uint32_t tree_depth) : depth_(tree_depth) {}

  // One input of `candidates` (bit per input whose tree VC holds a flit) whose front is a
  // ready head not yet claimed claims its outputs: round robin from the input after the
  // last claimant (one CAM lookup and one children read a cycle in hardware). Copies it
  // cannot have are reported to `links`.
  void claim(std::uint64_t c, unsigned candidates, const InputUnit* inputs, int n, const RouteUnit& route,
             const BarrierRegisterFile& cam, std::array<OutputUnit, kMaxOutputs>& outputs, RouterLinks& links);

  bool claimed(int input) const { return at(input).claimed; }
  // Bit per output the worm on `input` leaves by; none: it is dropped here.
  unsigned outputs(int input) const { return at(input).outputs; }
  // The register child that the copy of the worm on `input` leaving by output `o` is
  // readdressed to (the crossbar does it), or nullptr: the copy leaves as it came.
  const ChildLink* child(int input, int o) const {
    const Claim& t = at(input);
    return (t.to_child >> o) & 1u ? &t.child[static_cast<std::size_t>(o)] : nullptr;
  }
  // The worm's tail has left `input`: the input may claim again.
  void release(int input) {
    if (claims_) (*claims_)[static_cast<std::size_t>(input)] = Claim{};
  }

 private:
  struct Claim {
    bool claimed = false;
    std::uint16_t outputs = 0;   // bit per output
    std::uint16_t to_child = 0;  // outputs whose copy is readdressed to a child
    std::array<ChildLink, kPorts> child{};
  };
  const Claim& at(int input) const {
    static const Claim kNone{};
    return claims_ ? (*claims_)[static_cast<std::size_t>(input)] : kNone;
  }

  // Allocated with the first claim: most routers never see a tree worm (wafer-scale
  // barriers).
  std::unique_ptr<std::array<Claim, kMaxInputs>> claims_;
  std::uint32_t depth_;
  std::uint8_t rr_ = 0;  // the input after the last claimant
};

}  // namespace meshsync
