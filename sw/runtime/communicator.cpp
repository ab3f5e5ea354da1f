#include "communicator.hpp"

#include <algorithm>

namespace meshsync {

Communicator GroupTable::create(const MeshShape& mesh, std::vector<NodeId> members,
                                BarrierScheme scheme) {
  if (members.empty()) throw ConfigError("a communicator needs at least one member");
  std::sort(members.begin(), members.end());
  if (std::adjacent_find(members.begin(), members.end()) != members.end())
    throw ConfigError("a communicator lists a member twice");
  for (NodeId m : members)
    if (m >= static_cast<NodeId>(mesh.nodes()))
      throw ConfigError("member " + std::to_string(m) + " is outside the mesh");
  for (int k = 0; k < 256; ++k) {
    const auto gid = static_cast<std::uint8_t>(next_ + k);
    if (used_[gid]) continue;
    used_[gid] = true;
    next_ = static_cast<std::uint8_t>(gid + 1);
    return Communicator{gid, scheme,
                        std::make_shared<const BarrierTree>(build_tree(scheme, mesh, members))};
  }
  throw ConfigError("all 256 group ids are in use: free a communicator first");
}

void GroupTable::free(const Communicator& c) { used_[c.gid] = false; }

std::size_t GroupTable::live() const {
  return static_cast<std::size_t>(std::count(used_.begin(), used_.end(), true));
}

bool join(Node& node, const Communicator& c) {
  const TreeNode& me = c.tree->at(node.id());
  const bool hw = node.program_barrier(c.tree->register_for(node.id(), c.gid));
  if (c.scheme == BarrierScheme::CS && me.parent) node.cs_path(c.gid, *me.parent, true);
  return hw;
}

void leave(Node& node, const Communicator& c) {
  const TreeNode& me = c.tree->at(node.id());
  if (c.scheme == BarrierScheme::CS && me.parent) node.cs_path(c.gid, *me.parent, false);
  node.free_barrier(c.gid);
}

std::uint64_t barrier(Node& node, const Communicator& c) { return node.barrier(c.gid); }

}  // namespace meshsync
