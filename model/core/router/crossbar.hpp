// The crossbar of one router (RTL meshsync_crossbar), contract step 8: each output
// carries the flit of the requester that won it, an input's front flit or the emitter's
// message. Two flits change on their way: the address flit behind an absorbed head leaves
// on its link as the forwarded worm's head (its copy to the NI stays as it came), and a
// tree worm's copy to a register child is readdressed to the child, with the child's
// route. No state: the grants, the inputs' fronts and the tree claim's children are its
// inputs.
#pragma once

#include "../flit.hpp"
#include "barrier_register_file.hpp"
#include "input_unit.hpp"

namespace meshsync {

class Crossbar {
 public:
  // The flit output `o` carries when an input's front flit `b` won it; `child`: the
  // register child the tree claim readdresses this output's copy to (TreeClaim::child),
  // or nullptr.
  static Flit from_input(int o, const BufferedFlit& b, const ChildLink* child) {
    Flit f = b.flit;
    if (child) {
      f.dest = child->node;
      f.route = child->route;
    }
    if (b.promote && o == b.out) f.head = true;
    return f;
  }
};

}  // namespace meshsync
