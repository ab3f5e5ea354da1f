// Parameter validation: NetworkConfig, mesh and member specs, schemes, traffic patterns
// and parameters, the group table.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <set>
#include <limits>

#include "model/core/config.hpp"
#include "model/core/network_core.hpp"
#include "model/core/traffic.hpp"
#include "sw/app/json_io.hpp"
#include "sw/collective/barrier_tree.hpp"
#include "sw/collective/member_spec.hpp"
#include "sw/runtime/communicator.hpp"

using namespace meshsync;

TEST_CASE("NetworkConfig::validate accepts the defaults and rejects each bad field", "[config]") {
  NetworkConfig ok;
  CHECK_NOTHROW(ok.validate());
  const auto bad = [](auto mutate) {
    NetworkConfig c;
    mutate(c);
    return c;
  };
  CHECK_THROWS_AS(bad([](NetworkConfig& c) { c.mesh = {1, 1}; }).validate(), ConfigError);
  CHECK_THROWS_AS(bad([](NetworkConfig& c) { c.mesh = {0, 5}; }).validate(), ConfigError);
  CHECK_THROWS_AS(bad([](NetworkConfig& c) { c.mesh = {5, 0}; }).validate(), ConfigError);
  CHECK_THROWS_AS(bad([](NetworkConfig& c) { c.mesh = {-3, 3}; }).validate(), ConfigError);
  CHECK_THROWS_AS(bad([](NetworkConfig& c) { c.mesh = {1025, 2}; }).validate(), ConfigError);
  CHECK_NOTHROW(bad([](NetworkConfig& c) { c.mesh = {2, 1}; }).validate());
  CHECK_NOTHROW(bad([](NetworkConfig& c) { c.mesh = {1, 2}; }).validate());
  CHECK_THROWS_AS(bad([](NetworkConfig& c) { c.timing.ts = 0; }).validate(), ConfigError);
  CHECK_THROWS_AS(bad([](NetworkConfig& c) { c.timing.tp = 0; }).validate(), ConfigError);
  CHECK_THROWS_AS(bad([](NetworkConfig& c) { c.timing.trn = 0; }).validate(), ConfigError);
  CHECK_THROWS_AS(bad([](NetworkConfig& c) { c.timing.trm = 0; }).validate(), ConfigError);
  CHECK_THROWS_AS(bad([](NetworkConfig& c) { c.router.buffer_depth = 0; }).validate(), ConfigError);
  CHECK_THROWS_AS(bad([](NetworkConfig& c) { c.router.sync_buffer_depth = 0; }).validate(), ConfigError);
  CHECK_THROWS_AS(bad([](NetworkConfig& c) { c.router.barrier_registers = 257; }).validate(), ConfigError);
  CHECK_NOTHROW(bad([](NetworkConfig& c) { c.router.barrier_registers = 0; }).validate());
  CHECK_NOTHROW(bad([](NetworkConfig& c) { c.router.barrier_registers = 256; }).validate());
  CHECK_THROWS_AS(bad([](NetworkConfig& c) { c.router.max_children = 3; }).validate(), ConfigError);
  CHECK_THROWS_AS(bad([](NetworkConfig& c) { c.router.max_children = 65; }).validate(), ConfigError);
  CHECK_NOTHROW(bad([](NetworkConfig& c) { c.router.max_children = 4; }).validate());
}

TEST_CASE("NetworkConfig::validate rejects a deadlock threshold too small", "[config][deadlock]") {
  NetworkConfig c;
  c.timing = Timing{1000, 5, 5, 30};
  const std::uint64_t slowest = 2ull * (5 + 5 + 30) + 1000;
  c.deadlock_cycles = slowest;
  CHECK_THROWS_WITH(c.validate(), Catch::Contains("deadlock-cycles must exceed"));
  c.deadlock_cycles = 10;
  CHECK_THROWS_AS(c.validate(), ConfigError);
  c.deadlock_cycles = 0;
  CHECK_THROWS_AS(c.validate(), ConfigError);
  c.deadlock_cycles = slowest + 1;
  CHECK_NOTHROW(c.validate());
  // NetworkCore refuses to be built from such a config.
  c.deadlock_cycles = 5;
  CHECK_THROWS_AS(NetworkCore(c), ConfigError);
}

TEST_CASE("NetworkConfig round-trips through JSON", "[config][json]") {
  NetworkConfig c;
  c.mesh = {5, 3};
  c.timing = Timing{7, 2, 3, 11};
  c.router = RouterParams{9, 2, 17, 12};
  c.deadlock_cycles = 4242;
  const nlohmann::json j = c;
  CHECK(j.at("mesh") == nlohmann::json::array({5, 3}));
  CHECK(j.at("timing") == nlohmann::json{{"ts", 7}, {"tp", 2}, {"trn", 3}, {"trm", 11}});
  CHECK(j.at("router") == nlohmann::json{{"buffer_depth", 9}, {"sync_buffer_depth", 2},
                                         {"tree_buffer_depth", 66}, {"barrier_registers", 17},
                                         {"max_children", 12}});
  CHECK(j.at("deadlock_cycles") == 4242);
  const auto back = nlohmann::json::parse(j.dump()).get<NetworkConfig>();
  CHECK(back.mesh.width == 5);
  CHECK(back.mesh.height == 3);
  CHECK(back.timing.ts == 7);
  CHECK(back.timing.tp == 2);
  CHECK(back.timing.trn == 3);
  CHECK(back.timing.trm == 11);
  CHECK(back.router.buffer_depth == 9);
  CHECK(back.router.sync_buffer_depth == 2);
  CHECK(back.router.barrier_registers == 17);
  CHECK(back.router.max_children == 12);
  CHECK(back.deadlock_cycles == 4242);
  CHECK(nlohmann::json(back) == j);
  // A missing field is an error rather than a silent default.
  nlohmann::json partial = j;
  partial.erase("router");
  CHECK_THROWS_AS(partial.get<NetworkConfig>(), nlohmann::json::exception);
}

TEST_CASE("parse_mesh", "[config][cli]") {
  CHECK(parse_mesh("8x8").width == 8);
  CHECK(parse_mesh("5X3").height == 3);
  CHECK(parse_mesh("2x1").nodes() == 2);
  for (const char* bad : {"8by8", "0x4", "4x0", "-3x3", "3x-3", "0x0", "1x1", "x", "8x", "x8", "8",
                          "", " 8x8", "8x8 ", "8x8x8", "1025x2", "2x1025", "abc", "8.5x8",
                          "99999999999x2"}) {
    INFO("'" << bad << "'");
    CHECK_THROWS_AS(parse_mesh(bad), ConfigError);
  }
  CHECK_NOTHROW(parse_mesh("1024x1024"));
}

TEST_CASE("parse_members", "[config][cli]") {
  const MeshShape m{4, 4};
  CHECK(parse_members("all", m, 1).size() == 16);
  CHECK(parse_members("1,1;2,3", m, 1) == std::vector<NodeId>{5, 14});
  CHECK(parse_members("2,3;1,1", m, 1) == std::vector<NodeId>{5, 14});  // sorted
  CHECK(parse_members(" 0 , 0 ; 3,3 ;", m, 1) == std::vector<NodeId>{0, 15});  // trailing ';'
  const auto r1 = parse_members("random:7", m, 42);
  CHECK(r1.size() == 7);
  CHECK(std::is_sorted(r1.begin(), r1.end()));
  CHECK(std::adjacent_find(r1.begin(), r1.end()) == r1.end());
  CHECK(parse_members("random:7", m, 42) == r1);  // seeded
  CHECK(parse_members("random:16", m, 3).size() == 16);
  bool differs = false;
  for (std::uint64_t s = 43; s < 53; ++s) differs |= parse_members("random:7", m, s) != r1;
  CHECK(differs);
  for (const char* bad : {"", "4,0", "0,4", "-1,0", "5,5", "1,1;1,1", "1,1;;2,2", ";", "1;2",
                          "a,b", "1,1,1", "random:0", "random:17", "random:-1", "random:x",
                          "random:", "1,1;2,2;1,1"}) {
    INFO("'" << bad << "'");
    CHECK_THROWS_AS(parse_members(bad, m, 1), ConfigError);
  }
  CHECK_THROWS_WITH(parse_members("5,5", m, 1), Catch::Contains("outside"));
  CHECK_THROWS_WITH(parse_members("1,1;1,1", m, 1), Catch::Contains("duplicate"));
}

TEST_CASE("parse_scheme and parse_pattern", "[config][cli]") {
  CHECK(parse_scheme("btm") == BarrierScheme::BTM);
  CHECK(parse_scheme("cs") == BarrierScheme::CS);
  CHECK(scheme_name(BarrierScheme::CS) == "cs");
  CHECK_THROWS_AS(parse_scheme("BTM"), ConfigError);
  CHECK_THROWS_AS(parse_scheme(""), ConfigError);
  CHECK_THROWS_AS(parse_scheme("tree"), ConfigError);
  CHECK(parse_pattern("uniform") == TrafficPattern::Uniform);
  CHECK(parse_pattern("transpose") == TrafficPattern::Transpose);
  CHECK(parse_pattern("hotspot") == TrafficPattern::Hotspot);
  CHECK_THROWS_AS(parse_pattern("random"), ConfigError);
}

TEST_CASE("TrafficParams::validate", "[config][traffic]") {
  const MeshShape sq{4, 4}, rect{4, 2};
  TrafficParams p;
  CHECK_NOTHROW(p.validate(sq));
  p.rate = 0;
  CHECK_THROWS_AS(p.validate(sq), ConfigError);
  p.rate = -0.1;
  CHECK_THROWS_AS(p.validate(sq), ConfigError);
  p.rate = 1.5;
  CHECK_THROWS_AS(p.validate(sq), ConfigError);
  p.rate = std::nan("");
  CHECK_THROWS_AS(p.validate(sq), ConfigError);
  p.rate = 1.0;
  CHECK_NOTHROW(p.validate(sq));
  p.flits = 0;
  CHECK_THROWS_AS(p.validate(sq), ConfigError);
  p.flits = 4;
  p.cycles = 0;
  CHECK_THROWS_AS(p.validate(sq), ConfigError);
  p.cycles = 10;
  p.pattern = TrafficPattern::Transpose;
  CHECK_NOTHROW(p.validate(sq));
  CHECK_THROWS_AS(p.validate(rect), ConfigError);
  p.pattern = TrafficPattern::Hotspot;
  p.hotspot_fraction = 1.5;
  CHECK_THROWS_AS(p.validate(rect), ConfigError);
  // The generator validates too.
  CHECK_THROWS_AS(TrafficGenerator(p, rect, 0), ConfigError);
}

TEST_CASE("GroupTable hands out unique GIDs and checks member lists", "[config][group]") {
  const MeshShape m{4, 4};
  GroupTable g;
  CHECK_THROWS_AS(g.create(m, {}, BarrierScheme::BTM), ConfigError);
  CHECK_THROWS_AS(g.create(m, {1, 2, 1}, BarrierScheme::BTM), ConfigError);
  CHECK_THROWS_AS(g.create(m, {16}, BarrierScheme::BTM), ConfigError);
  CHECK(g.live() == 0);
  std::vector<Communicator> cs;
  std::set<int> gids;
  for (int i = 0; i < 256; ++i) {
    cs.push_back(g.create(m, {static_cast<NodeId>(i % 16)}, BarrierScheme::BTM));
    gids.insert(cs.back().gid);
  }
  CHECK(gids.size() == 256);
  CHECK(g.live() == 256);
  CHECK_THROWS_AS(g.create(m, {0}, BarrierScheme::CS), ConfigError);
  g.free(cs[17]);
  CHECK(g.live() == 255);
  const Communicator again = g.create(m, {3, 1, 2}, BarrierScheme::CS);
  CHECK(again.gid == cs[17].gid);
  CHECK(again.scheme == BarrierScheme::CS);
  CHECK(again.members().size() == 3);
  CHECK(again.contains(2));
  CHECK_FALSE(again.contains(0));
}
