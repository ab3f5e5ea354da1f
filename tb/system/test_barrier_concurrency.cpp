// Many barriers: 1,000 back to back on one communicator, and 8 overlapping communicators
// synchronising at once (with enough, few and no barrier registers). Every release must
// follow the last arrival of its epoch, and sync messages reach only members' NIs.
#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <memory>
#include <set>

#include "model/core/random.hpp"
#include "model/core/traffic.hpp"
#include "support/sim_helpers.hpp"
#include "support/tree_reference.hpp"

using namespace meshsync;
using namespace meshsync::test;

namespace {

struct EpochLog {
  // [member index][epoch]
  std::vector<std::vector<std::uint64_t>> arrive, release;
};

// Checks that in every epoch no release precedes the last arrival (by at least `min_gap`
// cycles), and that every release of an epoch precedes every release of the next.
void check_epochs(const EpochLog& log, std::size_t epochs, std::uint64_t min_gap, const std::string& what) {
  REQUIRE(!log.arrive.empty());
  for (std::size_t e = 0; e < epochs; ++e) {
    std::uint64_t last_arrival = 0, first_release = ~0ull, last_release = 0;
    for (std::size_t k = 0; k < log.arrive.size(); ++k) {
      REQUIRE(log.arrive[k].size() == epochs);
      REQUIRE(log.release[k].size() == epochs);
      last_arrival = std::max(last_arrival, log.arrive[k][e]);
      first_release = std::min(first_release, log.release[k][e]);
      last_release = std::max(last_release, log.release[k][e]);
    }
    INFO(what << " epoch " << e << " last arrival " << last_arrival << " first release "
              << first_release);
    REQUIRE(first_release > last_arrival);
    REQUIRE(first_release - last_arrival >= min_gap);
    if (e + 1 < epochs) {
      // The next epoch's releases all come after this one's.
      std::uint64_t next_first = ~0ull;
      for (std::size_t k = 0; k < log.release.size(); ++k) next_first = std::min(next_first, log.release[k][e + 1]);
      REQUIRE(next_first > last_release);
    }
  }
}

}  // namespace

TEST_CASE("1,000 back-to-back barriers on one communicator", "[system][barrier][stress]") {
  const MeshShape mesh{8, 8};
  const Timing t{40, 2, 1, 6};
  for (BarrierScheme scheme : {BarrierScheme::BTM, BarrierScheme::CS}) {
    const std::size_t epochs = 1000;
    const auto members = ref::random_members(mesh, 17, scheme == BarrierScheme::BTM ? 11 : 12);
    Machine m(make_config(mesh, t));
    const Communicator c = m.groups().create(mesh, members, scheme);
    EpochLog log;
    log.arrive.assign(members.size(), {});
    log.release.assign(members.size(), {});
    std::size_t joined = 0, hw = 0, finished = 0;
    sc_core::sc_event all_joined, go;
    for (std::size_t k = 0; k < members.size(); ++k) {
      m.spawn("member_" + std::to_string(members[k]), [&, k] {
        Node& node = m.node(members[k]);
        hw += join(node, c) ? 1 : 0;
        if (++joined == members.size()) all_joined.notify(sc_core::SC_ZERO_TIME);
        sc_core::wait(go);
        Random rng(k + 1);
        for (std::size_t e = 0; e < epochs; ++e) {
          // Mostly straight back to back; sometimes a little work first.
          if (rng.below(4) == 0) wait_cycles(rng.below(60));
          log.arrive[k].push_back(m.now());
          log.release[k].push_back(barrier(node, c));
          CHECK(log.release[k].back() == m.now());
        }
        ++finished;
      });
    }
    m.spawn("driver", [&] {
      if (joined < members.size()) sc_core::wait(all_joined);
      m.mesh().wait_idle();
      go.notify(sc_core::SC_ZERO_TIME);
    });
    m.run();
    INFO(scheme_name(scheme));
    CHECK(hw == members.size());
    CHECK(finished == members.size());
    // The start-up of the last arriver and of the root, and the member routers' delay.
    check_epochs(log, epochs, 2 * t.ts + 2 * t.trm, scheme_name(scheme));
  }
}

namespace {

struct Overlap {
  std::uint32_t registers = 4;
  std::uint64_t seed = 1;
  int rounds = 12;
  std::uint32_t buffer_depth = 16;
  std::uint32_t sync_buffer_depth = 4;
  double traffic_rate = 0;  // background uniform load, flits/node/cycle (0: none)
};

struct ConcurrentResult {
  std::size_t memberships = 0;
  std::size_t hardware_joins = 0;
  bool registers_freed = true;
  bool software_state_freed = true;
};

// 8 communicators on an 8x8 mesh, random overlapping members plus node (3,3) in every
// one; one thread per (communicator, member), `rounds` barriers each, at random times.
ConcurrentResult run_overlapping(const Overlap& o) {
  const MeshShape mesh{8, 8};
  const Timing t{30, 1, 1, 4};
  const std::uint64_t seed = o.seed;
  const int rounds = o.rounds;
  NetworkConfig cfg = make_config(mesh, t, o.registers);
  cfg.router.buffer_depth = o.buffer_depth;
  cfg.router.sync_buffer_depth = o.sync_buffer_depth;
  Machine m(cfg);
  LocalSyncProbe probe;
  m.mesh().core().set_probe(&probe);
  std::unique_ptr<TrafficGenerator> gen;
  if (o.traffic_rate > 0) {
    TrafficParams p;
    p.rate = o.traffic_rate;
    p.flits = 3;
    p.warmup = 0;
    p.cycles = 3000;
    p.seed = seed;
    gen = std::make_unique<TrafficGenerator>(p, mesh, 0);
    m.mesh().attach_traffic(gen.get());
  }
  std::vector<Communicator> comms;
  Random rng(seed);
  const NodeId shared = mesh.id({3, 3});
  for (int g = 0; g < 8; ++g) {
    // Two statements: the order of draws in one call's arguments is unspecified.
    const std::uint64_t count = 4 + rng.below(14);
    auto members = ref::random_members(mesh, count, rng.bits());
    if (!std::binary_search(members.begin(), members.end(), shared)) {
      members.push_back(shared);
      std::sort(members.begin(), members.end());
    }
    comms.push_back(m.groups().create(mesh, members, g % 3 == 2 ? BarrierScheme::CS : BarrierScheme::BTM));
  }
  std::map<std::uint8_t, std::size_t> by_gid;
  for (std::size_t g = 0; g < comms.size(); ++g) by_gid[comms[g].gid] = g;
  REQUIRE(by_gid.size() == comms.size());

  std::vector<EpochLog> logs(comms.size());
  ConcurrentResult res;
  std::size_t threads = 0, joined = 0, done = 0, left = 0;
  sc_core::sc_event all_joined, go, all_done, leave_now, all_left;
  for (const auto& c : comms) threads += c.members().size();
  res.memberships = threads;
  for (std::size_t g = 0; g < comms.size(); ++g) {
    const Communicator& c = comms[g];
    logs[g].arrive.assign(c.members().size(), {});
    logs[g].release.assign(c.members().size(), {});
    for (std::size_t k = 0; k < c.members().size(); ++k) {
      const NodeId id = c.members()[k].node;
      m.spawn("g" + std::to_string(g) + "_n" + std::to_string(id), [&, g, k, id] {
        Node& node = m.node(id);
        const Communicator& cc = comms[g];
        res.hardware_joins += join(node, cc) ? 1 : 0;
        if (++joined == threads) all_joined.notify(sc_core::SC_ZERO_TIME);
        sc_core::wait(go);
        Random r(seed * 1000 + g * 100 + k);
        for (int e = 0; e < rounds; ++e) {
          wait_cycles(r.below(90));
          logs[g].arrive[k].push_back(m.now());
          logs[g].release[k].push_back(barrier(node, cc));
        }
        if (++done == threads) all_done.notify(sc_core::SC_ZERO_TIME);
        sc_core::wait(leave_now);
        leave(node, cc);
        if (++left == threads) all_left.notify(sc_core::SC_ZERO_TIME);
      });
    }
  }
  m.spawn("driver", [&] {
    if (joined < threads) sc_core::wait(all_joined);
    if (!gen) m.mesh().wait_idle();
    else wait_cycles(200);  // CS setup messages have arrived (they are not delayed long)
    go.notify(sc_core::SC_ZERO_TIME);
    if (done < threads) sc_core::wait(all_done);
    m.mesh().wait_idle();
    leave_now.notify(sc_core::SC_ZERO_TIME);
    if (left < threads) sc_core::wait(all_left);
    m.mesh().wait_idle();
    for (NodeId n = 0; n < 64; ++n) {
      if (m.mesh().core().router(n).registers().in_use() != 0) res.registers_freed = false;
      if (m.mesh().ni(n).software_groups() != 0) res.software_state_freed = false;
    }
  });
  m.run();

  for (std::size_t g = 0; g < comms.size(); ++g)
    check_epochs(logs[g], static_cast<std::size_t>(rounds), 0,
                 "group " + std::to_string(g) + " gid " + std::to_string(comms[g].gid));
  // A sync message handed to a node's NI belongs to a group of that node.
  std::size_t local_releases = 0;
  for (const LocalSync& s : probe.seen) {
    INFO("sync type " << static_cast<int>(s.flit.stype) << " gid " << int(s.flit.gid) << " at node "
                      << s.node << " cycle " << s.cycle);
    REQUIRE(by_gid.count(s.flit.gid) == 1);
    CHECK(comms[by_gid[s.flit.gid]].contains(s.node));
    CHECK(s.flit.dest == s.node);
    local_releases += s.flit.stype == SyncType::Release ? 1 : 0;
  }
  CHECK(local_releases > 0);
  if (gen) {
    CHECK(gen->finished());
    CHECK(gen->scoreboard().errors().empty());
    CHECK(gen->scoreboard().in_flight() == 0);
    CHECK(gen->result().packets_delivered > 0);
  }
  return res;
}

}  // namespace

TEST_CASE("8 overlapping communicators synchronise at once (4 registers)", "[system][barrier][concurrent]") {
  for (std::uint64_t seed : {1, 2, 3, 4}) {
    INFO("seed " << seed);
    Overlap o;
    o.seed = seed;
    o.rounds = 30;
    const auto r = run_overlapping(o);
    // (3,3) belongs to all 8 groups but has 4 registers: at least 4 joins fell back.
    CHECK(r.hardware_joins + 4 <= r.memberships);
    CHECK(r.hardware_joins > 0);
    CHECK(r.registers_freed);
    CHECK(r.software_state_freed);
  }
}

TEST_CASE("8 overlapping communicators with 1 register per router", "[system][barrier][concurrent][registers]") {
  Overlap o;
  o.registers = 1;
  o.seed = 5;
  o.rounds = 20;
  const auto r = run_overlapping(o);
  CHECK(r.hardware_joins + 7 <= r.memberships);
  CHECK(r.registers_freed);
  CHECK(r.software_state_freed);
}

TEST_CASE("8 overlapping communicators with no barrier registers at all", "[system][barrier][concurrent][registers]") {
  Overlap o;
  o.registers = 0;
  o.seed = 6;
  o.rounds = 20;
  const auto r = run_overlapping(o);
  CHECK(r.hardware_joins == 0);
  CHECK(r.registers_freed);
  CHECK(r.software_state_freed);
}

TEST_CASE("8 overlapping communicators with one-flit buffers and background traffic",
          "[system][barrier][concurrent][traffic]") {
  for (std::uint32_t regs : {4u, 1u}) {
    INFO("registers " << regs);
    Overlap o;
    o.registers = regs;
    o.seed = 7 + regs;
    o.rounds = 15;
    o.buffer_depth = 1;
    o.sync_buffer_depth = 1;
    o.traffic_rate = 0.05;
    const auto r = run_overlapping(o);
    CHECK(r.registers_freed);
    CHECK(r.software_state_freed);
  }
}
