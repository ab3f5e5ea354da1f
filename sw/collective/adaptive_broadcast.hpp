// Figueira & Mendes' adaptive binomial tree over the ranks of a communicator on the mesh:
// the distance matrix in cycles, first from the mesh (hops - 1, A1), then from the
// latencies measured on the tree's own edges; an edge that got dearer is swapped away
// (A3). Pure: it is told the measured latencies, it never simulates.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "../../model/core/config.hpp"
#include "adaptive_tree.hpp"
#include "broadcast_tree.hpp"
#include "tree_swapping.hpp"

namespace meshsync {

// Zero-load latency of a worm of `flits` flits over `hops` links, from the send call to
// the tail's delivery (docs/microarchitecture.md: the head enters the router after the
// start-up ts, leaves after trn, then tp + trn a hop, is delivered a cycle after leaving
// the last router; the rest follows one flit a cycle).
std::uint64_t zero_load_latency(const Timing& t, int hops, std::uint64_t flits);

// What one round of adaptation did.
struct AdaptStep {
  int raised = 0;         // tree edges measured dearer than the matrix said (beyond jitter)
  int searches = 0;       // swapping searches run (an edge whose rise raised the tree cost)
  int swaps = 0;          // swaps kept
  int steps = 0;          // trials over all searches
  adaptive::Cost cost_before = 0, cost_after = 0;  // tree cost before and after, cycles
};

class AdaptiveBroadcast {
 public:
  // rank_nodes[r] = the mesh node of rank r. The distance between ranks u and v starts as
  // (hops - 1) * (tp + trn) cycles: the paper's "hops - 1" in the unit latencies are
  // measured in, so a measurement on an idle mesh confirms it exactly.
  AdaptiveBroadcast(const MeshShape& mesh, const Timing& timing, const std::vector<NodeId>& rank_nodes,
                    Rank root, adaptive::Swapping swapping);
  // The tree keeps a pointer to the matrix beside it.
  AdaptiveBroadcast(const AdaptiveBroadcast&) = delete;
  AdaptiveBroadcast& operator=(const AdaptiveBroadcast&) = delete;

  // The tree in ranks. Each rank sends to its children largest subtree first (MPICH's
  // order: higher positions first); the cost model itself has no send order (A1).
  BroadcastTree tree() const;
  const adaptive::AdaptiveTree& placement() const { return tree_; }
  adaptive::Cost cost() const { return tree_.cost(); }

  // After a broadcast: latency[r] = send call to tail delivery of the first packet on
  // the edge into rank r (none for the root), for worms of `flits` flits. Each becomes
  // that edge's distance (the latency beyond a one-hop message's), one edge at a time. A
  // decrease is only recorded (A3); a rise of more than `jitter` cycles that raises the
  // tree's cost starts the swapping strategy with the cost before the rise as its target.
  AdaptStep observe(const std::vector<std::optional<std::uint64_t>>& latency, std::uint64_t flits,
                    std::uint64_t jitter);

  // Told the links' extra latencies (as a link monitor would report them): every pair's
  // distance becomes its hops - 1 estimate plus the extras of the links its XY route
  // crosses; the tree edges that got dearer are then swapped for one by one, in position
  // order, as the paper adapts to one link at a time.
  struct LinkLatency {
    NodeId node;
    Port port;
    std::uint32_t extra;
  };
  AdaptStep observe_links(const std::vector<LinkLatency>& links);

 private:
  struct EdgeCost {
    adaptive::Node a, b;  // a the parent
    std::uint32_t cost;
  };
  AdaptStep update_edges(const std::vector<EdgeCost>& edges, std::uint64_t jitter);
  MeshShape mesh_;
  std::vector<NodeId> nodes_;
  Timing timing_;
  adaptive::Swapping swapping_;
  adaptive::DistanceMatrix d_;
  adaptive::AdaptiveTree tree_;
};

}  // namespace meshsync
