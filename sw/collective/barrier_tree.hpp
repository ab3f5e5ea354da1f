// Barrier trees computed from a member list alone: the BTM (Algorithm 1 of the BTM paper,
// as fixed by NOTES.md) and the CS tree of Yang and King, the baseline. Both are what
// every member would compute for itself; the simulator computes the whole tree once and
// each member programs its own register from it (docs/architecture.md).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "../../model/core/router/barrier_register_file.hpp"
#include "../../model/core/config.hpp"

namespace meshsync {

enum class BarrierScheme { BTM, CS };
BarrierScheme parse_scheme(const std::string& s);  // throws ConfigError
std::string scheme_name(BarrierScheme s);

// The four quadrants of NOTES.md, in their tie-break priority order.
enum class Quadrant : std::uint8_t { PlusX = 0, PlusY = 1, MinusX = 2, MinusY = 3, Centre = 4 };
// Quadrant of a point at offset (dx, dy) from the centre it is split around.
Quadrant quadrant_of(std::int64_t dx, std::int64_t dy);
// Child slot (sync data) and register position of a quadrant: C+X, C-X, C+Y, C-Y.
std::uint8_t child_slot(Quadrant q);
// Reduction route of a child in quadrant q (the R bit); distribution uses the same.
Route route_for(Quadrant q);

// The member nearest the centroid of `members` (exact integer comparison, ties by
// quadrant of the candidate relative to the centroid, then lowest node id).
NodeId choose_root(const MeshShape& mesh, const std::vector<NodeId>& members);

struct TreeNode {
  NodeId node = 0;
  std::optional<NodeId> parent;
  Route r = Route::XY;               // route to the parent in reduction
  std::uint8_t slot = kNoSlot;       // which child of the parent this node is (BTM)
  std::vector<ChildLink> children;   // with the distribution route to each
  int depth = 0;                     // tree edges from the root
  int path_hops = 0;                 // links along the tree path from the root
};

class BarrierTree {
 public:
  BarrierTree(BarrierScheme scheme, const MeshShape& mesh, NodeId root, std::vector<TreeNode> nodes);

  BarrierScheme scheme() const { return scheme_; }
  const MeshShape& mesh() const { return mesh_; }
  NodeId root() const { return root_; }
  int height() const { return height_; }
  // Members in increasing node id.
  const std::vector<TreeNode>& nodes() const { return nodes_; }
  const TreeNode& at(NodeId n) const;
  // A member's position in nodes(): its rank in a communicator of this tree.
  std::size_t rank_of(NodeId n) const;
  bool contains(NodeId n) const;

  // The barrier register this member writes into its router.
  BarrierRegisterSetup register_for(NodeId n, std::uint8_t gid) const;
  // NOTES.md zero-load latency for this very tree, from the common arrival to the last
  // release, when every member has a hardware register.
  std::uint64_t analytic_cycles(const Timing& t) const;
  // The in-network allreduce of `words` words along this BTM tree (docs/reduction-hardware.md,
  // "Timing"): the barrier's latency and the rest of a reduction message of L = 2 + 2W flits
  // behind its head, 2(t_s + B) + L - 1. Exact when t_rm >= exact_reduction_trm_minimum,
  // the sync buffers stream a worm (sync_buffer_depth >= min(L, 2 t_p + t_rn + 1)) and no
  // two reduction messages compete for a port (allreduce_contention is empty).
  std::uint64_t analytic_allreduce_cycles(const Timing& t, std::uint32_t words) const {
    return analytic_cycles(t) + 2 + 2 * std::uint64_t{words} - 1;
  }
  // Links crossed by sync messages in both phases (each edge once up, once down).
  std::uint64_t analytic_hops() const;
  // NOTES.md: the simulator meets analytic_cycles exactly "where no two messages compete
  // for a port". Whether they do, on the schedule the formula assumes (every member
  // arriving at once, no message ever waiting): empty if no two of this tree's sync
  // messages want one router output in one cycle, leave one input in one cycle, meet in
  // one input where one would wait behind the other, or need more of an input's
  // `sync_buffer_depth` slots than it has; otherwise the first such pair, in words. A CS
  // member whose releases leave two children through one port is such a pair (the
  // emitter sends them every other cycle, in child order), and so are two BTM children
  // whose reduction routes meet at one link in one cycle (C-X on the parent's row and
  // C+Y both arrive from -X). With t_rm >= exact_trm_minimum and no contention the
  // simulation takes analytic_cycles exactly (docs/microarchitecture.md, "Exactness").
  std::string contention(const Timing& t, std::uint32_t sync_buffer_depth) const;
  // The same for an in-network allreduce of `words` words along this BTM tree, whose
  // reduction messages are worms of L = 2 + 2W flits with the heads' schedule of a barrier
  // (analytic_allreduce_cycles): two worms compete where they want one output, or leave
  // one input, in overlapping cycles, a worm needs more slots of an input than it has, or
  // one arrives at a member before an earlier one's tail is taken. With t_rm >=
  // exact_reduction_trm_minimum, sync_buffer_depth >= min(L, 2 t_p + t_rn + 1) and no
  // contention the allreduce takes analytic_allreduce_cycles exactly
  // (docs/reduction-hardware.md, "Timing").
  std::string allreduce_contention(const Timing& t, std::uint32_t sync_buffer_depth, std::uint32_t words) const;

 private:
  std::string contention_of(const Timing& t, std::uint32_t sync_buffer_depth, std::uint32_t flits) const;
  BarrierScheme scheme_;
  MeshShape mesh_;
  NodeId root_;
  std::vector<TreeNode> nodes_;
  std::vector<std::int32_t> index_;  // node id -> position in nodes_, -1 if not a member
  int height_ = 0;
};

// What `--exact` adds to "took C cycles, the formula says F" when the tree has a
// `contention` (from contention() or allreduce_contention()): that the formula holds only
// without one, which it is, and where `doc` says more; "" when there is none.
std::string contention_note(const std::string& contention, const std::string& messages, const std::string& doc);

BarrierTree build_btm_tree(const MeshShape& mesh, const std::vector<NodeId>& members);
BarrierTree build_cs_tree(const MeshShape& mesh, const std::vector<NodeId>& members);
BarrierTree build_tree(BarrierScheme s, const MeshShape& mesh, const std::vector<NodeId>& members);

// Algorithm 1 as one member runs it: descend from the group root through the quadrant
// holding `me` until `me` is the local root; return its register. Used to check that
// the whole-tree construction gives every member the register it would compute itself.
BarrierRegisterSetup btm_setup_register(const MeshShape& mesh, const std::vector<NodeId>& members,
                                        NodeId me, std::uint8_t gid);

}  // namespace meshsync
