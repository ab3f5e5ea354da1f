// Communicators: a member list, a group id (GID) unique among live groups, a barrier
// scheme and the tree every member derives from the member list.
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "../collective/barrier_tree.hpp"
#include "node.hpp"

namespace meshsync {

// MPI's rule for collectives: every member makes the same calls on a communicator, in the
// same order. The first member to make its k-th call sets what call k is; a member whose
// k-th call differs is told so before it sends anything (with different operations,
// types, lengths or roots the ranks would combine wrongly or wait forever). A refused call
// is not made: the member may call again. Calls every member has made are forgotten.
class CollectiveCalls {
 public:
  CollectiveCalls(std::uint8_t gid, std::size_t members) : gid_(gid), members_(members) {}
  // Checks and records the next call of rank `rank` (`call` says what it is, e.g.
  // "allreduce sum of 4 int32 elements (ring)"); throws ConfigError naming both calls on
  // a mismatch.
  void check_and_record(std::size_t rank, const std::string& call);

 private:
  std::uint8_t gid_;
  std::size_t members_;
  struct Call {
    std::string what;
    std::size_t first_caller = 0;
    std::size_t made_by = 0;  // members that have made it
  };
  std::deque<Call> open_;                  // calls some member has not made yet
  std::size_t first_open_ = 0;             // the number of open_.front()
  std::vector<std::size_t> calls_made_by_rank_;
};

struct Communicator {
  std::uint8_t gid = 0;
  BarrierScheme scheme = BarrierScheme::BTM;
  std::shared_ptr<const BarrierTree> tree;
  // Shared by every copy of the communicator, as its members share one group.
  std::shared_ptr<CollectiveCalls> calls;

  const std::vector<TreeNode>& members() const { return tree->nodes(); }
  bool contains(NodeId n) const { return tree->contains(n); }
};

// Hands out the 256 GIDs of the sync message format; a GID is reused only after its
// group was freed.
class GroupTable {
 public:
  // Throws ConfigError for an empty or invalid member list, or when all GIDs are live.
  Communicator create(const MeshShape& mesh, std::vector<NodeId> members, BarrierScheme scheme);
  void free(const Communicator& c);
  std::size_t live() const;

 private:
  std::array<bool, 256> used_{};
  std::uint8_t next_ = 0;
};

// Per-member steps, each written once as non-blocking software on the node's
// non-blocking transport (`done` runs when the step has finished; `c` must outlive it),
// and usable as blocking calls from a software thread (SC_THREAD).
// join: write this member's barrier register (CS: also set up the routers on the path
// to its parent). Gives false if the router had no free register (software fallback).
void join(Node& node, const Communicator& c, std::function<void(bool)> done);
void leave(Node& node, const Communicator& c, std::function<void()> done);
// Gives the cycle at which this member was released.
void barrier(Node& node, const Communicator& c, std::function<void(std::uint64_t)> done);

bool join(Node& node, const Communicator& c);
void leave(Node& node, const Communicator& c);
std::uint64_t barrier(Node& node, const Communicator& c);

}  // namespace meshsync
