#include "barrier_tree.hpp"

#include <algorithm>
#include <array>
#include <limits>
#include <tuple>

namespace meshsync {

BarrierScheme parse_scheme(const std::string& s) {
  if (s == "btm") return BarrierScheme::BTM;
  if (s == "cs") return BarrierScheme::CS;
  throw ConfigError("unknown scheme '" + s + "' (expected btm or cs)");
}

std::string scheme_name(BarrierScheme s) { return s == BarrierScheme::BTM ? "btm" : "cs"; }

Quadrant quadrant_of(std::int64_t dx, std::int64_t dy) {
  if (dx > 0 && dy >= 0) return Quadrant::PlusX;
  if (dx <= 0 && dy > 0) return Quadrant::PlusY;
  if (dx < 0 && dy <= 0) return Quadrant::MinusX;
  if (dx >= 0 && dy < 0) return Quadrant::MinusY;
  return Quadrant::Centre;
}

std::uint8_t child_slot(Quadrant q) {
  switch (q) {
    case Quadrant::PlusX: return 0;
    case Quadrant::MinusX: return 1;
    case Quadrant::PlusY: return 2;
    case Quadrant::MinusY: return 3;
    default: return kNoSlot;
  }
}

Route route_for(Quadrant q) {
  return (q == Quadrant::PlusX || q == Quadrant::MinusX) ? Route::XY : Route::YX;
}

NodeId choose_root(const MeshShape& mesh, const std::vector<NodeId>& members) {
  const auto n = static_cast<std::int64_t>(members.size());
  std::int64_t sx = 0, sy = 0;
  for (NodeId m : members) {
    const Coord c = mesh.coord(m);
    sx += c.x;
    sy += c.y;
  }
  // Scaled by n, the centroid has integer coordinates: compare exactly.
  using Key = std::tuple<std::int64_t, int, NodeId>;
  Key best{std::numeric_limits<std::int64_t>::max(), 0, 0};
  for (NodeId m : members) {
    const Coord c = mesh.coord(m);
    const std::int64_t dx = n * c.x - sx, dy = n * c.y - sy;
    const Key k{dx * dx + dy * dy, static_cast<int>(quadrant_of(dx, dy)), m};
    if (k < best) best = k;
  }
  return std::get<2>(best);
}

BarrierTree::BarrierTree(BarrierScheme scheme, const MeshShape& mesh, NodeId root,
                         std::vector<TreeNode> nodes)
    : scheme_(scheme), mesh_(mesh), root_(root), nodes_(std::move(nodes)) {
  std::sort(nodes_.begin(), nodes_.end(),
            [](const TreeNode& a, const TreeNode& b) { return a.node < b.node; });
  index_.assign(static_cast<std::size_t>(mesh_.nodes()), -1);
  for (std::size_t i = 0; i < nodes_.size(); ++i) index_[nodes_[i].node] = static_cast<std::int32_t>(i);
  for (const TreeNode& t : nodes_) height_ = std::max(height_, t.depth);
}

bool BarrierTree::contains(NodeId n) const { return n < index_.size() && index_[n] >= 0; }
const TreeNode& BarrierTree::at(NodeId n) const { return nodes_[rank_of(n)]; }
std::size_t BarrierTree::rank_of(NodeId n) const { return static_cast<std::size_t>(index_[n]); }

BarrierRegisterSetup BarrierTree::register_for(NodeId n, std::uint8_t gid) const {
  const TreeNode& t = at(n);
  BarrierRegisterSetup s;
  s.gid = gid;
  s.transit = scheme_ == BarrierScheme::CS;
  s.parent = t.parent;
  s.parent_route = t.r;
  s.slot_at_parent = t.slot;
  s.children = t.children;
  return s;
}

std::uint64_t BarrierTree::analytic_cycles(const Timing& t) const {
  std::uint64_t worst = 0;
  for (const TreeNode& n : nodes_) {
    const std::uint64_t d = static_cast<std::uint64_t>(n.path_hops);
    const std::uint64_t h = static_cast<std::uint64_t>(n.depth);
    const std::uint64_t path = scheme_ == BarrierScheme::BTM
                                   ? d * t.tp + (d - h) * t.trn + (h + 1) * t.trm
                                   : d * t.tp + (d + 1) * t.trm;
    worst = std::max(worst, path);
  }
  return 2 * (t.ts + worst);
}

std::uint64_t BarrierTree::analytic_hops() const {
  std::uint64_t sum = 0;
  for (const TreeNode& n : nodes_)
    if (n.parent) sum += static_cast<std::uint64_t>(hops(mesh_.coord(n.node), mesh_.coord(*n.parent)));
  return 2 * sum;
}

namespace {

struct BtmBuilder {
  const MeshShape& mesh;
  std::vector<TreeNode> out;

  // Builds the subtree over `set`; returns its root.
  NodeId build(const std::vector<NodeId>& set, const TreeNode* parent, Quadrant q) {
    const NodeId root = choose_root(mesh, set);
    TreeNode t;
    t.node = root;
    if (parent) {
      t.parent = parent->node;
      t.r = route_for(q);
      t.slot = child_slot(q);
      t.depth = parent->depth + 1;
      t.path_hops = parent->path_hops + hops(mesh.coord(parent->node), mesh.coord(root));
    }
    std::array<std::vector<NodeId>, 4> quads;
    const Coord rc = mesh.coord(root);
    for (NodeId m : set) {
      if (m == root) continue;
      const Coord c = mesh.coord(m);
      quads[static_cast<int>(quadrant_of(c.x - rc.x, c.y - rc.y))].push_back(m);
    }
    const std::size_t at = out.size();
    out.push_back(t);
    // Children in slot order: C+X, C-X, C+Y, C-Y.
    for (Quadrant cq : {Quadrant::PlusX, Quadrant::MinusX, Quadrant::PlusY, Quadrant::MinusY}) {
      const auto& qset = quads[static_cast<int>(cq)];
      if (qset.empty()) continue;
      const TreeNode self = out[at];
      const NodeId child = build(qset, &self, cq);
      out[at].children.push_back(ChildLink{child, route_for(cq)});
    }
    return root;
  }
};

}  // namespace

BarrierTree build_btm_tree(const MeshShape& mesh, const std::vector<NodeId>& members) {
  BtmBuilder b{mesh, {}};
  b.out.reserve(members.size());
  const NodeId root = b.build(members, nullptr, Quadrant::Centre);
  return BarrierTree(BarrierScheme::BTM, mesh, root, std::move(b.out));
}

BarrierRegisterSetup btm_setup_register(const MeshShape& mesh, const std::vector<NodeId>& members,
                                        NodeId me, std::uint8_t gid) {
  BarrierRegisterSetup s;
  s.gid = gid;
  std::vector<NodeId> set = members;
  for (;;) {
    const NodeId r = choose_root(mesh, set);
    const Coord rc = mesh.coord(r);
    std::array<std::vector<NodeId>, 4> quads;
    for (NodeId m : set) {
      if (m == r) continue;
      const Coord c = mesh.coord(m);
      quads[static_cast<int>(quadrant_of(c.x - rc.x, c.y - rc.y))].push_back(m);
    }
    if (r == me) {
      for (Quadrant q : {Quadrant::PlusX, Quadrant::MinusX, Quadrant::PlusY, Quadrant::MinusY}) {
        const auto& qset = quads[static_cast<int>(q)];
        if (!qset.empty()) s.children.push_back(ChildLink{choose_root(mesh, qset), route_for(q)});
      }
      return s;
    }
    const Coord mc = mesh.coord(me);
    const Quadrant q = quadrant_of(mc.x - rc.x, mc.y - rc.y);
    s.parent = r;
    s.parent_route = route_for(q);
    s.slot_at_parent = child_slot(q);
    set = std::move(quads[static_cast<int>(q)]);
  }
}

BarrierTree build_cs_tree(const MeshShape& mesh, const std::vector<NodeId>& members) {
  const NodeId root = choose_root(mesh, members);
  const Coord rc = mesh.coord(root);
  std::vector<std::int32_t> slot(static_cast<std::size_t>(mesh.nodes()), -1);
  for (std::size_t i = 0; i < members.size(); ++i) slot[members[i]] = static_cast<std::int32_t>(i);
  const auto quad = [&](Coord c) { return quadrant_of(c.x - rc.x, c.y - rc.y); };

  // Parents are strictly closer to the root, so visiting members by distance to the
  // root finds every parent already placed.
  std::vector<NodeId> order = members;
  std::sort(order.begin(), order.end(), [&](NodeId a, NodeId b) {
    const int da = hops(mesh.coord(a), rc), db = hops(mesh.coord(b), rc);
    return da != db ? da < db : a < b;
  });
  std::vector<TreeNode> nodes(members.size());
  for (NodeId m : order) {
    TreeNode& t = nodes[static_cast<std::size_t>(slot[m])];
    t.node = m;
    if (m == root) continue;
    const Coord mc = mesh.coord(m);
    const Quadrant q = quad(mc);
    const int dm = hops(mc, rc);
    // Search rings of growing radius around m; the root itself lies on ring dm, so the
    // search always ends there at the latest, the root competing in the id tie-break.
    NodeId parent = root;
    for (int radius = 1; radius <= dm; ++radius) {
      NodeId best = std::numeric_limits<NodeId>::max();
      for (int dx = -radius; dx <= radius; ++dx) {
        const int rest = radius - std::abs(dx);
        for (int dy : {-rest, rest}) {
          const Coord c{mc.x + dx, mc.y + dy};
          if (mesh.contains(c)) {
            const NodeId v = mesh.id(c);
            if (v == root || (slot[v] >= 0 && quad(c) == q && hops(c, rc) < dm)) best = std::min(best, v);
          }
          if (rest == 0) break;
        }
      }
      if (best != std::numeric_limits<NodeId>::max()) {
        parent = best;
        break;
      }
    }
    const TreeNode& p = nodes[static_cast<std::size_t>(slot[parent])];
    t.parent = parent;
    t.r = Route::XY;
    t.slot = kNoSlot;
    t.depth = p.depth + 1;
    t.path_hops = p.path_hops + hops(mc, mesh.coord(parent));
    // Distribution retraces the reduction path: XY up, so YX down over the same routers.
    nodes[static_cast<std::size_t>(slot[parent])].children.push_back(ChildLink{m, Route::YX});
  }
  return BarrierTree(BarrierScheme::CS, mesh, root, std::move(nodes));
}

BarrierTree build_tree(BarrierScheme s, const MeshShape& mesh, const std::vector<NodeId>& members) {
  return s == BarrierScheme::BTM ? build_btm_tree(mesh, members) : build_cs_tree(mesh, members);
}

}  // namespace meshsync
