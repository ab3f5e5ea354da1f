// The `meshsync` program as a user runs it: bad input gives one clear error line and a
// non-zero exit (never a crash or a hang); good input gives the documented JSON.
#include <catch2/catch.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <tuple>

#include <nlohmann/json.hpp>

#include "support/program_run.hpp"
#include "support/tree_reference.hpp"
#include "support/vcd_reader.hpp"
#include "sw/app/json_io.hpp"
#include "sw/collective/barrier_tree.hpp"
#include "sw/collective/member_spec.hpp"

#ifndef MESHSYNC_BIN
#error "MESHSYNC_BIN must name the meshsync executable"
#endif

using namespace meshsync;
using nlohmann::json;
namespace fs = std::filesystem;
using namespace program_run;

namespace {

json coord(const MeshShape& mesh, NodeId n) {
  const Coord c = mesh.coord(n);
  return json::array({c.x, c.y});
}

}  // namespace

TEST_CASE("cli: malformed mesh sizes", "[cli][errors]") {
  for (const char* mesh : {"8by8", "0x4", "4x0", "-3x3", "0x0", "1x1", "3x", "x3", "", "8x8x8", "2000x2"}) {
    expect_error_naming({"barrier", "--mesh", mesh}, "--mesh");
    expect_error_naming({"barrier", std::string("--mesh=") + mesh}, "--mesh");
  }
  expect_one_error_line({"tree", "--mesh", "8by8"});
  expect_one_error_line({"traffic", "--mesh", "0x4"});
}

TEST_CASE("cli: bad member lists", "[cli][errors]") {
  expect_one_error_line({"barrier", "--mesh", "4x4", "--members", "4,0"});
  expect_one_error_line({"barrier", "--mesh", "4x4", "--members", "5,5"});
  expect_one_error_line({"barrier", "--mesh", "4x4", "--members", "-1,2"});
  expect_one_error_line({"barrier", "--mesh", "4x4", "--members", "1,1;2,2;1,1"});
  expect_one_error_line({"barrier", "--mesh", "4x4", "--members", "1,1;;2,2"});
  expect_one_error_line({"barrier", "--mesh", "4x4", "--members", "one,two"});
  expect_one_error_line({"barrier", "--mesh", "4x4", "--members", "random:0"});
  expect_one_error_line({"barrier", "--mesh", "4x4", "--members", "random:17"});
  expect_one_error_line({"barrier", "--mesh", "4x4", "--members", ""});
  expect_one_error_line({"tree", "--mesh", "4x4", "--members", "9,9"});
  expect_one_error_line({"tree", "--mesh", "4x4", "--members", "0,0;0,0"});
}

TEST_CASE("cli: bad schemes, patterns, timings and router parameters", "[cli][errors]") {
  expect_error_naming({"barrier", "--scheme", "foo"}, "--scheme");
  expect_error_naming({"barrier", "--scheme", "btm,bogus"}, "bogus");
  expect_error_naming({"barrier", "--scheme", "btm,btm"}, "given twice");
  expect_error_naming({"tree", "--scheme", "BTM"}, "--scheme");
  expect_error_naming({"traffic", "--pattern", "foo"}, "--pattern");
  // The enumerators' numbers are no names.
  expect_error_naming({"barrier", "--scheme", "1"}, "--scheme");
  expect_error_naming({"traffic", "--pattern", "0"}, "--pattern");
  expect_one_error_line({"traffic", "--pattern", "transpose", "--mesh", "4x2"});
  expect_one_error_line({"traffic", "--rate", "2"});
  expect_one_error_line({"traffic", "--rate", "0"});
  expect_one_error_line({"traffic", "--rate", "-0.5"});
  expect_one_error_line({"traffic", "--flits", "0"});
  expect_one_error_line({"traffic", "--cycles", "0"});
  // Negative values for unsigned fields are refused, not wrapped around.
  expect_error_naming({"barrier", "--ts", "-5"}, "--ts");
  expect_error_naming({"barrier", "--ts=-5"}, "--ts");
  expect_error_naming({"barrier", "--tp", "-1"}, "--tp");
  expect_error_naming({"barrier", "--trn", "-1"}, "--trn");
  expect_error_naming({"traffic", "--trm", "-30"}, "--trm");
  expect_error_naming({"barrier", "--ts", "abc"}, "--ts");
  expect_error_naming({"barrier", "--buffer-depth", "0"}, "--buffer-depth");
  expect_error_naming({"barrier", "--sync-buffer-depth", "-4"}, "--sync-buffer-depth");
  expect_error_naming({"barrier", "--registers", "300"}, "--registers");
  expect_error_naming({"barrier", "--registers", "-1"}, "--registers");
  expect_error_naming({"barrier", "--deadlock-cycles", "5"}, "deadlock-cycles");
  expect_error_naming({"barrier", "--deadlock-cycles", "-5"}, "--deadlock-cycles");
  expect_error_naming({"barrier", "--repeat", "0"}, "--repeat");
  expect_one_error_line({"tree", "--json", "--dot"});
  expect_error_naming({"barrier", "--max-children", "3"}, "--max-children");
  expect_error_naming({"barrier", "--seed", "-1", "--members", "random:3"}, "--seed");
  expect_error_naming({"tree", "--seed", "-1"}, "--seed");
  expect_error_naming({"traffic", "--seed", "-7"}, "--seed");
  expect_error_naming({"traffic", "--warmup", "-1"}, "--warmup");
  expect_error_naming({"traffic", "--flits", "1025"}, "--flits");
}

TEST_CASE("cli: unknown options, subcommands and config problems", "[cli][errors]") {
  expect_one_error_line({"barrier", "--bogus"});
  expect_one_error_line({"frobnicate"});
  expect_one_error_line({});
  const fs::path unknown = write_file("unknown_key.yaml", "mesh: 4x4\nbogus: 3\n");
  expect_error_naming({"barrier", "--config", unknown.string()}, "unknown key 'bogus'");
  // As written in the file, underscores and all; a traffic key is no barrier option.
  const fs::path typo = write_file("typo_key.yaml", "buffer_dept: 4\n");
  expect_error_naming({"barrier", "--config", typo.string()}, "unknown key 'buffer_dept'");
  const fs::path other = write_file("other_key.yaml", "pattern: uniform\n");
  expect_error_naming({"barrier", "--config", other.string()}, "unknown key 'pattern'");
  const fs::path broken = write_file("broken.yaml", "mesh: [4x4\n");
  expect_one_error_line({"barrier", "--config", broken.string()});
  const fs::path list = write_file("list.yaml", "- mesh\n- 4x4\n");
  expect_one_error_line({"barrier", "--config", list.string()});
  const fs::path nested = write_file("nested.yaml", "mesh:\n  w: 4\n");
  expect_one_error_line({"barrier", "--config", nested.string()});
  const fs::path bad_value = write_file("bad_value.yaml", "mesh: 4x4\nts: -5\n");
  expect_error_naming({"barrier", "--config", bad_value.string()}, "--ts");
  // Found by fuzz_yaml_config: the second key for an option was silently dropped.
  const fs::path twice = write_file("twice.yaml", "ts: 100\nmesh: 4x4\nts: 200\n");
  expect_error_naming({"barrier", "--config", twice.string()}, "config key 'ts' given twice");
  const fs::path spellings = write_file("spellings.yaml", "buffer_depth: 4\nbuffer-depth: 8\n");
  expect_error_naming({"barrier", "--config", spellings.string()}, "'buffer_depth' and 'buffer-depth' both set --buffer-depth");
  const fs::path aliases = write_file("aliases.yaml", "startup: 33\nts: 40\n");
  expect_error_naming({"multicast", "--config", aliases.string()}, "'startup' and 'ts' both set --startup");
  // Found by fuzz_yaml_config: a list or mapping as a key escaped as yaml-cpp's exception.
  for (const char* key : {"[mesh, ts]: 1\n", "? {mesh: 4x4}\n: 1\n"})
    expect_error_naming({"barrier", "--config", write_file("key_not_scalar.yaml", key).string()},
                        "keys must be option names");
  // Found by fuzz_yaml_config: a message quoting the input's newline took two lines.
  const fs::path newline_key = write_file("newline_key.yaml", "\"bo\\ngus\": 1\n");
  expect_error_naming({"barrier", "--config", newline_key.string()}, "unknown key 'bo\\ngus'");
  // Found by fuzz_yaml_config: `members: ""` was taken, `--members=` is refused.
  for (const char* empty : {"mesh: 8x8\nmembers: \"\"\n", "scheme: [btm, '']\n", "members:\n"})
    expect_error_naming({"barrier", "--config", write_file("empty_value.yaml", empty).string()}, "has an empty value");
  expect_one_error_line({"barrier", "--members", "1,1\n2;2"});
  const fs::path bad_mesh = write_file("bad_mesh.yaml", "mesh: 8by8\n");
  expect_one_error_line({"tree", "--config", bad_mesh.string()});
  expect_one_error_line({"barrier", "--config", (scratch_dir() / "does_not_exist.yaml").string()});
}

TEST_CASE("cli: --help exits 0 and shows config.hpp's defaults", "[cli]") {
  const Result r = run({"barrier", "--help"});
  INFO(r.err);
  CHECK(r.exit_code == 0);
  CHECK(r.err.empty());
  CHECK_THAT(r.out, Catch::Contains("--deadlock-cycles"));
  CHECK_THAT(r.out, Catch::Contains("=" + std::to_string(NetworkConfig{}.deadlock_cycles)));
  CHECK_THAT(r.out, Catch::Contains("=" + std::to_string(NetworkConfig{}.mesh.width) + "x"));
  CHECK(run({"--help"}).exit_code == 0);
}

TEST_CASE("cli: every simulating subcommand writes --trace, bad trace options are one line and no file",
          "[cli][errors][waveform]") {
  const std::vector<std::vector<std::string>> commands{
      {"barrier", "--mesh", "3x3"},
      {"traffic", "--mesh", "3x3", "--cycles", "50"},
      {"multicast", "--mesh", "3x3", "--algo", "qg", "--dests", "random:3", "--trials", "2"},
      {"bcast", "--mesh", "3x3"},
      {"soak", "--mesh", "3x3", "--cycles", "300"}};
  for (const auto& c : commands) {
    INFO(c[0]);
    const fs::path trace = scratch_dir() / (c[0] + ".fst");
    const Result r = run(plus(c, {"--trace", trace.string()}));
    INFO(r.err);
    CHECK(r.exit_code == 0);
    CHECK(fs::file_size(trace) > 0);
    CHECK(fs::exists(scratch_dir() / (c[0] + ".gtkw")));

    const fs::path left = scratch_dir() / (c[0] + "-bad.fst");
    const std::string bad = (scratch_dir() / "no" / "such" / "dir" / "wave.fst").string();
    CHECK_THAT(expect_one_error_line(plus(c, {"--trace", bad})), Catch::Contains("cannot write"));
    CHECK_THAT(expect_one_error_line(plus(c, {"--trace", left.string(), "--trace-routers", "3,0"})),
               Catch::Contains("--trace-routers"));
    CHECK_THAT(expect_one_error_line(plus(c, {"--trace", left.string(), "--trace-window", "40:20"})),
               Catch::Contains("--trace-window"));
    CHECK_THAT(expect_one_error_line(plus(c, {"--trace", left.string(), "--trace-window", "20"})),
               Catch::Contains("--trace-window"));
    CHECK_THAT(expect_one_error_line(plus(c, {"--trace-window", "1:2"})), Catch::Contains("needs --trace"));
    // Nothing at all: the trace, its save file, its filters.
    for (const auto& e : fs::directory_iterator(scratch_dir()))
      CHECK(e.path().filename().string().rfind(c[0] + "-bad.", 0) != 0);
  }
}

TEST_CASE("cli: barrier --json on a complete 4x4 BTM meets the analytic latency", "[cli][json]") {
  const json j = run_json({"barrier", "--mesh", "4x4", "--members", "all", "--scheme", "btm", "--json"});
  CHECK(j.at("schemes")[0].at("latency_cycles") == j.at("schemes")[0].at("analytic_cycles"));
  CHECK(j.at("schemes")[0].at("members") == 16);
  CHECK(j.at("schemes")[0].at("height") == 3);
  CHECK(j.at("schemes")[0].at("scheme") == "btm");
  CHECK(j.at("mesh") == json::array({4, 4}));
  CHECK(j.at("schemes")[0].at("software_fallbacks") == 0);
  const MeshShape m{4, 4};
  const BarrierTree t = build_btm_tree(m, ref::all_nodes(m));
  CHECK(j.at("schemes")[0].at("runs")[0].at("root") == coord(m, t.root()));
  CHECK(j.at("schemes")[0].at("analytic_cycles").get<std::uint64_t>() == t.analytic_cycles(Timing{}));
  CHECK(j.at("schemes")[0].at("hops").get<std::uint64_t>() == t.analytic_hops());
  CHECK(j.at("timing") == json{{"ts", 1000}, {"tp", 5}, {"trn", 5}, {"trm", 30}});
  // The full router parameters and the seed, so the run can be reproduced from its output.
  CHECK(j.at("router") == json(NetworkConfig{}).at("router"));
  CHECK(j.at("deadlock_cycles") == NetworkConfig{}.deadlock_cycles);
  CHECK(j.at("seed") == 1);
}

TEST_CASE("cli: barrier timing options reach the simulation", "[cli][json]") {
  const json j = run_json({"barrier", "--mesh", "6x5", "--members", "1,1;4,3", "--scheme", "cs",
                           "--ts", "7", "--tp", "1", "--trn", "1", "--trm", "3", "--buffer-depth", "20",
                           "--sync-buffer-depth", "3", "--tree-buffer-depth", "30", "--registers", "2",
                           "--max-children", "5", "--deadlock-cycles", "5000", "--json"});
  // Two members 5 hops apart, CS: 2*(ts + d*tp + (d+1)*trm).
  CHECK(j.at("schemes")[0].at("latency_cycles") == 2 * (7 + 5 * 1 + 6 * 3));
  CHECK(j.at("schemes")[0].at("analytic_cycles") == 2 * (7 + 5 * 1 + 6 * 3));
  CHECK(j.at("timing") == json{{"ts", 7}, {"tp", 1}, {"trn", 1}, {"trm", 3}});
  CHECK(j.at("router") == json{{"buffer_depth", 20}, {"sync_buffer_depth", 3}, {"tree_buffer_depth", 30},
                               {"barrier_registers", 2}, {"max_children", 5}, {"ni_ports", 1}, {"path_worms", 1}, {"reduce_words", 1024}, {"unicast_vcs", 1}, {"vc_allocation", 0}, {"routing_stage", 0}, {"va_stage", 0}, {"switch_allocator", 0}, {"islip_iterations", 1}});
  CHECK(j.at("deadlock_cycles") == 5000);
}

TEST_CASE("cli: --registers 0 falls back to software when asked, and is slower", "[cli][json][registers]") {
  expect_error_naming({"barrier", "--mesh", "4x4", "--registers", "0"}, "--registers 0");
  expect_error_naming({"barrier", "--mesh", "4x4", "--registers", "0"}, "--software-fallback");
  const json j = run_json({"barrier", "--mesh", "4x4", "--members", "all", "--registers", "0", "--software-fallback",
                           "--json"});
  CHECK(j.at("schemes")[0].at("software_fallbacks") == 16);
  CHECK(j.at("schemes")[0].at("latency_cycles").get<std::uint64_t>() > j.at("schemes")[0].at("analytic_cycles").get<std::uint64_t>());
  const json k = run_json({"barrier", "--mesh", "4x4", "--members", "random:6", "--registers", "1",
                           "--scheme", "cs", "--json"});
  CHECK(k.at("schemes")[0].at("latency_cycles").get<std::uint64_t>() >= k.at("schemes")[0].at("analytic_cycles").get<std::uint64_t>());
}

namespace {
void check_tree_json(const json& j, BarrierScheme scheme, const MeshShape& mesh,
                     const std::vector<NodeId>& members) {
  const BarrierTree t = build_tree(scheme, mesh, members);
  CHECK(j.at("root") == coord(mesh, t.root()));
  CHECK(j.at("height") == t.height());
  const json& nodes = j.at("nodes");
  REQUIRE(nodes.is_array());
  REQUIRE(nodes.size() == members.size());
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    const json& n = nodes[i];
    const TreeNode& tn = t.nodes()[i];
    INFO("node " << n.dump());
    CHECK(n.at("node") == coord(mesh, tn.node));
    if (tn.parent) CHECK(n.at("parent") == coord(mesh, *tn.parent));
    else CHECK(n.at("parent").is_null());
    REQUIRE(n.at("r").is_string());
    CHECK((n.at("r") == "XY" || n.at("r") == "YX"));
    if (tn.parent) CHECK(n.at("r") == std::string(route_name(tn.r)));
    const json& ch = n.at("children");
    REQUIRE(ch.is_object());
    std::size_t listed = 0;
    for (auto it = ch.begin(); it != ch.end(); ++it) {
      CHECK((it.key() == "+X" || it.key() == "-X" || it.key() == "+Y" || it.key() == "-Y"));
      if (scheme == BarrierScheme::BTM) {
        // One child per port, given as [x,y].
        REQUIRE(it.value().is_array());
        REQUIRE(it.value().size() == 2);
        REQUIRE(it.value()[0].is_number_integer());
        ++listed;
      } else {
        REQUIRE(it.value().is_array());
        for (const json& c : it.value()) REQUIRE(c.is_array());
        listed += it.value().size();
      }
    }
    CHECK(listed == tn.children.size());
    for (const ChildLink& c : tn.children) {
      const std::string port(port_name(next_port(mesh.coord(tn.node), mesh.coord(c.node), c.route)));
      REQUIRE(ch.contains(port));
      if (scheme == BarrierScheme::BTM) {
        CHECK(ch.at(port) == coord(mesh, c.node));
      } else {
        bool found = false;
        for (const json& x : ch.at(port)) found |= x == coord(mesh, c.node);
        CHECK(found);
      }
    }
  }
}
}  // namespace

TEST_CASE("cli: tree --json has the documented format and matches the tree", "[cli][json][tree]") {
  const MeshShape m4{4, 4}, m8{8, 8}, m53{5, 3};
  check_tree_json(run_json({"tree", "--mesh", "4x4", "--json"}), BarrierScheme::BTM, m4, ref::all_nodes(m4));
  check_tree_json(run_json({"tree", "--mesh", "8x8", "--members", "random:20", "--seed", "3", "--json"}),
                  BarrierScheme::BTM, m8, parse_members("random:20", m8, 3));
  check_tree_json(run_json({"tree", "--mesh", "5x3", "--members", "0,0;4,2;2,1;1,2;3,0", "--json"}),
                  BarrierScheme::BTM, m53, parse_members("0,0;4,2;2,1;1,2;3,0", m53, 1));
  check_tree_json(run_json({"tree", "--mesh", "8x8", "--members", "random:25", "--seed", "9",
                            "--scheme", "cs", "--json"}),
                  BarrierScheme::CS, m8, parse_members("random:25", m8, 9));
  // A single member: no parent, no children.
  const json one = run_json({"tree", "--mesh", "3x3", "--members", "2,1", "--json"});
  CHECK(one.at("height") == 0);
  REQUIRE(one.at("nodes").size() == 1);
  CHECK(one.at("nodes")[0].at("parent").is_null());
  CHECK(one.at("nodes")[0].at("children").empty());
}

TEST_CASE("cli: a YAML --config file sets options", "[cli][json][config]") {
  const fs::path cfg = write_file("good.yaml", "mesh: 4x4\nmembers: all\nscheme: cs\nts: 100\ntp: 2\n");
  const json j = run_json({"barrier", "--config", cfg.string(), "--json"});
  CHECK(j.at("mesh") == json::array({4, 4}));
  CHECK(j.at("schemes")[0].at("scheme") == "cs");
  CHECK(j.at("schemes")[0].at("members") == 16);
  CHECK(j.at("timing").at("ts") == 100);
  CHECK(j.at("timing").at("tp") == 2);
  CHECK(j.at("timing").at("trm") == 30);
  CHECK(j.at("schemes")[0].at("latency_cycles").get<std::uint64_t>() >= j.at("schemes")[0].at("analytic_cycles").get<std::uint64_t>());
  // The command line wins over the file.
  const json k = run_json({"barrier", "--config", cfg.string(), "--ts", "50", "--json"});
  CHECK(k.at("timing").at("ts") == 50);
  // Underscores stand for dashes; tree options come from a file too.
  const fs::path tcfg = write_file("tree.yaml", "mesh: 5x4\nmembers: all\n");
  const json t = run_json({"tree", "--config", tcfg.string(), "--json"});
  CHECK(t.at("height") == 3);
  CHECK(t.at("mesh") == json::array({5, 4}));
  const fs::path ucfg = write_file("underscore.yaml", "mesh: 3x3\nbuffer_depth: 20\nsync_buffer_depth: 2\n");
  const json u = run_json({"barrier", "--config", ucfg.string(), "--json"});
  CHECK(u.at("mesh") == json::array({3, 3}));
  CHECK(u.at("router").at("buffer_depth") == 20);
  CHECK(u.at("router").at("sync_buffer_depth") == 2);
  // Flags and explicit member lists from the file; --config before the subcommand.
  const fs::path fcfg = write_file("flags.yaml", "mesh: 3x3\njson: true\nmembers: \"0,0;2,2\"\n");
  for (const auto& args : {std::vector<std::string>{"barrier", "--config", fcfg.string()},
                           std::vector<std::string>{"--config", fcfg.string(), "barrier"}}) {
    const json f = run_json(args);
    CHECK(f.at("schemes")[0].at("members") == 2);
    CHECK(f.at("mesh") == json::array({3, 3}));
  }
}

TEST_CASE("cli: traffic --json is deterministic for a seed", "[cli][json][determinism]") {
  const std::vector<std::string> base = {"traffic", "--mesh", "4x4", "--rate", "0.1", "--flits", "2",
                                         "--cycles", "2000", "--warmup", "200", "--json"};
  auto with_seed = [&](const char* s) {
    auto a = base;
    a.push_back("--seed");
    a.push_back(s);
    json j = run_json(a);
    j.erase("wall_seconds");
    j.erase("router_cycles_per_second");
    return j;
  };
  const json a = with_seed("5"), b = with_seed("5"), c = with_seed("6");
  CHECK(a == b);
  CHECK(a != c);
  CHECK(a.at("packets_measured").get<std::uint64_t>() > 100);
  CHECK(a.at("seed") == 5);
  // The default network, less what traffic never reads (kTrafficUnusedParameters).
  json network = NetworkConfig{};
  for (const char* unused : {"ts", "trm"}) network.at("timing").erase(unused);
  for (const char* unused : {"barrier_registers", "max_children"}) network.at("router").erase(unused);
  CHECK(a.at("router") == network.at("router"));
  CHECK(a.at("timing") == network.at("timing"));
  CHECK(a.at("flits_delivered") == 2 * a.at("packets_delivered").get<std::uint64_t>());
}

#ifdef MESHSYNC_BIN_HAS_RTL
TEST_CASE("cli: --rtl and --lockstep give the model's results, bad RTL options are one line",
          "[cli][rtl]") {
  const std::vector<std::string> base = {"barrier", "--mesh", "4x4", "--scheme", "btm,cs", "--json"};
  auto latencies = [](const json& j) {
    std::vector<std::uint64_t> v;
    for (const auto& s : j.at("schemes")) v.push_back(s.at("latency_cycles").get<std::uint64_t>());
    return v;
  };
  const json model = run_json(base);
  auto rtl_args = base;
  rtl_args.insert(rtl_args.end(), {"--rtl", "0,0;1,2;3,3", "--lockstep", "2,2"});
  const json mixed = run_json(rtl_args);
  CHECK(latencies(mixed) == latencies(model));
  CHECK(mixed.at("rtl").at("routers") == 4);
  CHECK(mixed.at("rtl").at("lockstep") == 1);
  auto traffic = [](const std::vector<std::string>& extra) {
    std::vector<std::string> a = {"traffic", "--mesh", "4x4", "--rate", "0.1", "--flits", "3",
                                  "--cycles", "1000", "--warmup", "100", "--json"};
    a.insert(a.end(), extra.begin(), extra.end());
    json j = run_json(a);
    for (const char* k : {"wall_seconds", "router_cycles_per_second", "rtl"}) j.erase(k);
    return j;
  };
  CHECK(traffic({"--lockstep", "all"}) == traffic({}));
  // Routers evaluated on two threads: the same cycles, every router still in lockstep.
  CHECK(traffic({"--lockstep", "all", "--threads", "2"}) == traffic({}));
  expect_error_naming({"traffic", "--mesh", "4x4", "--threads", "2"}, "--threads evaluates RTL routers");
  expect_error_naming({"traffic", "--mesh", "4x4", "--threads", "0"}, "--threads");

  expect_one_error_line({"barrier", "--mesh", "4x4", "--rtl", "4,0"});
  expect_one_error_line({"barrier", "--mesh", "4x4", "--lockstep", "1;2"});
  expect_one_error_line({"barrier", "--mesh", "4x4", "--rtl", "all", "--trm", "31"});
}

TEST_CASE("cli: --trace with RTL routers: the decoded ports as the model's, and their Verilated signals "
          "beside, with a clock", "[cli][rtl][waveform]") {
  const fs::path model = scratch_dir() / "model.vcd", rtl = scratch_dir() / "rtl.vcd";
  const std::vector<std::string> barrier{"barrier", "--mesh", "3x3", "--members", "all"};
  REQUIRE(run(plus(barrier, {"--trace", model.string()})).exit_code == 0);
  const Result r = run(plus(barrier, {"--rtl", "1,1;2,1", "--trace", rtl.string()}));
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  // Every port field of every router, model or RTL, changes to the same values in the
  // same cycles of the barrier (the RTL routers' credits and registers are in their own
  // trace). With RTL routers the whole barrier runs a cycle later (same latency: the
  // members arrive a cycle later after their joins), so the times are compared from the
  // barrier's first flit on.
  const test::VcdTrace a(model.string()), b(rtl.string());
  const auto first_flit = [](const test::VcdTrace& t) {
    std::uint64_t first = ~std::uint64_t{0};
    for (const auto& [name, changes] : t.all())
      if (name.size() > 5 && name.compare(name.size() - 5, 5, ".kind") == 0 && name.find("_out.") != std::string::npos)
        for (const auto& [when, value] : changes)
          if (value != 0) first = std::min(first, when);
    return first;
  };
  const std::uint64_t shift = first_flit(b) - first_flit(a);
  CHECK(shift <= 10);
  std::size_t compared = 0;
  for (const auto& [name, changes] : b.all()) {
    if (name.find("_out.") == std::string::npos || name.find("credits_") != std::string::npos) continue;
    INFO(name);
    REQUIRE(a.has(name));
    auto expected = a.changes(name);
    for (auto& [when, value] : expected)
      if (when > 0) when += shift;
    CHECK(expected == changes);
    ++compared;
  }
  CHECK(compared == 9 * 5 * 7);
  // fst2vcd comes with GTKWave (scripts/setup installs it).
  const fs::path fst = scratch_dir() / "rtl.rtl.fst", vcd = scratch_dir() / "rtl.rtl.vcd";
  REQUIRE(std::system(("fst2vcd " + quote(fst.string()) + " >" + quote(vcd.string()) + " 2>/dev/null").c_str()) == 0);
  const std::string text = slurp(vcd);
  CHECK_THAT(text, Catch::Contains("$scope module rtl.r_1_1 $end"));
  CHECK_THAT(text, Catch::Contains("$scope module rtl.r_2_1 $end"));
  CHECK_THAT(text, !Catch::Contains("rtl.r_0_0"));
  CHECK_THAT(text, Catch::Contains(" out_valid_o "));
  CHECK_THAT(text, !Catch::Contains("unnamedblk"));
  const test::VcdTrace raw(vcd.string());
  std::set<std::uint64_t> clock;
  for (const auto& [t, v] : raw.changes("rtl.r_1_1.clk_i")) clock.insert(v);
  CHECK(clock == std::set<std::uint64_t>{0, 1});
}
#endif

TEST_CASE("cli: multicast-plan --json gives each algorithm's worms and zero-load latency",
          "[cli][json][multicast]") {
  // The QG example of NOTES-multicast.md.
  const json j = run_json({"multicast-plan", "--mesh", "8x8", "--src", "0,3", "--dests",
                           "6,5;7,3;3,4;6,6;4,4;6,7;2,3;1,5", "--json"});
  CHECK(j["source"] == json::array({0, 3}));
  CHECK(j["destinations"].size() == 8);
  REQUIRE(j["algorithms"].size() == 4);
  for (const json& a : j["algorithms"]) {
    // Every destination is delivered exactly once, and the latency is the last arrival.
    std::multiset<std::string> got;
    std::uint64_t last = 0;
    for (const json& step : a["steps"])
      for (const json& w : step["worms"]) {
        CHECK(w["dests"].size() == w["dest_hops"].size());
        CHECK(w["path"].back() == w["dests"].back());
        for (const json& d : w["dests"]) got.insert(d.dump());
      }
    for (const json& arr : a["arrivals"]) last = std::max(last, arr["latency_cycles"].get<std::uint64_t>());
    CHECK(got.size() == 8);
    CHECK(std::set<std::string>(got.begin(), got.end()).size() == 8);
    CHECK(a["zero_load_cycles"] == last);
  }
  const json& qg = j["algorithms"][3];
  CHECK(qg["algorithm"] == "qg");
  CHECK(qg["startups"] == 2);
  CHECK(qg["divisor"] == "Y");
  std::set<std::string> reps;
  for (const json& g : qg["groups"]) reps.insert(g["representative"].dump());
  CHECK(reps == std::set<std::string>{"[2,3]", "[7,3]", "[1,5]", "[6,5]", "[6,6]"});
  // The DP example: 4x4 from (1,1), last destination at 2 + 33 + 6 + 32.
  const json dp = run_json({"multicast-plan", "--mesh", "4x4", "--src", "1,1", "--dests",
                            "3,3;0,2;2,0;0,0", "--algo", "dp", "--json"});
  REQUIRE(dp["algorithms"].size() == 1);
  CHECK(dp["algorithms"][0]["zero_load_cycles"] == 73);
  // random:K draws K of the other nodes, the same for a seed.
  json r1 = run_json({"multicast-plan", "--mesh", "10x10", "--src", "5,5", "--dests", "random:20",
                      "--seed", "4", "--algo", "qg", "--json"});
  json r2 = run_json({"multicast-plan", "--mesh", "10x10", "--src", "5,5", "--dests", "random:20",
                      "--seed", "4", "--algo", "qg", "--json"});
  for (json* r : {&r1, &r2}) r->erase("wall_seconds");
  CHECK(r1 == r2);
  CHECK(r1["destinations"].size() == 20);
  CHECK_THAT(r1["destinations"].dump(), !Catch::Contains("[5,5]"));
}

TEST_CASE("cli: multicast-plan and multicast refuse bad destination lists with one line",
          "[cli][errors][multicast]") {
  for (const std::string command : {"multicast-plan", "multicast"}) {
    INFO(command);
    const auto with = [&](const std::vector<std::string>& extra) {
      return plus({command, "--mesh", "4x4", "--src", "1,1"}, extra);
    };
    expect_error_naming(with({"--dests", "1,1;2,2"}), "source (1,1) is among the destinations");
    expect_error_naming(with({"--dests", "2,2;2,2"}), "duplicate destination (2,2)");
    expect_error_naming(with({"--dests", "4,0"}), "outside the 4x4 mesh");
    expect_error_naming(with({"--dests", ""}), "empty destination list");
    expect_error_naming(with({"--dests", "random:16"}), "between 1 and 15 destinations");
    expect_error_naming(with({"--dests", "random:2", "--algo", "xx"}), "--algo");
    expect_error_naming(with({"--dests", "random:2", "--algo", "dp,qg,dp"}), "algorithm 'dp' given twice");
    expect_error_naming({command, "--mesh", "4x4", "--src", "9,9"}, "source (9,9) is outside");
    expect_error_naming({command, "--mesh", "4x4", "--src", "1,1;2,2"}, "one node");
  }
}

TEST_CASE("cli: multicast refuses bad rates, load settings and RTL runs with one line", "[cli][errors][multicast]") {
  const auto with = [](const std::vector<std::string>& extra) { return plus({"multicast", "--mesh", "4x4"}, extra); };
  expect_error_naming(with({"--rate", "-0.1"}), "--rate must be from 0 to 1");
  expect_error_naming(with({"--rate", "2"}), "--rate must be from 0 to 1");
  expect_error_naming(with({"--rate", "nan"}), "--rate");
  expect_error_naming(with({"--rate", "fast"}), "--rate");
  expect_error_naming(with({"--rate", "0.01", "--src", "1,1"}), "every node is a source");
  expect_error_naming(with({"--rate", "0.01", "--dests", "1,1;2,2"}), "random:K");
  expect_error_naming(with({"--rate", "0.01", "--dests", "random:16"}), "between 1 and 15 destinations");
  expect_error_naming(with({"--rate", "0.01", "--trials", "3"}), "--trials");
  expect_error_naming(with({"--ni", "two-port"}), "--ni");
  expect_error_naming(with({"--flits", "0"}), "--flits");
  expect_error_naming(with({"--batches", "0"}), "--batches");
  expect_error_naming(with({"--lockstep", "0,0", "--ni", "one-port", "--load", "uniform"}), "--load does not run");
  expect_error_naming(with({"--rtl", "all", "--ni", "one-port", "--trace", "w.fst"}), "give one --algo");
  // The QG paper's model switches (docs/multicast.md).
  expect_error_naming(with({"--addresses", "free"}), "--addresses");
  expect_error_naming(with({"--qg-routing", "xy"}), "--qg-routing");
  expect_error_naming(with({"--sender-busy", "always"}), "--sender-busy");
  expect_error_naming(with({"--addresses", "within", "--flits", "10", "--dests", "random:10"}), "--addresses within");
  // A hop of trn alone is the model's: refused before any RTL is built or loaded.
  expect_error_naming(with({"--tp", "0", "--rtl", "all"}), "tp of at least 1");
  expect_error_naming(with({"--tp", "0", "--lockstep", "mesh"}), "tp of at least 1");
}

#ifdef MESHSYNC_BIN_HAS_RTL
TEST_CASE("cli: multicast with RTL routers in lockstep gives the model's arrival cycles", "[cli][rtl][multicast]") {
  // The RTL builds' routers (trn 5, trm 30): default (one-port NI) and allport.
  const std::string ni = GENERATE(as<std::string>{}, "one-port", "all-port");
  INFO("--ni " << ni);
  const std::vector<std::string> base = {"multicast", "--mesh", "4x4", "--src", "1,2", "--dests",
                                         "3,3;0,0;2,0;0,3;3,1;1,0", "--ni", ni, "--trn", "5",
                                         "--trm", "30", "--flits", "6", "--json"};
  const auto arrivals = [](const json& j) {
    std::vector<json> v;
    for (const json& a : j.at("algorithms")) v.push_back(a.at("arrivals"));
    return v;
  };
  const json model = run_json(base);
  auto rtl_args = base;
  rtl_args.insert(rtl_args.end(), {"--lockstep", "all"});
  const json rtl = run_json(rtl_args);
  REQUIRE(arrivals(model).size() == 4);
  CHECK(arrivals(rtl) == arrivals(model));
  for (const json& a : rtl.at("algorithms")) {
    INFO(a.at("algorithm"));
    CHECK(a.at("rtl").at("routers") == 16);
    CHECK(a.at("rtl").at("lockstep") == 16);
    // A difference stops the run: a report means none in this many router-cycles.
    CHECK(a.at("rtl").at("router_cycles_compared").get<std::uint64_t>() > 200);
  }
}

TEST_CASE("cli: the two-stage broadcast on RTL routers in lockstep: the model's cycles, every tree copy",
          "[cli][rtl][bcast][tree]") {
  // Stage 1's tree worms through every router of the mesh, each compared with the model
  // every cycle; one-port (default) and all-port RTL builds.
  const std::string ni = GENERATE(as<std::string>{}, "one-port", "all-port");
  INFO("--ni " << ni);
  const std::vector<std::string> base = {"bcast", "--mesh", "8x8", "--comm", "random:30", "--root", "3",
                                         "--algo", "twostage", "--bytes", "300", "--mtu", "64", "--skew", "1500",
                                         "--loss", "0.2", "--ni", ni, "--json"};
  const json model = run_json(base);
  auto rtl_args = base;
  rtl_args.insert(rtl_args.end(), {"--lockstep", "all"});
  const json rtl = run_json(rtl_args);
  const json& m = model.at("algorithms").at(0).at("runs").at(0);
  const json& r = rtl.at("algorithms").at(0).at("runs").at(0);
  CHECK(r.at("ranks") == m.at("ranks"));
  CHECK(r.at("two_stage") == m.at("two_stage"));
  CHECK(r.at("two_stage").at("copies_kept").get<int>() > 50);
  CHECK(rtl.at("rtl").at("lockstep") == 64);
  CHECK(rtl.at("rtl").at("router_cycles_compared").get<std::uint64_t>() > 10000);
}
#endif

TEST_CASE("cli: multicast --json gives simulated arrivals beside the analytic sum, the same for a seed",
          "[cli][json][multicast][determinism]") {
  // The QG example of NOTES-multicast.md, with the paper's network (the defaults).
  const std::vector<std::string> args{"multicast", "--mesh", "8x8", "--src", "0,3", "--dests",
                                      "6,5;7,3;3,4;6,6;4,4;6,7;2,3;1,5", "--json"};
  const json j = run_json(args);
  CHECK(j["ni"] == "all-port");
  CHECK(j["timing"]["ts"] == 33);
  REQUIRE(j["algorithms"].size() == 4);
  for (const json& a : j["algorithms"]) {
    INFO(a["algorithm"]);
    REQUIRE(a["arrivals"].size() == 8);
    std::uint64_t last = 0;
    for (const json& arr : a["arrivals"]) {
      CHECK(arr["latency_cycles"] >= arr["analytic_cycles"]);
      last = std::max(last, arr["latency_cycles"].get<std::uint64_t>());
    }
    CHECK(a["latency_avg_cycles"] == last);
    if (a["algorithm"] == "dp" || a["algorithm"] == "qg")  // no two worms compete here
      for (const json& arr : a["arrivals"]) CHECK(arr["latency_cycles"] == arr["analytic_cycles"]);
  }
  CHECK(j["algorithms"][3]["startups"] == 2);
  // Under load: the same numbers for the same seed, others for another.
  const std::vector<std::string> load{"multicast", "--mesh", "6x6", "--dests", "random:5", "--rate", "0.002",
                                      "--warmup", "20", "--batches", "3", "--batch-size", "20", "--json"};
  auto seeded = [&](const std::string& seed) {
    json r = run_json(plus(load, {"--seed", seed}));
    r.erase("wall_seconds");
    return r;
  };
  const json x = seeded("5"), y = seeded("5"), z = seeded("6");
  CHECK(x == y);
  CHECK(x != z);
  for (const json& a : x["algorithms"]) {
    CHECK(a["saturated"] == false);
    CHECK(a["measured"] == 60);
    CHECK(a["batch_means_cycles"].size() == 3);
    CHECK(a["latency_avg_cycles"].get<double>() >= a["zero_load_cycles"].get<double>());
  }
}

namespace {

// A sweep's CSV without the host-time columns, which no two runs share.
std::vector<std::string> csv_without_host_time(const fs::path& csv) {
  const auto rows = lines(slurp(csv));
  REQUIRE_FALSE(rows.empty());
  std::vector<bool> keep;
  std::stringstream header(rows[0]);
  for (std::string col; std::getline(header, col, ',');)
    keep.push_back(col.find("wall_seconds") == std::string::npos &&
                   col.find("router_cycles_per_second") == std::string::npos);
  std::vector<std::string> out;
  for (const std::string& row : rows) {
    std::string kept;
    std::size_t c = 0, start = 0;
    bool quoted = false;
    for (std::size_t i = 0; i <= row.size(); ++i) {
      if (i < row.size() && row[i] == '"') quoted = !quoted;
      if (i == row.size() || (row[i] == ',' && !quoted)) {
        if (c < keep.size() && keep[c]) kept += row.substr(start, i - start) + ",";
        ++c;
        start = i + 1;
      }
    }
    out.push_back(kept);
  }
  return out;
}

}  // namespace

TEST_CASE("cli: sweep runs the product x seeds, the same rows for any number of workers, and resumes",
          "[cli][sweep]") {
  const std::string body =
      "command: barrier\n"
      "parameters:\n"
      "  mesh: [4x4, 8x8]\n"
      "  members: [random:5, all]\n"
      "  scheme: [btm, cs]\n"
      "  trm: 20\n"
      "seeds: [7, 8]\n";
  const fs::path one = write_file("sweep_one.yaml", body), two = write_file("sweep_two.yaml", body);
  const Result r1 = run({"sweep", one.string(), "--workers", "1"});
  const Result r2 = run({"sweep", two.string(), "--workers", "2"});
  INFO(r1.err << r2.err);
  REQUIRE(r1.exit_code == 0);
  REQUIRE(r2.exit_code == 0);
  const fs::path csv1 = scratch_dir() / "sweep_one.csv", csv2 = scratch_dir() / "sweep_two.csv";
  const auto rows = csv_without_host_time(csv1);
  CHECK(rows.size() == 1 + 2 * 2 * 2 * 2);
  CHECK(rows == csv_without_host_time(csv2));
  CHECK_THAT(rows[0], Catch::StartsWith("point,mesh,members,scheme,trm,seed,commit,"));
  // Every row is self-describing and its result is what the command alone gives.
  const auto jsonl = lines(slurp(scratch_dir() / "sweep_one.jsonl"));
  REQUIRE(jsonl.size() == 16);
  const json row = json::parse(jsonl[7]);  // (4x4, all, cs, 20) x (7, 8): the second seed
  CHECK(row["point"] == 7);
  CHECK(row["parameters"] == json{{"mesh", "4x4"}, {"members", "all"}, {"scheme", "cs"}, {"trm", "20"}});
  CHECK(row["seed"] == 8);
  const json alone = run_json({"barrier", "--mesh", "4x4", "--members", "all", "--scheme", "cs", "--trm", "20",
                               "--seed", "8", "--json"});
  CHECK(row["result"]["schemes"][0]["latency_cycles"] == alone["schemes"][0]["latency_cycles"]);
  CHECK(row["result"]["router"] == alone["router"]);

  // Interrupted: three points saved and a fourth cut short. Only the rest runs again.
  {
    std::ofstream cut(scratch_dir() / "sweep_one.jsonl");
    cut << jsonl[0] << "\n" << jsonl[1] << "\n" << jsonl[2] << "\n" << jsonl[3].substr(0, 20);
  }
  const Result again = run({"sweep", one.string()});
  INFO(again.err);
  REQUIRE(again.exit_code == 0);
  CHECK_THAT(again.err, Catch::Contains("(13 run, 3 from"));
  CHECK(csv_without_host_time(csv1) == rows);

  // Extended by a seed and a value: the points are numbered anew, the 16 rows it had are
  // found by their parameters and seed, and only the 16 new points run.
  std::string extended = body;
  extended.replace(extended.find("seeds: [7, 8]"), 13, "seeds: [7, 8, 9]");
  extended.replace(extended.find("trm: 20"), 7, "trm: [20, 40]");
  std::ofstream(one) << extended;
  const Result more = run({"sweep", one.string()});
  INFO(more.err);
  REQUIRE(more.exit_code == 0);
  CHECK_THAT(more.err, Catch::Contains("48 points (32 run, 16 from an earlier run)"));
  // A spec that lost points finds rows it does not have: refused, the file kept.
  std::ofstream(one) << body;
  CHECK_THAT(expect_one_error_line({"sweep", one.string()}), Catch::Contains("does not have"));
}

TEST_CASE("cli: bad sweep specs are refused with one line naming the key", "[cli][sweep][errors]") {
  const auto refused = [](const std::string& name, const std::string& body, const std::string& says) {
    const fs::path spec = write_file(name, body);
    expect_error_naming({"sweep", spec.string()}, says);
  };
  refused("s1.yaml", "command: barrier\nparameter:\n  trm: 20\n", "unknown key 'parameter'");
  refused("s2.yaml", "command: barrier\nparameters:\n  trm: []\n", "'parameters.trm' is an empty list");
  refused("s3.yaml", "command: barrier\nparameters:\n  trm: {a: 1}\n", "'parameters.trm' must be a scalar");
  refused("s4.yaml", "command: barrier\nparameters:\n  ts: [5, -5]\n", "--ts");
  refused("s5.yaml", "command: barrier\nparameters:\n  bogus: 3\n", "--bogus");
  refused("s6.yaml", "parameters:\n  trm: 20\n", "'command' is missing");
  refused("s7.yaml", "command: barrier\nseeds: [1, x]\n", "'seeds'");
  refused("s8.yaml", "command: fly\n", "fly");
  // A point the command itself refuses when it runs: one line, with the point.
  refused("s9.yaml", "command: barrier\nparameters:\n  mesh: 4x4\n  members: \"9,9\"\n", "point 0");
}

#ifdef MESHSYNC_MPIEXEC
TEST_CASE("cli: a sweep over two MPI ranks gives the rows of the local sweep", "[cli][sweep][mpi]") {
  const std::string body =
      "command: barrier\n"
      "parameters:\n"
      "  mesh: [4x4, 8x8]\n"
      "  members: [random:5, random:9]\n"
      "  scheme: [btm, cs]\n"
      "seeds: 2\n";
  const fs::path local = write_file("sweep_local.yaml", body), ranks = write_file("sweep_ranks.yaml", body);
  REQUIRE(run({"sweep", local.string()}).exit_code == 0);
  // Open MPI refuses root without these; --oversubscribe: two ranks on any core count.
  const std::string env = "OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1";
  const std::string mpirun = quote(MESHSYNC_MPIEXEC) + " -np 2 --oversubscribe";
  // A machine where MPI cannot start two processes at all says nothing about meshsync.
  if (std::system((env + " timeout 60 " + mpirun + " true >/dev/null 2>&1").c_str()) != 0) {
    WARN("mpirun cannot start two ranks here; the MPI sweep is not tested");
    return;
  }
  const Result r = run({"sweep", ranks.string(), "--workers", "1"}, env, mpirun);
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(r.err, Catch::Contains("2 ranks"));
  CHECK(csv_without_host_time(scratch_dir() / "sweep_ranks.csv") ==
        csv_without_host_time(scratch_dir() / "sweep_local.csv"));
  CHECK(lines(slurp(scratch_dir() / "sweep_ranks.jsonl")).size() == 16);
  CHECK_FALSE(fs::exists(scratch_dir() / "sweep_ranks.rank-1.jsonl"));
}
#endif

TEST_CASE("cli: barrier --load measures barriers while unicast traffic runs", "[cli][json][load]") {
  const json quiet = run_json({"barrier", "--mesh", "8x8", "--scheme", "btm,cs", "--json"});
  for (const char* pattern : {"uniform", "transpose", "hotspot"}) {
    const json j = run_json({"barrier", "--mesh", "8x8", "--scheme", "btm,cs", "--repeat", "3", "--load", pattern,
                             "--load-rate", "0.05", "--json"});
    INFO(pattern);
    REQUIRE(j["load"]["pattern"] == pattern);
    CHECK(j["load"]["accepted_flits_per_node_cycle"].get<double>() > 0.03);
    CHECK(j["load"]["packets_measured"].get<std::uint64_t>() > 100);
    for (std::size_t s = 0; s < 2; ++s) {
      const json& loaded = j["schemes"][s];
      // The load can only delay a barrier; the tree and its messages stay the same.
      for (const json& run : loaded["runs"]) {
        CHECK(run["latency_cycles"].get<std::uint64_t>() >= run["analytic_cycles"].get<std::uint64_t>());
        CHECK(run["hops"] == quiet["schemes"][s]["hops"]);
      }
    }
  }
  expect_error_naming({"barrier", "--load", "random"}, "--load");
  expect_error_naming({"barrier", "--load", "uniform", "--load-rate", "0"}, "rate must be in (0, 1]");
  expect_error_naming({"barrier", "--mesh", "4x2", "--load", "transpose"}, "square mesh");
}

TEST_CASE("cli: --rtl and --lockstep refuse meshes the RTL flit cannot address, with one line",
          "[cli][errors][scale]") {
  // The model simulates up to 1024x1024; the 32-bit RTL flit's destination fields name
  // 128 positions per side, built with co-simulation or not.
  expect_error_naming({"barrier", "--mesh", "256x256", "--rtl", "all"}, "at most 128x128");
  expect_error_naming({"barrier", "--mesh", "129x2", "--lockstep", "0,0"}, "got 129x2");
  expect_error_naming({"traffic", "--mesh", "2x1024", "--rtl", "0,0", "--cycles", "10"}, "--rtl");
}

namespace {

// The subcommands of `meshsync --help`.
std::vector<std::string> subcommands() {
  const Result r = run({"--help"});
  std::vector<std::string> names;
  bool listing = false;
  for (const std::string& l : lines(r.out)) {
    if (l.rfind("SUBCOMMANDS:", 0) == 0 || l.rfind("Subcommands:", 0) == 0) listing = true;
    else if (listing && l.size() > 2 && l[0] == ' ' && l[2] != ' ') names.push_back(l.substr(2, l.find(' ', 2) - 2));
    else if (listing && l.empty()) break;
  }
  return names;
}

// Whether `meshsync SUB --help` lists the option `--name`. Each subcommand's help is run
// once: the tests ask it about every parameter, and under the sanitizers each start of
// the program costs a fifth of a second (44 s of this file's sanitizer run went there).
bool has_option(const std::string& sub, const std::string& name) {
  static std::map<std::string, std::string> helps;
  auto help = helps.find(sub);
  if (help == helps.end()) help = helps.emplace(sub, run({sub, "--help"}).out).first;
  for (const std::string& l : lines(help->second)) {
    const auto at = l.find("--" + name);
    if (at == std::string::npos) continue;
    const char after = at + 2 + name.size() < l.size() ? l[at + 2 + name.size()] : ' ';
    if (after == ' ' || after == ',' || after == '=') return true;
  }
  return false;
}

// A --config file (YAML: option: value) that sets the network of a run as its JSON says:
// the mesh, every parameter of kParameters the subcommand has as an option (by the JSON
// key of its row) and deadlock-cycles.
fs::path config_from_json(const std::string& sub, const json& run) {
  std::string yaml = "mesh: " + std::to_string(run.at("mesh")[0].get<int>()) + "x" +
                     std::to_string(run.at("mesh")[1].get<int>()) + "\n";
  for (const Parameter& p : kParameters) {
    // A parameter the subcommand has no option for is not in its JSON either (traffic's ts).
    const json& group = run.at(p.json_object());
    if (!group.contains(p.json_key)) {
      CHECK_FALSE(has_option(sub, p.name));
      continue;
    }
    const auto value = group.at(p.json_key).get<std::uint32_t>();
    if (has_option(sub, p.name)) yaml += std::string(p.name) + ": " + value_text(p, value) + "\n";
    else CHECK(value == p.default_value());  // a run cannot have changed it
  }
  yaml += "deadlock-cycles: " + run.at("deadlock_cycles").dump() + "\n";
  return write_file(sub + "_rerun.yaml", yaml);
}

// The JSON without what the host's speed decides (wall times, rates per host second).
json without_host_times(json j) {
  if (j.is_object()) {
    for (auto it = j.begin(); it != j.end();) {
      const std::string& k = it.key();
      const auto ends = [&](const std::string& tail) {
        return k.size() >= tail.size() && k.compare(k.size() - tail.size(), tail.size(), tail) == 0;
      };
      if (ends("_seconds") || ends("_per_second")) {
        it = j.erase(it);
      } else {
        *it = without_host_times(*it);
        ++it;
      }
    }
  } else if (j.is_array()) {
    for (auto& e : j) e = without_host_times(e);
  }
  return j;
}

}  // namespace

TEST_CASE("cli: every simulating subcommand's JSON, run again through --config, gives the same result",
          "[cli][json][config][parameters]") {
  // Every router and timing parameter away from its default (an NI other than the
  // subcommand's default where it has --ni).
  const std::vector<std::string> network{"--mesh",    "4x3", "--ts",           "40", "--tp", "2", "--trn",
                                         "2",         "--trm", "7",            "--buffer-depth", "6",
                                         "--sync-buffer-depth", "3", "--tree-buffer-depth", "40",
                                         "--registers", "3", "--max-children", "6", "--deadlock-cycles", "90000"};
  // The subcommand's own options, given both times; `ni` the NI that is not its default.
  struct Run {
    std::vector<std::string> own;
    std::string ni;
  };
  const std::map<std::string, Run> runs{
      {"barrier", {{"--members", "random:5", "--scheme", "btm,cs", "--seed", "3", "--repeat", "2"}, ""}},
      {"traffic", {{"--rate", "0.2", "--cycles", "400", "--warmup", "100", "--seed", "5"}, ""}},
      {"multicast", {{"--dests", "random:4", "--trials", "2", "--seed", "2", "--algo", "dp,cp"}, "one-port"}},
      {"bcast", {{"--algo", "binomial,twostage", "--bytes", "64", "--seed", "4"}, "all-port"}},
      {"soak", {{"--cycles", "1500", "--multicast-rate", "0", "--seed", "6"}, "one-port"}},
      {"allreduce", {{"--comm", "random:5", "--type", "int64", "--elements", "3", "--seed", "7"}, "all-port"}},
  };
  // Every subcommand that simulates a network (it has --deadlock-cycles) is here, with
  // those of the parameters it has (traffic has no NI start-up and no barrier).
  int simulating = 0;
  for (const std::string& sub : subcommands()) {
    if (!has_option(sub, "deadlock-cycles")) continue;
    ++simulating;
    INFO(sub);
    REQUIRE(runs.count(sub) == 1);
    const Run& r = runs.at(sub);
    std::vector<std::string> own_network;
    for (std::size_t i = 0; i + 1 < network.size(); i += 2)
      if (has_option(sub, network[i].substr(2))) own_network.insert(own_network.end(), {network[i], network[i + 1]});
    std::vector<std::string> first = plus(plus({sub}, own_network), r.own);
    if (!r.ni.empty()) first = plus(first, {"--ni", r.ni});
    const json j = run_json(plus(first, {"--json"}));
    if (!r.ni.empty()) CHECK(j.at("router").at("ni_ports") == (r.ni == "all-port" ? 4 : 1));
    const fs::path cfg = config_from_json(sub, j);
    INFO(slurp(cfg));
    const json again = run_json(plus(plus({sub, "--config", cfg.string()}, r.own), {"--json"}));
    CHECK(without_host_times(again) == without_host_times(j));
  }
  CHECK(simulating == static_cast<int>(runs.size()));
}

// --progress on runs the simulation in slices (Machine::on_progress) to draw between them:
// the events and so the results must be those of one sc_start().
TEST_CASE("cli: --progress on changes no result, and stays off stdout", "[cli][json][progress]") {
  const std::vector<std::vector<std::string>> runs = {
      {"barrier", "--mesh", "16x16", "--members", "random:40", "--scheme", "btm,cs", "--repeat", "2"},
      {"barrier", "--mesh", "8x8", "--scheme", "btm,cs", "--load", "uniform", "--load-rate", "0.1"},
      {"traffic", "--mesh", "8x8", "--rate", "0.3", "--cycles", "5000"},
      {"multicast", "--mesh", "8x8", "--rate", "0.0005", "--algo", "qg,dp", "--batches", "2", "--batch-size", "40",
       "--warmup", "50"},
      {"bcast", "--mesh", "8x8", "--algo", "binomial,adaptive,twostage", "--repeat", "2"},
      {"soak", "--mesh", "8x8", "--cycles", "5000"},
  };
  for (const auto& args : runs) {
    INFO(args[0]);
    auto with = args;
    with.insert(with.end(), {"--json", "--progress", "on"});
    auto without = args;
    without.insert(without.end(), {"--json", "--progress", "off"});
    CHECK(without_host_times(run_json(with)) == without_host_times(run_json(without)));
  }
  expect_error_naming({"barrier", "--progress", "sometimes"}, "--progress");
}

TEST_CASE("cli: a sparse barrier on a 1024x1024 mesh runs in the model and matches analytic",
          "[cli][scale]") {
  json j = run_json({"barrier", "--mesh", "1024x1024", "--members", "0,0;1023,1023", "--scheme",
                     "btm,cs", "--json"});
  for (const json& s : j["schemes"]) {
    INFO(s.dump());
    CHECK(s["latency_cycles"] == s["analytic_cycles"]);
  }
  CHECK(j["mesh"] == json::array({1024, 1024}));
  // The paper's formula at d = 2046 hops, h = 1 edge: 2*(1000 + 2046*5 + 2045*5 + 2*30).
  CHECK(j["schemes"][0]["latency_cycles"] == 2 * (1000 + 2046 * 5 + 2045 * 5 + 2 * 30));
}

TEST_CASE("cli: bcast refuses bad input with one line", "[cli][errors][bcast]") {
  expect_error_naming({"bcast", "--algo", "twostage", "--slow-link", "1,0:+X:100"}, "--slow-link");
  expect_error_naming({"bcast", "--algo", "twostage", "--stage0", "wait"}, "--stage0");
  expect_error_naming({"bcast", "--algo", "twostage", "--threshold", "1"}, "--threshold");
  expect_error_naming({"bcast", "--algo", "twostage", "--root-delay", "-5"}, "--root-delay");
  expect_error_naming({"bcast", "--algo", "adaptive", "--rtl", "all", "--slow-link", "1,0:+X:100"}, "--slow-link");
  expect_error_naming({"bcast", "--algo", "twostage", "--tree-buffer-depth", "2"}, "--tree-buffer-depth 2");
  // Between 0 (no tree VC) and the minimum validate() refuses, naming both.
  expect_error_naming({"bcast", "--tree-buffer-depth", "1"},
                      "tree-buffer-depth must be at least 2 flits (a head and a word), or 0 (no tree VC)");
  expect_error_naming({"bcast", "--algo", "twostage", "--tree-buffer-depth", "0"}, "--tree-buffer-depth 0");
  expect_error_naming({"bcast", "--tree-buffer-depth", "65536"}, "--tree-buffer-depth");
  expect_error_naming({"bcast", "--algo", "tree"}, "--algo");
  expect_error_naming({"bcast", "--algo", "binomial,binomial"}, "twice");
  expect_error_naming({"bcast", "--loss", "0.1"}, "--loss");
  expect_error_naming({"bcast", "--loss", "2"}, "--loss");
  expect_error_naming({"bcast", "--mesh", "4x4", "--root", "16"}, "--root");
  expect_error_naming({"bcast", "--root", "-1"}, "--root");
  for (const char* option : {"--mtu", "--bytes", "--skew"}) expect_error_naming({"bcast", option, "-2"}, option);
  expect_error_naming({"bcast", "--mtu", "0"}, "--mtu");
  expect_error_naming({"bcast", "--mtu", "1000000"}, "--mtu");
  expect_error_naming({"bcast", "--comm", "random:0"}, "random:0");
  expect_error_naming({"bcast", "--mesh", "4x4", "--comm", "9,9"}, "9,9");
  expect_error_naming({"bcast", "--swapping", "best"}, "--swapping");
  expect_error_naming({"bcast", "--learn", "guess"}, "--learn");
  // No link east of the edge, an unknown port, no cycles, cycles not a number.
  for (const char* link : {"3,0:+X:100", "1,0:up:100", "1,0:+X", "1,0:+X:x", "9,9:+X:100"})
    expect_error_naming({"bcast", "--mesh", "4x4", "--slow-link", link, "--repeat", "3"}, "--slow-link");
  expect_error_naming({"bcast", "--mesh", "4x4", "--slow-link", "1,0:+X:100", "--slow-at", "4", "--repeat", "3"},
                      "--slow-at");
  // A link delay the deadlock detector would mistake for a deadlock.
  expect_error_naming({"bcast", "--mesh", "4x4", "--slow-link", "1,0:+X:60000", "--repeat", "2"}, "deadlock");
  // LogP's split of a send (docs/broadcast.md, "The cost of a send").
  expect_error_naming({"bcast", "--send-overhead", "-1"}, "--send-overhead");
  expect_error_naming({"bcast", "--send-latency", "x"}, "--send-latency");
  expect_error_naming({"bcast", "--send-gap", "1e12"}, "--send-gap");
  expect_error_naming({"bcast", "--multicast-latency", "100"}, "--multicast-latency");
  expect_error_naming({"bcast", "--done-at", "never"}, "--done-at");
  expect_error_naming({"bcast", "--mesh", "4x4", "--algo", "adaptive", "--send-overhead", "50", "--slow-link",
                       "1,0:+X:100", "--repeat", "2"},
                      "--send-overhead");
}

TEST_CASE("cli: bcast --algo twostage cuts fragments to what the tree VC holds", "[cli][json][bcast]") {
  // 1000 bytes, --mtu 512: a 512-byte fragment's tree worm (130 flits) does not fit the
  // 66-flit tree VC; the fragments are 256 bytes (64 words, the index and the head). With
  // the design point's 10-flit tree VC, 32 bytes.
  for (const auto& [depth, bytes, count] : {std::tuple{"66", 256, 4}, std::tuple{"10", 32, 32}}) {
    const json j = run_json({"bcast", "--mesh", "8x8", "--comm", "random:24", "--algo", "twostage", "--bytes", "1000",
                             "--mtu", "512", "--tree-buffer-depth", depth, "--json"});
    const json& t = j["algorithms"][0]["runs"][0]["two_stage"];
    INFO(t.dump());
    CHECK(t["fragment_bytes"] == bytes);
    CHECK(t["fragments"] == count);
    CHECK(t["multicasts"] == count);
  }
}

TEST_CASE("cli: bcast --algo twostage: (P-1)F reliable sends, penalty rounds, TUNED below the threshold",
          "[cli][json][bcast]") {
  const std::vector<std::string> args{"bcast", "--mesh", "8x8", "--comm", "random:30", "--root", "4", "--algo",
                                      "binomial,twostage", "--bytes", "300", "--mtu", "64", "--skew", "3000",
                                      "--loss", "0.25", "--seed", "3", "--json"};
  const json j = run_json(args);
  REQUIRE(j["algorithms"].size() == 2);
  const json& run = j["algorithms"][1]["runs"][0];
  INFO(run.dump());
  const json& t = run["two_stage"];
  CHECK(t["fragments"] == 5);
  CHECK(t["fragment_bytes"] == 64);
  CHECK(t["multicasts"] == 5);
  CHECK(t["reliable_sends"] == 29 * 5);
  CHECK(run["messages"] == 29 * 5 + 1);  // and stage 0's arrival message
  CHECK(t["chain_received"] == 29 * 5);
  REQUIRE(t["sync_rank"].is_number());
  CHECK(t["sync_rank"] != 4);
  CHECK(t["copies_lost"] > 0);
  // A quarter of the copies lost: some rank waits for a chain hop.
  CHECK(t["max_penalty_rounds"] > 0);
  // Every rank's buffer was compared with the root's (a difference exits 3), and every
  // rank with a penalty round completed after one that got the multicast.
  for (const json& r : run["ranks"]) CHECK(r["completion_cycle"] >= r["received_cycle"]);
  CHECK(run_json(args)["algorithms"] == j["algorithms"]);  // deterministic
  // Below the threshold: the binomial tree, said so.
  const json small = run_json({"bcast", "--mesh", "8x8", "--comm", "random:30", "--algo", "twostage", "--threshold",
                               "31", "--json"});
  CHECK(small["algorithms"][0]["runs"][0]["two_stage"]["fallback"] == "binomial");
}

TEST_CASE("cli: bcast --json gives every rank's completion and is deterministic", "[cli][json][bcast]") {
  const std::vector<std::string> args{"bcast", "--mesh", "8x8", "--comm", "random:20", "--root", "3", "--algo",
                                      "binomial,adaptive", "--bytes", "100", "--mtu", "32", "--skew", "500",
                                      "--seed", "7", "--json"};
  json j = run_json(args);
  CHECK(j["ranks"] == 20);
  CHECK(j["packets"] == 4);
  REQUIRE(j["algorithms"].size() == 2);
  for (const json& a : j["algorithms"]) {
    const json& run = a["runs"][0];
    REQUIRE(run["ranks"].size() == 20);
    CHECK(run["messages"] == 19 * 4);
    std::uint64_t last = 0;
    for (const json& r : run["ranks"]) {
      CHECK(r["completion_cycle"] >= r["received_cycle"]);
      last = std::max(last, r["completion_cycle"].get<std::uint64_t>());
    }
    CHECK(run["latency_cycles"] == last);
    // Ranks 1 and P - 1 counted from the root, rank 3: ranks 4 and 2.
    CHECK(run["rank1_cycles"] == run["ranks"][4]["completion_cycle"]);
    CHECK(run["last_rank_cycles"] == run["ranks"][2]["completion_cycle"]);
    CHECK(run["ranks"][3]["parent"].is_null());  // the root
  }
  json again = run_json(args);
  for (json* x : {&j, &again}) x->erase("wall_seconds");
  CHECK(j == again);
}

TEST_CASE("cli: bcast --slow-link: the adaptive tree's latency recovers", "[cli][json][bcast]") {
  const json j = run_json({"bcast", "--mesh", "8x8", "--algo", "binomial,adaptive", "--repeat", "3", "--slow-link",
                           "0,0:+X:5000", "--slow-at", "2", "--json"});
  const auto latency = [&](int algo, int run) {
    return j["algorithms"][algo]["runs"][run]["latency_cycles"].get<std::uint64_t>();
  };
  CHECK(latency(0, 1) > latency(0, 0) + 4900);  // binomial: slowed, and stays so
  CHECK(latency(0, 2) == latency(0, 1));
  CHECK(latency(1, 1) > latency(1, 0) + 4900);  // adaptive: slowed once ...
  CHECK(latency(1, 2) < latency(1, 0) + 100);   // ... then around the slow link
  CHECK(j["algorithms"][1]["runs"][1]["adapt"]["swaps"] > 0);
}

TEST_CASE("cli: soak --json passes and counts every kind of traffic", "[cli][json][soak]") {
  const json j = run_json({"soak", "--mesh", "8x8", "--cycles", "20000", "--seed", "3", "--json"});
  CHECK(j["passed"] == true);
  CHECK(j["violations"].empty());
  CHECK(j["flits_delivered"] == j["flits_injected"]);
  CHECK(j["unicast_packets"] > 0);
  CHECK(j["multicasts_done"] > 0);
  CHECK(j["multicasts_done"] == j["multicasts"]);
  CHECK(j["broadcasts"] > 0);
  CHECK(j["broadcasts_done"] == j["broadcasts"]);
  for (const char* s : {"btm", "cs"}) {
    CHECK(j[s]["epochs"] > 0);
    CHECK(j[s]["overflowed_groups"] > 0);
  }
  CHECK(j["seed"] == 3);
}

TEST_CASE("cli: soak with a fault exits 3 and names the place", "[cli][soak][fault]") {
  const std::vector<std::string> args{"soak", "--mesh", "8x8", "--cycles", "20000", "--deadlock-cycles", "3000",
                                      "--fault", "corrupt:2,2,+Y@4000"};
  const Result r = run(args);
  INFO(describe(args, r));
  CHECK(r.exit_code == 3);
  CHECK_THAT(r.err, Catch::StartsWith("meshsync: simulation failed: soak: "));
  CHECK_THAT(r.err, Catch::Contains("it crossed link (2,2) +Y"));
  CHECK_THAT(r.out, Catch::Contains("violation(s)"));
}

TEST_CASE("cli: soak refuses bad faults, rates and RTL with one line", "[cli][errors][soak]") {
  const std::vector<std::string> soak{"soak", "--mesh", "4x4"};
  expect_error_naming(plus(soak, {"--fault", "link:4,0,+X@1"}), "outside the 4x4 mesh");
  expect_error_naming(plus(soak, {"--fault", "router:1,1"}), "malformed fault");
  expect_error_naming(plus(soak, {"--rate", "nan"}), "--rate");
  expect_error_naming(plus(soak, {"--multicast-rate", "2"}), "--multicast-rate");
  expect_error_naming(plus(soak, {"--ni", "one-port"}), "all-port");
  expect_error_naming(plus(soak, {"--groups", "300"}), "--groups");
  expect_error_naming(plus(soak, {"--group-size", "17"}), "--group-size");
  expect_error_naming(plus(soak, {"--broadcast-ranks", "1"}), "--broadcast-ranks");
  expect_error_naming(plus(soak, {"--broadcast-ranks", "17"}), "--broadcast-ranks");
  expect_error_naming(plus(soak, {"--broadcast-mtu", "0"}), "--broadcast-mtu");
  expect_error_naming(plus(soak, {"--broadcast-bytes", "100000", "--broadcast-mtu", "1"}), "--broadcast-bytes");
  expect_error_naming(plus(soak, {"--rtl", "all", "--ni", "one-port", "--multicast-rate", "0", "--fault",
                                  "link:0,0,+X@1"}),
                      "faults live in the model");
}

#ifdef MESHSYNC_BIN_HAS_RTL
TEST_CASE("cli: a soak on RTL routers in lockstep passes its scoreboards with the model's counts",
          "[cli][rtl][soak]") {
  // One-port NIs (the RTL router's), so no multicasts; barriers and unicasts as usual.
  const std::vector<std::string> base = {"soak", "--mesh", "4x4", "--cycles", "3000", "--ni", "one-port",
                                         "--multicast-rate", "0", "--json"};
  const json model = run_json(base);
  auto rtl_args = base;
  rtl_args.insert(rtl_args.end(), {"--lockstep", "all"});
  const json rtl = run_json(rtl_args);
  CHECK(rtl.at("passed") == true);
  // The same work delivered (the run's last cycle may differ: RTL routers settle their
  // credits after the last delivery).
  for (const char* k : {"flits_delivered", "worms", "unicast_packets", "broadcasts_done", "broadcast_messages"})
    CHECK(rtl.at(k) == model.at(k));
  CHECK(rtl.at("broadcasts_done").get<int>() > 0);
  CHECK(rtl.at("btm").at("epochs") == model.at("btm").at("epochs"));
  CHECK(rtl.at("cs").at("epochs").get<int>() > 0);
  CHECK(rtl.at("rtl").at("lockstep") == 16);
  CHECK(rtl.at("rtl").at("router_cycles_compared").get<std::uint64_t>() > 10000);
}
#endif

TEST_CASE("cli: a mesh beyond the model's limit is refused up front with one line", "[cli][errors][soak]") {
  for (const char* cmd : {"barrier", "traffic", "multicast", "soak", "bcast"})
    for (const char* mesh : {"5000x5000", "1025x2", "2x100000"}) {
      INFO(cmd << " --mesh " << mesh);
      expect_error_naming({cmd, "--mesh", mesh}, "has a side larger than 1024");
    }
}

TEST_CASE("cli: barrier --exact holds the formula from the minimum t_rm on and refuses below it", "[cli][exact]") {
  // At and above the minimum a member set whose sync messages never compete for a port
  // gives the formula exactly (exit 0), as these do (BarrierTree::contention).
  // The minimum is 5 + max_children + 1: 14 with the default 8 children, 10 with 4.
  for (const char* trm : {"14", "30"})
    for (const char* members : {"all", "random:9", "0,0;1,0;2,0;0,1;1,1"})
      run_json({"barrier", "--mesh", "6x5", "--trm", trm, "--members", members, "--scheme", "btm,cs", "--exact",
                "--json"});
  run_json({"barrier", "--mesh", "6x5", "--trm", "10", "--max-children", "4", "--members", "all", "--scheme",
            "btm,cs", "--exact", "--json"});
  // Where two messages compete the formula is short, and the failure says which two
  // (issue 36: the root (3,2) sends two releases through -Y).
  const Result c = run({"barrier", "--mesh", "7x5", "--members", "random:20", "--scheme", "cs", "--exact"});
  CHECK(c.exit_code == 3);
  CHECK_THAT(c.err, Catch::Contains("took 2413 cycles, the formula says 2410") &&
                        Catch::Contains("compete for a port") && Catch::Contains("through -Y of router (3,2)"));
  expect_error_naming({"barrier", "--trm", "13", "--exact"}, "--trm 14 or more");
  expect_error_naming({"barrier", "--trm", "9", "--max-children", "4", "--exact"}, "--trm 10 or more");
  expect_error_naming({"barrier", "--exact", "--load", "uniform"}, "--load");
  expect_error_naming({"barrier", "--exact", "--registers", "0", "--software-fallback"}, "--software-fallback");
  // Below the minimum the excess shows (8x8, all members: 25 cycles at t_rm 1), and
  // --exact fails the run on it with exit 3, after the results.
  const Result r = run({"barrier", "--mesh", "8x8", "--trm", "1", "--scheme", "btm"});
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(r.out, Catch::Contains("2195") && Catch::Contains("2170"));
}

TEST_CASE("cli: a router without path worms or the tree VC refuses what needs them, in one line", "[cli][errors]") {
  expect_error_naming({"multicast", "--path-worms", "off"}, "--path-worms is off");
  expect_error_naming({"soak", "--cycles", "100", "--ni", "all-port", "--multicast-rate", "0.01", "--path-worms", "off"},
                      "--path-worms is off");
  expect_error_naming({"barrier", "--tree-buffer-depth", "1"}, "tree-buffer-depth");
  expect_error_naming({"barrier", "--path-worms", "maybe"}, "--path-worms");
  // What does not need them runs: unicast load and barriers on the base router.
  const json t = run_json({"traffic", "--mesh", "4x4", "--cycles", "500", "--path-worms", "off",
                           "--tree-buffer-depth", "0", "--json"});
  CHECK(t.at("router").at("path_worms") == 0);
  CHECK(t.at("router").at("tree_buffer_depth") == 0);
  run_json({"barrier", "--mesh", "4x4", "--path-worms", "off", "--tree-buffer-depth", "0", "--exact", "--json"});
}

TEST_CASE("cli: allreduce btm refuses what the routers cannot reduce, in one line", "[cli][errors][reduction]") {
  expect_error_naming({"allreduce", "--mesh", "4x4", "--algo", "btm", "--reduce-words", "0"}, "--reduce-words is 0");
  expect_error_naming({"allreduce", "--mesh", "4x4", "--algo", "btm", "--registers", "0"}, "--registers is 0");
  expect_error_naming({"allreduce", "--mesh", "4x4", "--algo", "btm,ring", "--elements", "9", "--type", "int64",
                       "--reduce-words", "16"},
                      "18 words are more than --reduce-words 16");
  expect_error_naming({"allreduce", "--mesh", "4x4", "--reduce-words", "70000"}, "reduce-words");
  // Software algorithms need no lanes.
  const json j = run_json({"allreduce", "--mesh", "4x4", "--algo", "ring", "--reduce-words", "0", "--json"});
  CHECK(j.at("algorithms")[0].at("check").at("passed") == true);
}

#ifdef MESHSYNC_BIN_HAS_RTL
TEST_CASE("cli: allreduce btm with every router in lockstep gives the model's cycles, longer than the RTL lanes is "
          "one line",
          "[cli][rtl][reduction]") {
  // The `model` configuration's lanes hold 4 words: 2 int64 elements fill them.
  const std::vector<std::string> base = {"allreduce", "--mesh", "5x5", "--comm", "random:12", "--elements", "2",
                                         "--type", "int64", "--op", "min", "--algo", "btm", "--json"};
  const json model = run_json(base);
  std::vector<std::string> rtl = base;
  rtl.insert(rtl.end(), {"--lockstep", "all"});
  const json j = run_json(rtl);
  CHECK(j.at("algorithms")[0].at("latency_cycles") == model.at("algorithms")[0].at("latency_cycles"));
  CHECK(j.at("algorithms")[0].at("check").at("passed") == true);
  CHECK(j.at("rtl").at("lockstep") == 25);
  expect_error_naming({"allreduce", "--mesh", "4x4", "--algo", "btm", "--elements", "5", "--lockstep", "all"},
                      "the RTL router of node (0,0) has 4-word lanes");
}

TEST_CASE("cli: a lockstep soak reduces in the RTL routers beside load, multicasts and barriers",
          "[cli][rtl][reduction][soak]") {
  const json j = run_json({"soak", "--mesh", "4x4", "--cycles", "60000", "--allreduce-gap", "100", "--broadcast-gap",
                           "0", "--groups", "3", "--lockstep", "all", "--json"});
  CHECK(j.at("passed") == true);
  CHECK(j.at("allreduces_done") == j.at("allreduces"));
  // Those whose vectors fit the RTL's 4-word lanes, each checked against its tree.
  CHECK(j.at("allreduces_in_network").get<int>() >= 2);
  CHECK(j.at("rtl").at("lockstep") == 16);
}
#endif

TEST_CASE("cli: allreduce --exact holds btm to its formula from the minimum t_rm on, and refuses below it",
          "[cli][exact][reduction]") {
  // 3 int32 elements: L = 8 flits, T_min = 5L + 4K + 2 = 54 (the barrier's 14 is less).
  const json j = run_json({"allreduce", "--mesh", "6x6", "--comm", "random:20", "--elements", "3", "--algo", "btm",
                           "--trm", "54", "--sync-buffer-depth", "8", "--exact", "--json"});
  const json& b = j.at("algorithms")[0];
  CHECK(b.at("latency_cycles") == b.at("analytic_cycles"));
  expect_error_naming({"allreduce", "--mesh", "6x6", "--elements", "3", "--algo", "btm", "--trm", "53",
                       "--sync-buffer-depth", "8", "--exact"},
                      "--exact needs --trm 54 or more");
  expect_error_naming({"allreduce", "--mesh", "6x6", "--elements", "3", "--algo", "btm", "--trm", "54", "--exact"},
                      "--exact needs --sync-buffer-depth 8 or more");
  expect_error_naming({"allreduce", "--mesh", "6x6", "--algo", "ring", "--exact"}, "--algo must include btm");
}

TEST_CASE("cli: a fold longer than the deadlock watchdog's window is progress, not a deadlock", "[cli][reduction]") {
  // 2,000 elements: a member folds up to 4 x 2,000 cycles with no flit moving.
  const json j = run_json({"allreduce", "--mesh", "4x4", "--elements", "2000", "--reduce-words", "2000", "--algo", "btm",
                           "--deadlock-cycles", "5000", "--sync-buffer-depth", "16", "--json"});
  CHECK(j.at("algorithms")[0].at("check").at("passed") == true);
}
