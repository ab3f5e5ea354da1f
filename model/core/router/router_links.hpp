// Where a router's outputs go, as the units see it: an interface of its own, so that a
// unit (the tree claim drops copies through it) depends on nothing above router/.
#pragma once

#include <cstdint>

#include "../flit.hpp"
#include "../geometry.hpp"

namespace meshsync {

// Where a router's outputs go: the mesh (NetworkCore), or a bench that drives one router
// by its ports (the RTL lockstep checker).
class RouterLinks {
 public:
  virtual ~RouterLinks() = default;
  // A flit granted to output `port` in `cycle`. Local, or an all-port router's ejection
  // output (kPorts + input - 1): delivered to the NI in cycle + 1; otherwise in the
  // neighbour's input FIFO in cycle + 1 + tp.
  virtual void flit_out(NodeId from, int port, const Flit& f, std::uint64_t cycle) = 0;
  // A flit popped from non-Local input `port`, VC `vc`, in `cycle`: its credit goes back.
  virtual void credit_out(NodeId from, int port, int vc, std::uint64_t cycle) = 0;
  // A flit popped from injection channel `channel`'s input, VC `vc`, in `cycle` (the
  // RTL's inj_pop_o; the mesh's NI needs nothing back: it injects on room alone).
  virtual void injection_pop(NodeId /*from*/, int /*channel*/, int /*vc*/, std::uint64_t /*cycle*/) {}
  // A copy of tree worm `packet` that will not leave by `output` in `cycle`: the output's
  // tree VC was held by another worm (docs/tree-multicast.md).
  virtual void tree_copy_dropped(NodeId /*from*/, int /*output*/, std::uint64_t /*packet*/,
                                 std::uint64_t /*cycle*/) {}
};

}  // namespace meshsync
