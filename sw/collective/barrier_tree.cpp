#include "barrier_tree.hpp"

#include <algorithm>
#include <array>
#include <limits>
#include <tuple>
#include <unordered_map>

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

// The zero-load schedule of one barrier or allreduce (BarrierTree::contention): every
// sync message's cycles at every router it crosses, as the formula has them, and what they
// share. A message is a worm of `flits` flits (1 for a barrier's, L = 2 + 2W for a
// reduction message with a vector), its body streaming a flit a cycle behind its head: it
// holds an output, and leaves an input, for `flits` cycles from its head's, and the
// barrier unit takes it one flit a cycle (docs/reduction-hardware.md, "Timing").
class ZeroLoadSchedule {
 public:
  ZeroLoadSchedule(const MeshShape& mesh, const Timing& t, bool cs) : mesh_(mesh), t_(t), cs_(cs) {}

  // A message the emitter of `from` sends in cycle `sent`, routed `r` to `to`'s barrier
  // unit (or, from == to, to the NI); returns its arrival cycle there. Routers between
  // delay it t_rn, or t_rm on a CS path (every router of a CS edge holds the group's
  // entry); the register at `to` takes it in its arrival cycle.
  std::uint64_t send(NodeId from, NodeId to, Route r, std::uint64_t sent, bool release, std::uint32_t flits = 1) {
    const std::size_t msg = messages_.size();
    messages_.push_back({from, to, release});
    Coord here = mesh_.coord(from);
    const Coord dest = mesh_.coord(to);
    if (from == to) {
      output(from, Port::Local, {sent, flits, msg});
      return sent + 1;
    }
    const int vc = 1 + static_cast<int>(r);  // Flit::vc() of a sync message
    for (;;) {
      const Port out = next_port(here, dest, r);
      output(mesh_.id(here), out, {sent, flits, msg});
      here = step(here, out);
      const std::uint64_t arrival = sent + 1 + t_.tp;  // NetworkCore::flit_out
      const Port in = opposite(out);
      if (here == dest) {
        input(to, in, {arrival, arrival, vc, true, msg, flits});
        return arrival;
      }
      sent = arrival + (cs_ ? t_.trm : t_.trn) - 1;
      input(mesh_.id(here), in, {arrival, sent, vc, false, msg, flits});
    }
  }
  // A member's own arrival or the root's release, entering from the NI in cycle `at`.
  void from_ni(NodeId n, std::uint64_t at, bool release, std::uint32_t flits = 1) {
    const std::size_t msg = messages_.size();
    messages_.push_back({n, n, release});
    input(n, Port::Local, {at, at, 0, true, msg, flits});
  }

  // The earliest pair of messages that compete, in words; empty if none.
  std::string competing(std::uint32_t depth) const {
    Found f;
    // Two worms through one output take turns, flit by flit or worm by worm.
    for (const auto& [key, uses] : outputs_)
      for (std::size_t j = 0; j < uses.size(); ++j)
        for (std::size_t i = 0; i < j; ++i)
          if (overlap(uses[i].cycle, uses[i].flits, uses[j].cycle, uses[j].flits))
            f.offer(std::max(uses[i].cycle, uses[j].cycle), key, uses[i].msg, uses[j].msg, "both leave through");
    for (const auto& [key, uses] : inputs_) {
      const bool link = port_at(static_cast<int>(key % kPorts)) != Port::Local;
      for (std::size_t j = 0; j < uses.size(); ++j) {
        const Use& b = uses[j];
        // Every flit of b needs a free slot when it is sent upstream.
        std::uint64_t full_at = 0;
        for (std::uint32_t k = 0; link && k < b.flits && full_at == 0; ++k) {
          const std::uint64_t sent = b.first + k;  // as its arrival: the upstream send + 1 + t_p
          std::uint64_t outstanding = 0;
          for (const Use& a : uses)
            if (a.vc == b.vc) outstanding += a.holding(sent, t_.tp);
          if (outstanding > depth) full_at = sent;
        }
        if (full_at != 0) f.offer(full_at, key, b.msg, b.msg, "finds every sync buffer slot taken at input");
        for (std::size_t i = 0; i < uses.size(); ++i) {
          const Use& a = uses[i];
          // One flit leaves an input a cycle (forwarded, or taken by the barrier unit).
          if (i < j && overlap(a.last, a.flits, b.last, b.flits))
            f.offer(std::max(a.last, b.last), key, a.msg, b.msg, "both leave input");
          // A message for the barrier unit waits behind one on its VC that is still
          // being delayed there or streaming out, and is not taken while the other leaves.
          if (i != j && b.to_unit && !a.to_unit && a.first <= b.first && b.first <= a.last + a.flits - 1 &&
              (a.vc == b.vc || a.last <= b.first + b.flits - 1))
            f.offer(b.first, key, a.msg, b.msg, "meet at input");
        }
      }
    }
    // The barrier unit takes one flit a cycle, round robin over the inputs, and a
    // batch is due at the ready of the message that completes it: one that arrives while
    // an earlier one still waits can be taken first, and the batch then leaves before the
    // later one's t_rm has passed (docs/microarchitecture.md, "Exactness").
    for (auto [router, arrivals] : unit_) {
      std::sort(arrivals.begin(), arrivals.end());
      std::uint64_t taken = 0;
      // A worm is taken a flit a cycle and counted at its tail. Round robin alternates
      // between two inputs, so a worm of which a flit is taken before a later one arrives
      // has its tail taken first; one that arrives before an earlier one's first flit is
      // taken (at the latest when every worm before it is, `start`) may complete the batch
      // behind it.
      for (std::size_t i = 0; i < arrivals.size(); ++i) {
        const auto [first, flits, msg] = arrivals[i];
        const std::uint64_t start = i == 0 ? first : std::max(first, taken + 1);
        taken = start + flits - 1;
        for (std::size_t j = i + 1; j < arrivals.size() && std::get<0>(arrivals[j]) <= start; ++j)
          if (std::get<0>(arrivals[j]) > first) {
            f.offer(std::get<0>(arrivals[j]), key_of(router, Port::Local), msg, std::get<2>(arrivals[j]),
                    "may be taken out of order by the barrier unit,");
            break;
          }
      }
    }
    return f.text.empty() ? f.text : text(f);
  }

 private:
  struct Message {
    NodeId from, to;
    bool release;
  };
  struct Found {
    std::uint64_t cycle = std::numeric_limits<std::uint64_t>::max(), key = 0;
    std::size_t a = 0, b = 0;
    std::string text;  // how they compete; empty: nothing found
    void offer(std::uint64_t c, std::uint64_t k, std::size_t x, std::size_t y, const char* how) {
      if (!text.empty() && std::tie(cycle, key, a, b) <= std::tie(c, k, x, y)) return;
      cycle = c, key = k, a = x, b = y, text = how;
    }
  };
  struct Use {
    std::uint64_t first, last;  // in the input buffer from the head's arrival to its departure
    int vc;
    bool to_unit;  // taken by the barrier unit on arrival
    std::size_t msg;
    std::uint32_t flits;  // the body follows a flit a cycle
    // Of this worm's flits, how many hold a sync buffer slot of the input when a flit sent
    // upstream arrives in cycle `at`: each from its own upstream send (its arrival - 1 -
    // t_p) on, and until its credit is back there (its departure + 1 + t_p,
    // NetworkCore::credit_out), sent no later than that flit.
    std::uint64_t holding(std::uint64_t at, std::uint32_t tp) const {
      // Flit k holds one iff first + k <= at < last + k + 2 (1 + t_p).
      if (at < first) return 0;
      const std::uint64_t hi = std::min<std::uint64_t>(flits - 1, at - first);
      const std::uint64_t back = 2 * (1 + std::uint64_t{tp});
      const std::uint64_t lo = at + 1 > last + back ? at + 1 - last - back : 0;
      return hi >= lo ? hi - lo + 1 : 0;
    }
  };
  struct Output {
    std::uint64_t cycle;  // the head's
    std::uint32_t flits;
    std::size_t msg;
  };
  static bool overlap(std::uint64_t a, std::uint32_t fa, std::uint64_t b, std::uint32_t fb) {
    return a < b + fb && b < a + fa;
  }
  static std::uint64_t key_of(NodeId n, Port p) { return std::uint64_t{n} * kPorts + static_cast<std::uint64_t>(index(p)); }
  void output(NodeId n, Port p, const Output& o) { outputs_[key_of(n, p)].push_back(o); }
  void input(NodeId n, Port p, const Use& u) {
    inputs_[key_of(n, p)].push_back(u);
    if (u.to_unit) unit_[n].push_back({u.first, u.flits, u.msg});
  }
  std::string where(NodeId n) const {
    const Coord c = mesh_.coord(n);
    return "(" + std::to_string(c.x) + "," + std::to_string(c.y) + ")";
  }
  std::string message_text(std::size_t m) const {
    const Message& x = messages_[m];
    if (x.from == x.to) return std::string(x.release ? "the local release at " : "the local arrival at ") + where(x.from);
    return std::string(x.release ? "the release from " : "the arrival from ") + where(x.from) + " to " + where(x.to);
  }
  std::string text(const Found& f) const {
    const std::string who = f.a == f.b ? message_text(f.a) : message_text(f.a) + " and " + message_text(f.b);
    const NodeId router = static_cast<NodeId>(f.key / kPorts);
    if (f.text.back() == ',') return who + " " + f.text + " at router " + where(router);
    const std::string port(port_name(port_at(static_cast<int>(f.key % kPorts))));
    return who + " " + f.text + " " + port + " of router " + where(router) + " in one cycle";
  }

  const MeshShape& mesh_;
  Timing t_;
  bool cs_;
  std::vector<Message> messages_;
  std::unordered_map<std::uint64_t, std::vector<Output>> outputs_;
  std::unordered_map<std::uint64_t, std::vector<Use>> inputs_;
  std::unordered_map<NodeId, std::vector<std::tuple<std::uint64_t, std::uint32_t, std::size_t>>> unit_;  // arrival, flits, message
};

}  // namespace

std::string BarrierTree::contention(const Timing& t, std::uint32_t sync_buffer_depth) const {
  return contention_of(t, sync_buffer_depth, 1);
}

std::string BarrierTree::allreduce_contention(const Timing& t, std::uint32_t sync_buffer_depth,
                                              std::uint32_t words) const {
  return contention_of(t, sync_buffer_depth, 2 + 2 * words);
}

std::string BarrierTree::contention_of(const Timing& t, std::uint32_t sync_buffer_depth, std::uint32_t flits) const {
  // Parents before children; the reduction runs the other way. `flits`: 1 for a barrier,
  // L for an allreduce, whose messages are all L flits but the root's to its own NI and
  // the root NI's release, which are heads only (docs/reduction-hardware.md, "Message
  // format").
  std::vector<const TreeNode*> order;
  order.reserve(nodes_.size());
  for (const TreeNode& n : nodes_) order.push_back(&n);
  std::stable_sort(order.begin(), order.end(), [](const TreeNode* a, const TreeNode* b) { return a->depth < b->depth; });
  const bool cs = scheme_ == BarrierScheme::CS;
  // Reduction: every member's process arrives in cycle 0; a register's batch is due
  // t_rm - 1 after the arrival that completes it (docs/microarchitecture.md).
  std::vector<std::uint64_t> due(nodes_.size(), t.trm - 1);
  ZeroLoadSchedule up(mesh_, t, cs);
  for (auto it = order.rbegin(); it != order.rend(); ++it) {
    const TreeNode& n = **it;
    up.from_ni(n.node, 0, false, flits);
    const std::uint64_t d = due[rank_of(n.node)];
    const std::uint64_t arrival =
        n.parent ? up.send(n.node, *n.parent, n.r, d, false, flits) : up.send(n.node, n.node, n.r, d, false);
    if (n.parent) {
      std::uint64_t& p = due[rank_of(*n.parent)];
      p = std::max(p, arrival + t.trm - 1);
    }
  }
  if (std::string c = up.competing(sync_buffer_depth); !c.empty()) return c;
  // Distribution: the root's release enters from its NI; every child's release leaves in
  // its batch's due cycle, the local release with it at a leaf and otherwise in the cycle
  // after every child's tail (Emitter::offer_batch).
  ZeroLoadSchedule down(mesh_, t, cs);
  std::vector<std::uint64_t> reached(nodes_.size(), 0);
  down.from_ni(root_, 0, true);
  for (const TreeNode* n : order) {
    const std::uint64_t d = reached[rank_of(n->node)] + t.trm - 1;
    for (const ChildLink& c : n->children)
      reached[rank_of(c.node)] = down.send(n->node, c.node, c.route, d, true, flits);
    down.send(n->node, n->node, Route::XY, n->children.empty() ? d : d + flits, true, flits);
  }
  return down.competing(sync_buffer_depth);
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

std::string contention_note(const std::string& contention, const std::string& messages, const std::string& doc) {
  if (contention.empty()) return {};
  return "; it holds only where no two " + messages + " compete for a port, and here " + contention + " (" + doc + ")";
}

}  // namespace meshsync
