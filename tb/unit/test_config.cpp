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
  CHECK_NOTHROW(bad([](NetworkConfig& c) { c.timing.tp = 0; }).validate());  // a hop of trn alone (the QG paper's)
  CHECK_THROWS_AS(bad([](NetworkConfig& c) { c.timing.tp = kDelayLarge + 1; }).validate(), ConfigError);
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
  c.router.ni_ports = 4;
  c.router.switch_allocator = 2;
  c.router.islip_iterations = 3;
  c.deadlock_cycles = 4242;
  const nlohmann::json j = c;
  CHECK(j.at("mesh") == nlohmann::json::array({5, 3}));
  CHECK(j.at("timing") == nlohmann::json{{"ts", 7}, {"tp", 2}, {"trn", 3}, {"trm", 11}});
  // Every router parameter, ni_ports too: a run with an all-port NI can be run again from
  // its JSON.
  CHECK(j.at("router") == nlohmann::json{{"buffer_depth", 9}, {"sync_buffer_depth", 2},
                                         {"tree_buffer_depth", 66}, {"barrier_registers", 17},
                                         {"max_children", 12}, {"ni_ports", 4}, {"path_worms", 1}, {"reduce_words", 1024}, {"unicast_vcs", 1}, {"vc_allocation", 0}, {"routing_stage", 0}, {"va_stage", 0}, {"switch_allocator", 2}, {"islip_iterations", 3}});
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
  CHECK(back.router.ni_ports == 4);
  CHECK(back.router.switch_allocator == 2);
  CHECK(back.router.islip_iterations == 3);
  CHECK(back.deadlock_cycles == 4242);
  CHECK(nlohmann::json(back) == j);
  // A missing field is an error rather than a silent default.
  nlohmann::json partial = j;
  partial.erase("router");
  CHECK_THROWS_AS(partial.get<NetworkConfig>(), nlohmann::json::exception);
  partial = j;
  partial["router"].erase("ni_ports");
  CHECK_THROWS_AS(partial.get<NetworkConfig>(), nlohmann::json::exception);
}

TEST_CASE("the parameter table: every row has its field, a JSON key and a range that holds the default",
          "[config][parameters]") {
  std::set<std::string> names, keys, rtl;
  std::set<const void*> fields;
  NetworkConfig c;
  for (const Parameter& p : kParameters) {
    INFO(p.name);
    CHECK(names.insert(p.name).second);
    CHECK(keys.insert(std::string(p.json_object()) + "." + p.json_key).second);
    if (p.rtl != nullptr) CHECK(rtl.insert(p.rtl).second);
    CHECK(((p.timing != nullptr) != (p.router != nullptr)));
    CHECK(fields.insert(&p.of(c)).second);
    CHECK(p.min <= p.default_value());
    CHECK(p.default_value() <= p.max);
    CHECK(parameter_error(p, p.default_value()).empty());
    CHECK(std::string(p.doc).find('\n') == std::string::npos);
    CHECK(&parameter(p.name) == &p);
  }
  // Every field of Timing and RouterParams has its row.
  CHECK(fields.size() * sizeof(std::uint32_t) == sizeof(Timing) + sizeof(RouterParams));
  CHECK_THROWS_AS(parameter("bogus"), std::logic_error);
}

TEST_CASE("NetworkConfig::validate checks each parameter's range from the table, in one line",
          "[config][parameters]") {
  for (const Parameter& p : kParameters) {
    INFO(p.name);
    NetworkConfig c;
    c.deadlock_cycles = std::numeric_limits<std::uint64_t>::max();  // not the subject here
    const auto message = [&](std::uint32_t v) {
      p.of(c) = v;
      try {
        c.validate();
        return std::string();
      } catch (const ConfigError& e) {
        return std::string(e.what());
      }
    };
    for (std::uint32_t v : {p.min, p.max, p.default_value()})
      if (p.choices == nullptr || p.choice_name(v) != nullptr) CHECK(message(v).empty());
    // Below the minimum; 0 is no value below it where 0 leaves the feature out.
    if (p.min > (p.zero_means != nullptr ? 1u : 0u)) {
      const std::string m = message(p.min - 1);
      CHECK(m.rfind(p.name, 0) == 0);
      CHECK(m.find('\n') == std::string::npos);
    }
    if (p.max < std::numeric_limits<std::uint32_t>::max()) CHECK(message(p.max + 1).rfind(p.name, 0) == 0);
  }
  NetworkConfig c;
  c.router.ni_ports = 2;
  CHECK_THROWS_WITH(c.validate(), "ni must be 1 (one-port) or 4 (all-port), got 2");
  c.router.ni_ports = 4;
  CHECK_NOTHROW(c.validate());
  c.router.tree_buffer_depth = 1;
  CHECK_THROWS_WITH(c.validate(), "tree-buffer-depth must be at least 2 flits (a head and a word), or 0 (no tree VC)");
  c.router.tree_buffer_depth = 0;  // a router without the tree VC
  CHECK_NOTHROW(c.validate());
  CHECK(c.router.depth(kTreeVc) == 0);
  c.router.path_worms = 0;  // ... and without the snake VC
  CHECK_NOTHROW(c.validate());
  CHECK(c.router.depth(kSnakeVc) == 0);
  CHECK(c.router.depth(kWormVc) == c.router.buffer_depth);
  CHECK_THROWS_WITH(c.require_path_worms("multicast"), "multicast needs multidestination worms, but --path-worms is off");
  CHECK_THROWS_WITH(c.require_tree_vc(3, "a tree multicast"), "a tree multicast needs the tree VC, but --tree-buffer-depth is 0");
  c.router.tree_buffer_depth = 10;
  CHECK_THROWS_WITH(c.require_tree_vc(11, "a tree multicast"),
                    "a tree multicast: a tree worm of 11 flits is longer than --tree-buffer-depth 10");
  c.router.path_worms = 2;
  CHECK_THROWS_WITH(c.validate(), "path-worms must be 0 (off) or 1 (on), got 2");
  c = NetworkConfig{};
  c.timing.ts = 0;
  CHECK_THROWS_WITH(c.validate(), "ts must be at least 1 cycle (the NI registers the request)");
  c = NetworkConfig{};
  c.router.barrier_registers = 257;
  CHECK_THROWS_WITH(c.validate(), "registers must be at most 256 (8-bit GID space)");
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

TEST_CASE("parse_members: long input is a clear error or a result, never a crash", "[config][cli][hostile]") {
  // 100,000 blanks inside one entry (std::regex recursed per character and overflowed the
  // stack well before that).
  const std::string blanks(100000, ' ');
  CHECK(parse_members("1," + blanks + "2", MeshShape{4, 4}, 1) == std::vector<NodeId>{9});
  CHECK_THROWS_WITH(parse_members("1," + blanks + "x", MeshShape{4, 4}, 1), Catch::Contains("malformed member"));
  CHECK_THROWS_AS(parse_mesh(std::string(100000, '8') + "x8"), ConfigError);
  // Every node of a 256x256 mesh listed, and a duplicate at the end: a linear check.
  std::string all;
  for (int y = 0; y < 256; ++y)
    for (int x = 0; x < 256; ++x) all += std::to_string(x) + "," + std::to_string(y) + ";";
  CHECK(parse_members(all, MeshShape{256, 256}, 1).size() == 65536);
  CHECK_THROWS_WITH(parse_members(all + "255,255", MeshShape{256, 256}, 1), Catch::Contains("duplicate member (255,255)"));
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
