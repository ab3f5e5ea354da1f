#include "path_multicast.hpp"

#include <algorithm>
#include <optional>
#include <set>

#include "../../model/core/config.hpp"

namespace meshsync {

std::string algorithm_name(MulticastAlgorithm a) {
  switch (a) {
    case MulticastAlgorithm::DP: return "dp";
    case MulticastAlgorithm::MP: return "mp";
    case MulticastAlgorithm::CP: return "cp";
    case MulticastAlgorithm::QG: return "qg";
  }
  return "?";
}

std::string address_flits_name(AddressFlits a) { return a == AddressFlits::OnTop ? "on-top" : "within"; }
std::string qg_routing_name(QgRouting r) { return r == QgRouting::Snake ? "snake" : "e-cube"; }
std::string sender_busy_name(SenderBusy b) { return b == SenderBusy::StartUps ? "startups" : "delivery"; }

std::uint64_t paper_prep_cycles(MulticastAlgorithm a) {
  switch (a) {
    case MulticastAlgorithm::DP: return 2;
    case MulticastAlgorithm::MP: return 4;
    case MulticastAlgorithm::CP: return 8;
    case MulticastAlgorithm::QG: return 16;
  }
  return 0;
}

int MulticastPlan::startups() const {
  int most = 0;
  for (const MulticastStep& s : steps) most = std::max(most, s.startups);
  return most;
}

std::size_t MulticastPlan::worms() const {
  std::size_t n = 0;
  for (const MulticastStep& s : steps) n += s.worms.size();
  return n;
}

std::uint64_t MulticastPlan::hops() const {
  std::uint64_t n = 0;
  for (const MulticastStep& s : steps)
    for (const Worm& w : s.worms) n += static_cast<std::uint64_t>(w.hops());
  return n;
}

void check_multicast(const MeshShape& mesh, NodeId source, const std::vector<NodeId>& dests) {
  const auto where = [&](NodeId n) {
    const Coord c = mesh.coord(n);
    return "(" + std::to_string(c.x) + "," + std::to_string(c.y) + ")";
  };
  if (source >= static_cast<NodeId>(mesh.nodes())) throw ConfigError("the source is outside the mesh");
  if (dests.empty()) throw ConfigError("a multicast needs at least one destination");
  std::set<NodeId> seen;
  for (NodeId d : dests) {
    if (d >= static_cast<NodeId>(mesh.nodes())) throw ConfigError("a destination is outside the mesh");
    if (d == source) throw ConfigError("the source " + where(d) + " is among the destinations");
    if (!seen.insert(d).second) throw ConfigError("destination " + where(d) + " is listed twice");
  }
}

namespace {

// Adds the nodes from the worm's current end to `to` (excluded, included) to the path.
template <class Next>
void extend(const MeshShape& mesh, Worm& w, Coord from, Coord to, Next next) {
  for (Coord c = from; c != to;) {
    c = next(c, to);
    w.path.push_back(mesh.id(c));
  }
}

// A worm from `sender` visiting `dests` in order along the snake subnetwork `s`, after an
// optional forced first hop (MP).
Worm snake_worm(const MeshShape& mesh, NodeId sender, const std::vector<NodeId>& dests, Subnetwork s,
                std::optional<Port> first_hop = std::nullopt) {
  Worm w;
  w.subnetwork = s;
  w.dests = dests;
  Coord at = mesh.coord(sender);
  if (first_hop) {
    w.first_hop = *first_hop;
    at = step(at, *first_hop);
    w.path.push_back(mesh.id(at));
  }
  const auto next = [&](Coord c, Coord to) { return snake_next(mesh, c, to, s); };
  for (NodeId d : dests) {
    extend(mesh, w, at, mesh.coord(d), next);
    at = mesh.coord(d);
    w.dest_hops.push_back(w.hops());
  }
  return w;
}

// A worm from `sender` visiting `dests` in order along XY paths (CP).
Worm xy_worm(const MeshShape& mesh, NodeId sender, const std::vector<NodeId>& dests) {
  Worm w;
  w.xy = true;
  w.dests = dests;
  Coord at = mesh.coord(sender);
  const auto next = [](Coord c, Coord to) { return step(c, next_port(c, to, Route::XY)); };
  for (NodeId d : dests) {
    extend(mesh, w, at, mesh.coord(d), next);
    at = mesh.coord(d);
    w.dest_hops.push_back(w.hops());
  }
  return w;
}

// Destinations sorted by snake label, ascending or descending.
std::vector<NodeId> by_label(const MeshShape& mesh, std::vector<NodeId> v, bool ascending) {
  std::sort(v.begin(), v.end(), [&](NodeId a, NodeId b) {
    const int la = snake_label(mesh, mesh.coord(a)), lb = snake_label(mesh, mesh.coord(b));
    return ascending ? la < lb : la > lb;
  });
  return v;
}

MulticastStep step_of(NodeId sender, std::vector<Worm> worms, int job_step, int startups) {
  MulticastStep s;
  s.sender = sender;
  s.job_step = job_step;
  s.startups = startups;
  s.worms = std::move(worms);
  return s;
}

std::vector<Worm> multi_path_worms(const MeshShape& mesh, NodeId source, const std::vector<NodeId>& dests) {
  const Coord s = mesh.coord(source);
  const int ls = snake_label(mesh, s);
  // f: the direction the source's row runs in; the quadrants mirror on odd rows.
  const int f = s.y % 2 == 0 ? 1 : -1;
  const Port ahead = f > 0 ? Port::PlusX : Port::MinusX;
  std::vector<NodeId> q1, q2, q3, q4;
  for (NodeId d : dests) {
    const Coord c = mesh.coord(d);
    if (snake_label(mesh, c) > ls) ((c.x - s.x) * f > 0 ? q1 : q2).push_back(d);
    else ((c.x - s.x) * f < 0 ? q3 : q4).push_back(d);
  }
  std::vector<Worm> worms;
  const auto add = [&](const std::vector<NodeId>& q, Subnetwork sub, Port first) {
    if (!q.empty()) worms.push_back(snake_worm(mesh, source, by_label(mesh, q, sub == Subnetwork::High), sub, first));
  };
  add(q1, Subnetwork::High, ahead);
  add(q2, Subnetwork::High, Port::PlusY);
  add(q3, Subnetwork::Low, opposite(ahead));
  add(q4, Subnetwork::Low, Port::MinusY);
  return worms;
}

// CP: per destination column, the worm to the rows at or above the source's and the one
// to the rows below, each delivering outwards from the source's row; columns by x.
std::vector<Worm> column_path_worms(const MeshShape& mesh, NodeId source, const std::vector<NodeId>& dests) {
  const Coord s = mesh.coord(source);
  std::map<std::pair<int, int>, std::vector<NodeId>> sets;  // (column, 0 = U / 1 = L)
  for (NodeId d : dests) {
    const Coord c = mesh.coord(d);
    sets[{c.x, c.y >= s.y ? 0 : 1}].push_back(d);
  }
  std::vector<Worm> worms;
  for (auto& [key, set] : sets) {
    std::sort(set.begin(), set.end(), [&](NodeId a, NodeId b) {
      return std::abs(mesh.coord(a).y - s.y) < std::abs(mesh.coord(b).y - s.y);
    });
    worms.push_back(xy_worm(mesh, source, set));
  }
  return worms;
}

}  // namespace

std::vector<Worm> dual_path_worms(const MeshShape& mesh, NodeId sender, const std::vector<NodeId>& dests) {
  const int ls = snake_label(mesh, mesh.coord(sender));
  std::vector<NodeId> high, low;
  for (NodeId d : dests) (snake_label(mesh, mesh.coord(d)) > ls ? high : low).push_back(d);
  std::vector<Worm> worms;
  if (!high.empty()) worms.push_back(snake_worm(mesh, sender, by_label(mesh, high, true), Subnetwork::High));
  if (!low.empty()) worms.push_back(snake_worm(mesh, sender, by_label(mesh, low, false), Subnetwork::Low));
  return worms;
}

std::uint64_t worm_data_flits(const Worm& w, std::uint64_t flits, AddressFlits a) {
  return a == AddressFlits::Within ? flits - w.dests.size() : flits;
}

void check_worm_length(std::uint64_t flits, std::size_t destinations, AddressFlits a) {
  if (a == AddressFlits::Within && flits <= destinations)
    throw ConfigError("--addresses within needs more flits than destinations (a worm's " +
                      std::to_string(destinations) + " address flits and a data flit within its " +
                      std::to_string(flits) + " flits)");
}

MulticastPlan plan_multicast(MulticastAlgorithm a, const MeshShape& mesh, NodeId source,
                             const std::vector<NodeId>& dests, double threshold, QgRouting qg_routing) {
  check_multicast(mesh, source, dests);
  MulticastPlan plan;
  plan.algorithm = a;
  plan.source = source;
  switch (a) {
    case MulticastAlgorithm::DP:
      plan.steps.push_back(step_of(source, dual_path_worms(mesh, source, dests), 0, 1));
      break;
    case MulticastAlgorithm::MP:
      plan.steps.push_back(step_of(source, multi_path_worms(mesh, source, dests), 0, 1));
      break;
    case MulticastAlgorithm::CP: {
      // One start-up per kInjectionChannels worms, in column order.
      const std::vector<Worm> all = column_path_worms(mesh, source, dests);
      for (std::size_t i = 0; i < all.size(); i += kInjectionChannels) {
        const auto end = all.begin() + static_cast<std::ptrdiff_t>(std::min(all.size(), i + kInjectionChannels));
        const int j = static_cast<int>(i / kInjectionChannels);
        plan.steps.push_back(step_of(source, std::vector<Worm>(all.begin() + static_cast<std::ptrdiff_t>(i), end), j, j + 1));
      }
      break;
    }
    case MulticastAlgorithm::QG: {
      // Phase 4: the source reaches every representative, then each representative the
      // rest of its group, both by the DP rule (its two lists, on the snake or XY).
      const auto worms = [&](NodeId sender, const std::vector<NodeId>& to) {
        std::vector<Worm> w = dual_path_worms(mesh, sender, to);
        if (qg_routing == QgRouting::Ecube)
          for (Worm& one : w) one = xy_worm(mesh, sender, one.dests);
        return w;
      };
      plan.groups = qg_partition(mesh, source, dests, threshold);
      std::vector<NodeId> reps;
      for (const QualifiedGroup& g : plan.groups.groups) reps.push_back(g.nearest);
      plan.steps.push_back(step_of(source, worms(source, reps), 0, 1));
      for (const QualifiedGroup& g : plan.groups.groups) {
        std::vector<NodeId> rest;
        for (NodeId m : g.members)
          if (m != g.nearest) rest.push_back(m);
        if (!rest.empty()) plan.steps.push_back(step_of(g.nearest, worms(g.nearest, rest), 0, 2));
      }
      break;
    }
  }
  return plan;
}

namespace {

// Every destination's arrival, counted from the multicast call: a step ends `prep +
// startup * (j + 1)` cycles after its sender was reached (the source: at the call), and
// `arrive(step, worm, i, end)` gives the cycle of the tail at the worm's i-th
// destination (i = 0, 1, ... for each worm in turn). Steps come after the step that
// reached their sender (plan order).
template <class Arrive>
std::map<NodeId, std::uint64_t> arrivals_of(const MulticastPlan& plan, std::uint64_t prep,
                                            std::uint64_t startup, Arrive arrive) {
  std::map<NodeId, std::uint64_t> at;
  for (const MulticastStep& s : plan.steps) {
    const std::uint64_t reached = s.sender == plan.source ? 0 : at.at(s.sender);
    const std::uint64_t end = reached + prep + startup * static_cast<std::uint64_t>(s.job_step + 1);
    for (std::size_t w = 0; w < s.worms.size(); ++w)
      for (std::size_t i = 0; i < s.worms[w].dests.size(); ++i) at[s.worms[w].dests[i]] = arrive(s, w, i, end);
  }
  return at;
}

}  // namespace

WormBase Worm::base() const {
  if (xy) return WormBase::XY;
  return subnetwork == Subnetwork::High ? WormBase::High : WormBase::Low;
}

std::map<NodeId, std::uint64_t> zero_load_arrivals(const MulticastPlan& plan, const MulticastTiming& t) {
  return arrivals_of(plan, t.prep, t.startup, [&](const MulticastStep& s, std::size_t w, std::size_t i, std::uint64_t end) {
    return end + static_cast<std::uint64_t>(s.worms[w].dest_hops[i]) * t.hop + t.flits;
  });
}

std::map<NodeId, std::uint64_t> router_zero_load_arrivals(const MulticastPlan& plan, const Timing& t,
                                                          std::uint64_t prep, std::uint64_t data_flits,
                                                          std::uint32_t ni_ports, AddressFlits addresses) {
  // When each (sender, injection channel) has taken the last flit it was given: a worm
  // enters behind the flits of earlier worms on its channel, one flit a cycle.
  std::map<std::pair<NodeId, std::size_t>, std::uint64_t> channel_free;
  std::uint64_t entry = 0;  // of the worm being visited
  return arrivals_of(plan, prep, t.ts, [&](const MulticastStep& s, std::size_t w, std::size_t i, std::uint64_t end) {
    const Worm& worm = s.worms[w];
    const std::uint64_t length = worm.dests.size() + worm_data_flits(worm, data_flits, addresses);
    if (i == 0) {
      std::uint64_t& free = channel_free[{s.sender, w % ni_ports}];
      entry = std::max(end, free);
      free = entry + length;
    }
    const auto h = static_cast<std::uint64_t>(worm.dest_hops[i]);
    return entry + h * t.tp + (h + 1) * t.trn + (length - 1);
  });
}

}  // namespace meshsync
