// Waveforms (docs/waveforms.md): the trace read back shows a toggling clock, a cycle
// counter and every flit that left a port, decoded, in the cycle it left; in FST and
// VCD alike; restricted to routers and a window when asked; with GTKWave's filter files
// the same as the repository ships.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "model/core/network_core.hpp"
#include "model/core/output_files.hpp"
#include "model/core/packet.hpp"
#include "model/trace/flit_signals.hpp"
#include "model/trace/wave_probe.hpp"
#include "support/vcd_reader.hpp"

using namespace meshsync;
using meshsync::test::VcdTrace;

namespace {

namespace fs = std::filesystem;

fs::path scratch(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / "meshsync-waveforms";
  fs::create_directories(dir);
  return dir / name;
}

struct Output {
  NodeId node;
  int port;
  Flit flit;
  std::uint64_t cycle;
};

// The flits the mesh reports on its ports: what the trace must show.
class OutputLog : public NetworkProbe {
 public:
  void on_output(NodeId node, int port, const Flit& f, std::uint64_t cycle) override {
    outputs.push_back({node, port < kPorts ? port : index(Port::Local), f, cycle});
  }
  void after_step(NodeId, std::uint64_t) override {}
  void touch(NodeId, std::uint64_t) override {}
  std::uint64_t next_cycle() const override { return kNever; }
  void begin_cycle(std::uint64_t) override {}
  std::vector<Output> outputs;
};

NetworkConfig config() {
  NetworkConfig c;
  c.mesh = {4, 4};
  c.timing.tp = 2;
  return c;
}

// Unicast worms between every few node pairs, and a multidestination worm along row 0:
// the same flits in every run.
std::uint64_t workload(NetworkCore& net) {
  const MeshShape& m = net.mesh();
  std::uint64_t cycle = 1;
  for (NodeId s = 0; s < static_cast<NodeId>(m.nodes()); s += 3) {
    const NodeId d = static_cast<NodeId>((s * 7 + 5) % m.nodes());
    if (d == s) continue;
    const std::uint64_t id = net.new_packet_id();
    for (const Flit& f : make_worm(id, s, d, 3, cycle)) net.inject(s, f, cycle);
    cycle += 2;
  }
  const std::uint64_t id = net.new_packet_id();
  for (const Flit& f : make_multicast_worm(id, m.id({0, 0}), {m.id({1, 0}), m.id({2, 0}), m.id({3, 0})},
                                           WormBase::XY, Port::Local, 2, cycle))
    net.inject(m.id({0, 0}), f, cycle);
  return net.run_until_idle(100000);
}

std::string port_scope(const MeshShape& m, NodeId n, int port) {
  const Coord c = m.coord(n);
  return "mesh.r_" + std::to_string(c.x) + "_" + std::to_string(c.y) + "." +
         std::string(port_signal_name(port_at(port))) + "_out.";
}

VcdTrace traced(const std::string& file, WaveOptions o = {}) {
  NetworkCore net(config());
  o.path = scratch(file).string();
  {
    WaveProbe probe(net, o);
    workload(net);
  }
  REQUIRE(output_files::commit_all().empty());  // the trace takes its name, as at the program's end
  if (wave_format_of(o.path) == WaveFormat::Vcd) return VcdTrace(o.path);
  // fst2vcd comes with GTKWave (scripts/setup installs it).
  const std::string vcd = o.path + ".vcd";
  REQUIRE(std::system(("fst2vcd '" + o.path + "' > '" + vcd + "' 2>/dev/null").c_str()) == 0);
  return VcdTrace(vcd);
}

}  // namespace

TEST_CASE("waveform: every flit on a port is in the trace, decoded, in its cycle, with a clock",
          "[waveform]") {
  NetworkCore reference(config());
  OutputLog log;
  reference.set_probe(&log);
  const std::uint64_t last = workload(reference);
  reference.set_probe(nullptr);
  REQUIRE(log.outputs.size() > 40);
  const MeshShape& m = reference.mesh();

  for (const char* file : {"decoded.vcd", "decoded.fst"}) {
    INFO(file);
    const VcdTrace t = traced(file);
    // A clock edge and the counter in every cycle, the high half first.
    for (std::uint64_t c = 0; c <= last; ++c) {
      REQUIRE(t.at("mesh.clk", 10 * c) == 1);
      REQUIRE(t.at("mesh.clk", 10 * c + 5) == 0);
      REQUIRE(t.at("mesh.cycle", 10 * c) == c);
    }
    bool saw_path_head = false;
    for (const Output& o : log.outputs) {
      const std::string at = port_scope(m, o.node, o.port);
      const std::uint64_t time = 10 * o.cycle;
      INFO(at << " cycle " << o.cycle << " packet " << o.flit.packet);
      CHECK(t.at(at + "kind", time) == static_cast<std::uint64_t>(flit_kind(o.flit)));
      CHECK(t.at(at + "vc", time) == static_cast<std::uint64_t>(o.flit.vc()));
      // 4x4: two bits per coordinate, x then y.
      const Coord src = m.coord(o.flit.src), dest = m.coord(o.flit.dest);
      CHECK(t.at(at + "src", time) == static_cast<std::uint64_t>(src.x * 4 + src.y));
      CHECK(t.at(at + "dest", time) == static_cast<std::uint64_t>(dest.x * 4 + dest.y));
      CHECK(t.at(at + "packet", time) == o.flit.packet);
      if (flit_kind(o.flit) == FlitKind::PathHead && o.node == m.id({0, 0})) {
        // The worm still has its three destinations when it leaves its source.
        CHECK(t.at(at + "dests_left", time) == 3);
        saw_path_head = true;
      }
    }
    CHECK(saw_path_head);
    // A port is idle in the cycle after a flit unless another one left then.
    for (const Output& o : log.outputs) {
      const bool again = std::any_of(log.outputs.begin(), log.outputs.end(), [&](const Output& x) {
        return x.node == o.node && x.port == o.port && x.cycle == o.cycle + 1;
      });
      if (!again)
        CHECK(t.at(port_scope(m, o.node, o.port) + "kind", 10 * (o.cycle + 1)) == static_cast<std::uint64_t>(FlitKind::Idle));
    }
  }
}

TEST_CASE("waveform: --trace-routers and --trace-window keep only those routers and cycles", "[waveform]") {
  WaveOptions o;
  o.routers = {5};  // (1,1)
  o.from = 20;
  o.to = 40;
  const VcdTrace t = traced("window.vcd", o);
  CHECK(t.has("mesh.r_1_1.east_out.kind"));
  CHECK_FALSE(t.has("mesh.r_0_0.east_out.kind"));
  REQUIRE_FALSE(t.times().empty());
  CHECK(t.times().front() == 200);
  CHECK(t.times().back() == 410);
  CHECK(t.at("mesh.cycle", 400) == 40);
}

TEST_CASE("waveform: GTKWave's save file and filters come with the trace, as the repository ships them",
          "[waveform]") {
  const VcdTrace t = traced("gtkw.fst");
  (void)t;
  const auto slurp = [](const fs::path& p) {
    std::ifstream in(p);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  };
  const fs::path repo = MESHSYNC_SOURCE_DIR;
  const std::string save = slurp(scratch("gtkw.gtkw"));
  CHECK(slurp(scratch("gtkw.flit_kind.txt")) == slurp(repo / "scripts/gtkwave/flit_kind.txt"));
  CHECK(slurp(scratch("gtkw.vc.txt")) == slurp(repo / "scripts/gtkwave/vc.txt"));
  // Nodes by their coordinates: (3,2) of the 4x4 mesh is 3 << 2 | 2.
  CHECK_THAT(slurp(scratch("gtkw.node.txt")), Catch::StartsWith("0 0,0\n1 0,1\n") && Catch::Contains("\n14 3,2\n"));
  CHECK_THAT(save, Catch::Contains("^3 " + scratch("gtkw.node.txt").string() + "\nmesh.r_1_1.east_out.src[3:0]\n"));
  CHECK_THAT(save, Catch::Contains("[dumpfile] \"" + scratch("gtkw.fst").string() + "\""));
  CHECK_THAT(save, Catch::Contains("-r_1_1\n"));
  CHECK_THAT(save, Catch::Contains("^1 " + scratch("gtkw.flit_kind.txt").string() + "\nmesh.r_1_1.east_out.kind[4:0]\n"));
}

namespace {

// A BTM barrier at the centre of a 3x3 mesh, its register programmed by software in
// cycle 3, and worms crossing it both ways: credits taken and returned, a register that
// fills and empties. `step` runs the cycles up to `to`; `program` is called in cycle 3
// after the routers' step, as the NI writes a register.
struct BarrierAndWorms {
  static constexpr std::uint64_t kProgramCycle = 3;
  static NetworkConfig config() {
    NetworkConfig c;
    c.mesh = {3, 3};
    c.timing.tp = 2;
    c.timing.trn = 4;
    c.timing.trm = 6;
    return c;
  }
  static void inject(NetworkCore& net) {
    const MeshShape& m = net.mesh();
    for (const auto& [s, d] : {std::pair{Coord{0, 0}, Coord{2, 2}}, std::pair{Coord{2, 2}, Coord{0, 0}},
                               std::pair{Coord{0, 1}, Coord{2, 1}}, std::pair{Coord{1, 0}, Coord{1, 2}}})
      for (const Flit& f : make_worm(net.new_packet_id(), m.id(s), m.id(d), 6, 0)) net.inject(m.id(s), f, 0);
  }
  static void program(NetworkCore& net) {
    const MeshShape& m = net.mesh();
    const NodeId root = m.id({1, 1});
    BarrierRegisterSetup s;
    s.gid = 9;
    const Coord kids[] = {{2, 1}, {0, 1}, {1, 2}, {1, 0}};
    for (int k = 0; k < 4; ++k) s.children.push_back({m.id(kids[k]), k < 2 ? Route::XY : Route::YX});
    net.program_register(root, s, kProgramCycle);
    // MeshSystem does the same: the register shows from the next cycle on.
    net.touch(root, kProgramCycle + 1);
    for (int k = 0; k < 4; ++k) {
      const NodeId kid = m.id(kids[k]);
      net.inject(kid, make_sync(SyncType::Arrive, 9, kid, root, k < 2 ? Route::XY : Route::YX,
                                static_cast<std::uint8_t>(k)), 10 + 3 * k);
    }
    net.inject(root, make_sync(SyncType::Arrive, 9, root, root, Route::XY, kLocalSlot), 30);
  }
};

}  // namespace

TEST_CASE("waveform: credits and barrier registers in the trace are the router's, in every cycle", "[waveform]") {
  const fs::path file = scratch("state.vcd");
  std::uint64_t last = 0;
  {
    NetworkCore net(BarrierAndWorms::config());
    WaveProbe probe(net, WaveOptions{file.string(), {}, 0, kNever});
    BarrierAndWorms::inject(net);
    net.run_until_idle(BarrierAndWorms::kProgramCycle);
    BarrierAndWorms::program(net);
    last = net.run_until_idle();
  }
  REQUIRE(output_files::commit_all().empty());
  const VcdTrace t(file.string());

  // The same run, every cycle stepped, the routers' state read after each.
  NetworkCore net(BarrierAndWorms::config());
  BarrierAndWorms::inject(net);
  const MeshShape& m = net.mesh();
  bool saw_arrival = false, saw_credit_taken = false;
  for (std::uint64_t c = 0; c <= last; ++c) {
    net.run_cycle(c);
    if (c == BarrierAndWorms::kProgramCycle) BarrierAndWorms::program(net);
    const std::uint64_t time = 10 * c;
    for (NodeId n = 0; n < static_cast<NodeId>(m.nodes()); ++n) {
      const RouterCore& r = net.router(n);
      const Coord xy = m.coord(n);
      const std::string router = "mesh.r_" + std::to_string(xy.x) + "_" + std::to_string(xy.y) + ".";
      INFO(router << " cycle " << c);
      // A register written in cycle 3 is the router's from cycle 4 on.
      if (c != BarrierAndWorms::kProgramCycle) {
        for (std::size_t i = 0; i < r.registers().size(); ++i) {
          const BarrierRegister& b = r.registers().at(static_cast<int>(i));
          const std::string at = router + "breg" + std::to_string(i) + ".";
          REQUIRE(t.at(at + "valid", time) == b.valid());
          REQUIRE(t.at(at + "member", time) == b.member());
          REQUIRE(t.at(at + "gid", time) == b.gid());
          REQUIRE(t.at(at + "arrived", time) == b.arrived());
          REQUIRE(t.at(at + "expected", time) == (b.member() ? b.expected() : 0));
          saw_arrival |= b.arrived() > 0;
        }
      }
      const RouterCore::CreditCounts credits = r.credits_at(c);
      for (Port p : kAllPorts)
        for (int v = 0; v < kVcs; ++v) {
          const std::uint32_t held = credits[static_cast<std::size_t>(index(p) * kMaxVcs + v)];
          REQUIRE(t.at(router + std::string(port_signal_name(p)) + "_out.credits_" + vc_names(kVcs)[static_cast<std::size_t>(v)],
                       time) == held);
          saw_credit_taken |= p != Port::Local && held < net.config().router.depth(v);
        }
    }
  }
  CHECK(saw_arrival);
  CHECK(saw_credit_taken);
}

TEST_CASE("waveform: eight unicast VCs: 4-bit VC numbers, a credit count per VC, the VC each flit took",
          "[waveform][vcs]") {
  // Every node sends worms to one destination at once: heads contend for the same outputs,
  // so VC allocation hands out the VCs past VC 0, and the trace must show them.
  NetworkConfig cfg = config();
  cfg.router.unicast_vcs = 8;
  const fs::path file = scratch("vcs8.vcd");
  {
    NetworkCore net(cfg);
    WaveProbe probe(net, WaveOptions{file.string(), {}, 0, kNever});
    const MeshShape& m = net.mesh();
    const NodeId sink = m.id({m.width - 1, m.height - 1});
    for (int round = 0; round < 4; ++round)
      for (NodeId s = 0; s < static_cast<NodeId>(m.nodes()); ++s) {
        if (s == sink) continue;
        const std::uint64_t id = net.new_packet_id();
        for (const Flit& f : make_worm(id, s, sink, 4, 1)) net.inject(s, f, 1);
      }
    net.run_until_idle(100000);
  }
  REQUIRE(output_files::commit_all().empty());
  const VcdTrace t(file.string());
  // The VC rows are 4 bits wide (VCs 0-11), and a credit row per VC, the last one worm7's.
  CHECK(t.has("mesh.r_0_0.east_out.vc"));
  CHECK(t.has("mesh.r_0_0.east_out.credits_worm7"));
  CHECK_FALSE(t.has("mesh.r_0_0.east_out.credits_worm8"));
  int highest = 0;
  for (const auto& [name, changes] : t.all()) {
    if (name.size() < 7 || name.compare(name.size() - 7, 7, "_out.vc") != 0) continue;
    for (const auto& [time, value] : changes) highest = std::max(highest, static_cast<int>(value));
  }
  INFO("highest VC on any output: " << highest);
  CHECK(highest > 8);  // a VC number that needs the fourth bit
  CHECK(highest <= kMaxVcs - 1);
}
