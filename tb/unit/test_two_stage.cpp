// The pure parts of the two-stage broadcast against NOTES-broadcast B4: penalty rounds,
// the randomized synchronization rank, the fragment bitmap, unique multicast group ids
// and the fallback threshold.
#include <catch2/catch.hpp>

#include <map>

#include "sw/collective/two_stage.hpp"

using namespace meshsync;

TEST_CASE("two-stage: penalty rounds count the missed ranks run by run (B4.3, B4.4)", "[broadcast][two-stage]") {
  // P = 8, ranks 2, 3 and 5 missed the multicast.
  const std::vector<bool> missed{false, false, true, true, false, true, false, false};
  CHECK(penalty_rounds(missed) == std::vector<int>{0, 0, 1, 2, 0, 1, 0, 0});
  // No loss: nobody waits. Total loss: the last rank waits P - 1 rounds.
  CHECK(penalty_rounds(std::vector<bool>(8, false)) == std::vector<int>(8, 0));
  std::vector<bool> all(8, true);
  all[0] = false;  // the root has the message
  CHECK(penalty_rounds(all) == std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7});
}

TEST_CASE("two-stage: at 50% loss a rank waits about one penalty round (B1, B4.4)", "[broadcast][two-stage]") {
  Random rng(7);
  const std::size_t P = 64;
  double sum = 0;
  std::size_t n = 0;
  for (int trial = 0; trial < 4000; ++trial) {
    std::vector<bool> missed(P, false);
    for (std::size_t r = 1; r < P; ++r) missed[r] = rng.bernoulli(0.5);
    const std::vector<int> k = penalty_rounds(missed);
    // Far from the root, E[k_r] = sum_{j <= r} 0.5^j -> 1.
    for (std::size_t r = 32; r < P; ++r, ++n) sum += k[r];
  }
  CHECK(sum / static_cast<double>(n) == Approx(1.0).epsilon(0.05));
}

TEST_CASE("two-stage: the synchronization rank is never the root, agreed, and uniform (B4.6)",
          "[broadcast][two-stage]") {
  const std::size_t P = 7;
  const Rank root = 3;
  std::map<Rank, int> seen;
  for (std::uint64_t call = 0; call < 3000; ++call) {
    const Rank c = sync_rank(42, call, root, P);
    CHECK(c != root);
    CHECK(c < P);
    // A pure function of (seed, call): every rank computes the same one.
    CHECK(sync_rank(42, call, root, P) == c);
    ++seen[c];
  }
  REQUIRE(seen.size() == P - 1);
  for (const auto& [rank, count] : seen) {
    INFO("rank " << rank);
    CHECK(count == Approx(3000.0 / (P - 1)).epsilon(0.15));
  }
  // Another seed, another sequence.
  int same = 0;
  for (std::uint64_t call = 0; call < 100; ++call) same += sync_rank(42, call, root, P) == sync_rank(43, call, root, P);
  CHECK(same < 50);
  CHECK_THROWS_AS(sync_rank(1, 0, 0, 1), std::invalid_argument);
}

TEST_CASE("two-stage: a rank completes only with every fragment, duplicates change nothing (B4.8)",
          "[broadcast][two-stage]") {
  FragmentBitmap b(3);
  CHECK_FALSE(b.full());
  CHECK(b.set(2));
  CHECK_FALSE(b.set(2));  // the same fragment from the chain after the multicast
  CHECK(b.count() == 1);
  CHECK(b.set(0));
  CHECK_FALSE(b.full());
  CHECK(b.set(1));
  CHECK(b.full());
  CHECK_THROWS(b.set(3));
}

TEST_CASE("two-stage: multicast group ids are distinct across live communicators (B4.7)", "[broadcast][two-stage]") {
  MulticastGroups groups(5);
  std::set<std::uint16_t> ids;
  for (int i = 0; i < 2000; ++i) {
    const std::uint16_t id = groups.allocate();
    CHECK(id != 0);
    CHECK(ids.insert(id).second);
  }
  // A freed id may come back; the live ones stay unique.
  const std::uint16_t freed = *ids.begin();
  groups.release(freed);
  CHECK_FALSE(groups.live(freed));
  CHECK(groups.size() == 1999);
  // The same seed gives the same ids.
  MulticastGroups again(5);
  MulticastGroups fresh(5);
  for (int i = 0; i < 10; ++i) CHECK(again.allocate() == fresh.allocate());
}

TEST_CASE("two-stage: below 20 ranks the broadcast is TUNED's (B4.5)", "[broadcast][two-stage]") {
  CHECK_FALSE(uses_two_stage(1));
  CHECK_FALSE(uses_two_stage(19));
  CHECK(uses_two_stage(20));
  CHECK(uses_two_stage(4096));
  CHECK(uses_two_stage(2, 2));  // a threshold of 2: the paper's P = 2 outlier
}
