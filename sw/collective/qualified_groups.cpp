#include "qualified_groups.hpp"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <string>

#include <fmt/format.h>

namespace meshsync {

namespace {

int coord_in(Coord c, int dim) { return dim == 0 ? c.x : c.y; }

// mid_i = ceil((l_i + u_i) / 2): both halves non-empty whenever l_i < u_i.
int middle(int lo, int hi) { return (lo + hi + 1) / 2; }

// Splits `members` at the middle of their own range in `dim` (the lower part first);
// empty parts are left out.
std::vector<std::vector<NodeId>> cut(const MeshShape& mesh, const std::vector<NodeId>& members, int dim,
                                     int mid) {
  std::vector<NodeId> lower, upper;
  for (NodeId n : members) (coord_in(mesh.coord(n), dim) < mid ? lower : upper).push_back(n);
  std::vector<std::vector<NodeId>> out;
  for (auto* part : {&lower, &upper})
    if (!part->empty()) out.push_back(std::move(*part));
  return out;
}

int own_middle(const MeshShape& mesh, const std::vector<NodeId>& members, int dim) {
  int lo = coord_in(mesh.coord(members.front()), dim), hi = lo;
  for (NodeId n : members) {
    lo = std::min(lo, coord_in(mesh.coord(n), dim));
    hi = std::max(hi, coord_in(mesh.coord(n), dim));
  }
  return middle(lo, hi);
}

// p_n and p_f of a group (hops to the source; ties to the lowest id) and its weight.
QualifiedGroup weigh(const MeshShape& mesh, NodeId source, std::vector<NodeId> members) {
  QualifiedGroup g;
  const Coord p = mesh.coord(source);
  std::sort(members.begin(), members.end());
  g.nearest = g.furthest = members.front();
  for (NodeId n : members) {
    if (hops(mesh.coord(n), p) < hops(mesh.coord(g.nearest), p)) g.nearest = n;
    if (hops(mesh.coord(n), p) > hops(mesh.coord(g.furthest), p)) g.furthest = n;
  }
  const int ext = hops(mesh.coord(g.nearest), p);
  const int internal = hops(mesh.coord(g.furthest), mesh.coord(g.nearest)) + static_cast<int>(members.size());
  g.weight = ext + internal;
  g.members = std::move(members);
  return g;
}

// T as numerator / denominator from its shortest round-trip decimal (fmt's "{}"), at most
// 17 digits. A T below 10^-8 is 0 here: the weights of a mesh's groups sum to less than
// 10^8, so T sum < 1 and only a weight on the average qualifies either way; the products
// below then stay under 10^38.
__extension__ typedef __int128 Wide;
struct DecimalFraction {
  Wide numerator = 0, denominator = 1;
};

DecimalFraction exact_decimal(double t) {
  std::string text = fmt::format("{}", t);
  int exponent = 0;
  if (const auto e = text.find_first_of("eE"); e != std::string::npos) {
    exponent = std::stoi(text.substr(e + 1));
    text.resize(e);
  }
  DecimalFraction f;
  int fraction_digits = 0;
  bool after_point = false;
  for (const char c : text) {
    if (c == '.') {
      after_point = true;
    } else {
      f.numerator = f.numerator * 10 + (c - '0');
      fraction_digits += after_point;
    }
  }
  const int scale = fraction_digits - exponent;  // t = numerator / 10^scale
  if (scale > 25) return {};
  for (int k = scale; k > 0; --k) f.denominator *= 10;
  for (int k = scale; k < 0; ++k) f.numerator *= 10;
  return f;
}

}  // namespace

bool qg_qualified(int weight, long long sum, std::size_t count, double threshold) {
  const DecimalFraction t = exact_decimal(threshold);
  const Wide off = static_cast<Wide>(count) * weight - sum;
  return (off < 0 ? -off : off) * t.denominator <= t.numerator * static_cast<Wide>(sum);
}

std::vector<std::vector<NodeId>> qg_divide(const MeshShape& mesh, const std::vector<NodeId>& members,
                                           NodeId area_also, int* dimension) {
  // Phase 1: the multicast area and its middle in each dimension.
  std::array<int, 2> lo{}, hi{};
  for (int d = 0; d < 2; ++d) lo[d] = hi[d] = coord_in(mesh.coord(area_also), d);
  for (NodeId n : members)
    for (int d = 0; d < 2; ++d) {
      lo[d] = std::min(lo[d], coord_in(mesh.coord(n), d));
      hi[d] = std::max(hi[d], coord_in(mesh.coord(n), d));
    }
  // Phase 2: the divisor dimension leaves the two halves closest in size (ties: X).
  std::array<int, 2> imbalance{};
  for (int d = 0; d < 2; ++d) {
    int up = 0;
    for (NodeId n : members) up += coord_in(mesh.coord(n), d) >= middle(lo[d], hi[d]);
    imbalance[d] = std::abs(2 * up - static_cast<int>(members.size()));
  }
  const int a = imbalance[1] < imbalance[0] ? 1 : 0, b = 1 - a;
  if (dimension) *dimension = a;
  std::vector<std::vector<NodeId>> groups;
  for (const auto& half : cut(mesh, members, a, middle(lo[a], hi[a])))
    for (auto& g : cut(mesh, half, b, own_middle(mesh, half, b))) groups.push_back(std::move(g));
  return groups;
}

QgPartition qg_partition(const MeshShape& mesh, NodeId source, const std::vector<NodeId>& dests,
                         double threshold) {
  QgPartition out;
  for (auto& members : qg_divide(mesh, dests, source, &out.divisor_dimension))
    out.primary.push_back(weigh(mesh, source, std::move(members)));
  // Phase 3: a group qualifies when its weight is within T of the average (QP <= T).
  long long sum = 0;
  for (const QualifiedGroup& g : out.primary) sum += g.weight;
  out.average_weight = static_cast<double>(sum) / static_cast<double>(out.primary.size());
  for (const QualifiedGroup& g : out.primary) {
    if (qg_qualified(g.weight, sum, out.primary.size(), threshold) || g.members.size() < 2) {
      out.groups.push_back(g);
      continue;
    }
    // Divided once, on its own members; the paper stops partitioning there.
    for (auto& members : qg_divide(mesh, g.members, g.members.front()))
      out.groups.push_back(weigh(mesh, source, std::move(members)));
  }
  return out;
}

}  // namespace meshsync
