// Phases 1-3 of the Qualified Groups multicast (NOTES-multicast.md section 4): divide
// the destinations into up to four primary groups around the middle of the multicast
// area, weigh each group by the work its representative faces, and divide once more the
// groups whose weight strays from the average by more than the threshold T.
#pragma once

#include <vector>

#include "../../model/core/geometry.hpp"

namespace meshsync {

struct QualifiedGroup {
  std::vector<NodeId> members;
  NodeId nearest = 0;    // p_n: the member nearest the source, the representative
  NodeId furthest = 0;   // p_f
  int weight = 0;        // W_m = Dist(p_n, p) + Dist(p_f, p_n) + |G|
};

struct QgPartition {
  int divisor_dimension = 0;  // a of the first division: 0 = X, 1 = Y
  std::vector<QualifiedGroup> primary;
  double average_weight = 0;  // W_av over the primary groups
  // The final groups: each primary group that is qualified (QP <= T) or a singleton, or
  // the groups an unqualified one was divided into (Phases 1-2 on its members alone).
  std::vector<QualifiedGroup> groups;
};

// Phases 1-2 on `members` inside the box spanned by `members` and `area_also` (the
// source for the primary groups; a member for a re-division): cut at the middle of the
// dimension that halves the members best (ties: X), then each half at the middle of its
// own members' range in the other dimension. Returns the non-empty groups, lower halves
// first: 1 to 4, and at least 2 when the area is the members' own and they are two or
// more. `dimension` receives the first cut's dimension.
std::vector<std::vector<NodeId>> qg_divide(const MeshShape& mesh, const std::vector<NodeId>& members,
                                           NodeId area_also, int* dimension = nullptr);

QgPartition qg_partition(const MeshShape& mesh, NodeId source, const std::vector<NodeId>& dests,
                         double threshold);

// Phase 3's test, QP = |W_m - W_av| / W_av <= T with W_av = sum / count, decided exactly:
// |count W_m - sum| <= T sum in integers, T taken as the decimal it was written as (the
// shortest that reads back as the double: 0.5, 0.3, 1e-05). In floating point a tie could
// fall on either side: weights 8, 4, 4 give W_av = 16/3 and QP = 1/2 exactly.
bool qg_qualified(int weight, long long sum, std::size_t count, double threshold);

}  // namespace meshsync
