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
    return Communicator{gid, scheme, std::make_shared<const BarrierTree>(build_tree(scheme, mesh, members)),
                        std::make_shared<CollectiveCalls>(gid, members.size())};
  }
  throw ConfigError("all 256 group ids are in use: free a communicator first");
}

void GroupTable::free(const Communicator& c) { used_[c.gid] = false; }

void CollectiveCalls::check_and_record(std::size_t rank, const std::string& call) {
  if (calls_made_by_rank_.size() <= rank) calls_made_by_rank_.resize(rank + 1, 0);
  const std::size_t k = calls_made_by_rank_[rank];
  // A call is forgotten only once this rank has made it too: k >= first_open_.
  const std::size_t i = k - first_open_;
  if (i == open_.size()) {
    open_.push_back(Call{call, rank, 0});
  } else if (open_[i].what != call) {
    throw ConfigError("rank " + std::to_string(rank) + " calls \"" + call + "\" as its call " + std::to_string(k + 1) +
                      " on group " + std::to_string(gid_) + ", where rank " + std::to_string(open_[i].first_caller) +
                      " called \"" + open_[i].what + "\": every rank must make the same call");
  }
  ++open_[i].made_by;
  ++calls_made_by_rank_[rank];
  while (!open_.empty() && open_.front().made_by == members_) {
    open_.pop_front();
    ++first_open_;
  }
}

std::size_t GroupTable::live() const {
  return static_cast<std::size_t>(std::count(used_.begin(), used_.end(), true));
}

void join(Node& node, const Communicator& c, std::function<void(bool)> done) {
  const TreeNode& me = c.tree->at(node.id());
  node.program_barrier(c.tree->register_for(node.id(), c.gid),
                       [&node, &c, &me, done = std::move(done)](bool in_hardware) {
                         if (c.scheme == BarrierScheme::CS && me.parent)
                           node.cs_path(c.gid, *me.parent, true, [done, in_hardware] { done(in_hardware); });
                         else
                           done(in_hardware);
                       });
}

void leave(Node& node, const Communicator& c, std::function<void()> done) {
  const TreeNode& me = c.tree->at(node.id());
  const auto free = [&node, &c, done = std::move(done)] { node.free_barrier(c.gid, done); };
  if (c.scheme == BarrierScheme::CS && me.parent) node.cs_path(c.gid, *me.parent, false, free);
  else free();
}

void barrier(Node& node, const Communicator& c, std::function<void(std::uint64_t)> done) {
  node.barrier(c.gid, std::move(done));
}

namespace {
// A non-blocking step, waited for by the calling thread.
template <typename Result, typename Step>
Result blocking(Step step) {
  Result result{};
  bool finished = false;
  sc_core::sc_event done;
  step([&](Result r) {
    result = r;
    finished = true;
    done.notify();
  });
  while (!finished) sc_core::wait(done);
  return result;
}
}  // namespace

bool join(Node& node, const Communicator& c) {
  return blocking<bool>([&](auto done) { join(node, c, done); });
}

void leave(Node& node, const Communicator& c) {
  blocking<bool>([&](auto done) { leave(node, c, [done] { done(true); }); });
}

std::uint64_t barrier(Node& node, const Communicator& c) {
  return blocking<std::uint64_t>([&](auto done) { barrier(node, c, done); });
}

}  // namespace meshsync
