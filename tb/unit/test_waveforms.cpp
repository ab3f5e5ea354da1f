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
      CHECK(t.at(at + "valid", time) == 1);
      CHECK(t.at(at + "kind", time) == static_cast<std::uint64_t>(flit_kind(o.flit)));
      CHECK(t.at(at + "vc", time) == static_cast<std::uint64_t>(o.flit.vc()));
      CHECK(t.at(at + "src_x", time) == static_cast<std::uint64_t>(m.coord(o.flit.src).x));
      CHECK(t.at(at + "src_y", time) == static_cast<std::uint64_t>(m.coord(o.flit.src).y));
      CHECK(t.at(at + "dest_x", time) == static_cast<std::uint64_t>(m.coord(o.flit.dest).x));
      CHECK(t.at(at + "dest_y", time) == static_cast<std::uint64_t>(m.coord(o.flit.dest).y));
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
      if (!again) CHECK(t.at(port_scope(m, o.node, o.port) + "valid", 10 * (o.cycle + 1)) == 0);
    }
  }
}

TEST_CASE("waveform: --trace-routers and --trace-window keep only those routers and cycles", "[waveform]") {
  WaveOptions o;
  o.routers = {5};  // (1,1)
  o.from = 20;
  o.to = 40;
  const VcdTrace t = traced("window.vcd", o);
  CHECK(t.has("mesh.r_1_1.east_out.valid"));
  CHECK_FALSE(t.has("mesh.r_0_0.east_out.valid"));
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
  CHECK(slurp(scratch("gtkw.flit_kind.txt")) == slurp(repo / "scripts/gtkwave/flit_kind.txt"));
  CHECK(slurp(scratch("gtkw.vc.txt")) == slurp(repo / "scripts/gtkwave/vc.txt"));
  const std::string save = slurp(scratch("gtkw.gtkw"));
  CHECK_THAT(save, Catch::Contains("[dumpfile] \"" + scratch("gtkw.fst").string() + "\""));
  CHECK_THAT(save, Catch::Contains("-r_1_1\n"));
  CHECK_THAT(save, Catch::Contains("^1 " + scratch("gtkw.flit_kind.txt").string() + "\nmesh.r_1_1.east_out.kind[4:0]\n"));
}
