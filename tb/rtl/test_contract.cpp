// The Verilog and the C++ share one contract (docs/microarchitecture.md). The router's
// parameter defaults and the flit layout are written once on each side; these tests read
// the Verilog sources and check that both say the same.
#include <catch2/catch.hpp>

#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>

#include "model/cosim/rtl_ports.hpp"

namespace {

using namespace meshsync;
using meshsync::rtl::RtlParams;
namespace ff = meshsync::flit_format;

std::string rtl_file(const std::string& file) {
  std::ifstream in(std::string(MESHSYNC_RTL_DIR) + "/" + file);
  REQUIRE(in);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// name -> value of every `<keyword> <type> Name = <number>` in a Verilog file (plain
// decimals and sized decimals like 4'd15); `keywords` a regex alternative.
std::map<std::string, long> verilog_constants(const std::string& file,
                                              const std::string& keywords = "parameter|localparam") {
  std::string s = rtl_file(file);
  // The router and the mesh top include the shared parameter list.
  if (s.find("`include \"meshsync_router_params.svh\"") != std::string::npos) s += "\n" + rtl_file("meshsync_router_params.svh");
  const std::regex decl("(?:" + keywords +
                        R"()\s+[a-z ]+(?:\[[^\]]*\]\s*)?([A-Za-z]\w*)\s*=\s*(?:\d+'d)?(\d+)\s*[,;\n])");
  std::map<std::string, long> out;
  for (auto it = std::sregex_iterator(s.begin(), s.end(), decl); it != std::sregex_iterator(); ++it)
    out[(*it)[1].str()] = std::stol((*it)[2].str());
  return out;
}

}  // namespace

// The mesh size is not a router parameter of the model (NetworkConfig::mesh; in the RTL
// it sizes the coordinates), nor is the flit width (flit_format.hpp) or the mesh top's
// link delay Tp (timing.tp).
const std::set<std::string> kNotInTable{"MeshW", "MeshH", "FlitW", "Tp"};

// A configuration's parameters as rtl/configurations.txt lists them.
static std::string configuration(const std::string& name) {
  std::istringstream lines(rtl_file("configurations.txt"));
  for (std::string line; std::getline(lines, line);) {
    std::istringstream words(line);
    std::string n, uses, params, item;
    if (!(words >> n >> uses) || n != name) continue;
    while (words >> item) params += item + " ";
    return params;
  }
  FAIL("no configuration " << name);
  return "";
}

TEST_CASE("contract: the RTL router's parameter defaults are the table's design point", "[contract]") {
  const auto v = verilog_constants("meshsync_router.sv", "parameter");
  // Every row with an RTL parameter: the Verilog default is the row's rtl_default.
  for (const Parameter& p : kParameters) {
    if (p.rtl == nullptr) continue;
    INFO(p.rtl);
    REQUIRE(v.count(p.rtl) == 1);
    CHECK(v.at(p.rtl) == p.rtl_default);
  }
  // The mesh top passes the same defaults on.
  const auto mesh = verilog_constants("meshsync_mesh.sv", "parameter");
  for (const auto& [name, value] : mesh) {
    INFO(name);
    if (v.count(name) == 1 && name != "MeshW" && name != "MeshH") CHECK(value == v.at(name));
  }
  // Every parameter with a number for its default (the others are derived) has its row.
  for (const auto& [name, value] : v) {
    INFO(name);
    CHECK((rtl_parameter(name) != nullptr || kNotInTable.count(name) == 1));
  }
  CHECK(v.at("MeshW") == RtlParams{}.mesh_w);
  CHECK(v.at("MeshH") == RtlParams{}.mesh_h);
  CHECK(v.at("FlitW") == ff::kWidth);
}

TEST_CASE("contract: configuration `model` is the model's default router", "[contract]") {
  // What --rtl co-simulates in a run with default parameters.
  const rtl::RtlParams p = rtl::parse_rtl_params("model", configuration("model"));
  INFO(rtl::describe(p));
  CHECK(rtl::matches(p, NetworkConfig{}));
}

TEST_CASE("contract: rtl/configurations.txt sets only the table's parameters, in range", "[contract]") {
  std::istringstream lines(rtl_file("configurations.txt"));
  int configurations = 0;
  for (std::string line; std::getline(lines, line);) {
    std::istringstream words(line);
    std::string name, uses;
    if (!(words >> name >> uses) || name[0] == '#') continue;
    ++configurations;
    std::string router;  // what parse_rtl_params reads: Tp is the mesh top's
    for (std::string item; words >> item;) {
      const std::string key = item.substr(0, item.find('='));
      INFO(name << ": " << item);
      CHECK((rtl_parameter(key) != nullptr || kNotInTable.count(key) == 1));
      if (key != "Tp") router += item + " ";
    }
    INFO(name);
    CHECK_NOTHROW(rtl::parse_rtl_params(name, router));
  }
  CHECK(configurations > 5);
}

TEST_CASE("contract: meshsync_pkg's flit layout is flit_format.hpp's", "[contract]") {
  const auto v = verilog_constants("meshsync_pkg.sv");
  CHECK(v.at("DestXLsb") == ff::kDestX.lsb);
  CHECK(v.at("DestYLsb") == ff::kDestY.lsb);
  CHECK(v.at("CoordW") == ff::kDestX.width);
  CHECK(v.at("CoordW") == ff::kDestY.width);
  CHECK(v.at("DataLsb") == ff::kData.lsb);
  CHECK(v.at("DataW") == ff::kData.width);
  CHECK(v.at("GidLsb") == ff::kGid.lsb);
  CHECK(v.at("GidW") == ff::kGid.width);
  CHECK(v.at("TypeLsb") == ff::kType.lsb);
  CHECK(v.at("TypeW") == ff::kType.width);
  CHECK(v.at("RouteBit") == ff::kRoute.lsb);
  // The RTL places head, tail and sync at FlitW-1..FlitW-3, above FieldsW field bits.
  CHECK(v.at("FieldsW") == ff::kSync.lsb);
  CHECK(ff::kHead.lsb == ff::kWidth - 1);
  CHECK(ff::kTail.lsb == ff::kWidth - 2);
  CHECK(ff::kSync.lsb == ff::kWidth - 3);
  CHECK(ff::kPayload.width == ff::kWidth - 2);
}

TEST_CASE("contract: the address flit's fields are flit_format.hpp's, in disjoint bits",
          "[contract][multicast]") {
  const auto v = verilog_constants("meshsync_pkg.sv");
  CHECK(v.at("McastBit") == ff::kMcast.lsb);
  CHECK(v.at("BaseLsb") == ff::kBase.lsb);
  CHECK(v.at("BaseW") == ff::kBase.width);
  CHECK(v.at("MoreBit") == ff::kMore.lsb);
  CHECK(v.at("FirstLsb") == ff::kFirst.lsb);
  CHECK(v.at("FirstW") == ff::kFirst.width);
  // The forced first hop is an output port index.
  CHECK(v.at("FirstW") == v.at("PortW"));
  CHECK(v.at("BaseTree") == ff::kBaseTree);
  CHECK(v.at("TreeGidLsb") == ff::kTreeGid.lsb);
  CHECK(v.at("GidW") == ff::kTreeGid.width);
  CHECK((1L << ff::kFirst.width) > static_cast<long>(Port::MinusY));
  // No bit of an address flit serves two fields.
  const ff::Field fields[] = {ff::kHead, ff::kTail, ff::kSync,  ff::kRoute, ff::kMcast,
                              ff::kBase, ff::kMore, ff::kFirst, ff::kDestY, ff::kDestX};
  std::uint32_t used = 0;
  for (const ff::Field& f : fields) {
    INFO("field at bit " << f.lsb);
    CHECK((used & f.put(~0u)) == 0);
    used |= f.put(~0u);
  }
  // A flit carries every field of its head through the encoder.
  Flit head;
  head.mcast = head.addr = head.more = true;
  head.base = WormBase::Low;
  head.first = Port::MinusX;
  head.dest = MeshShape{8, 8}.id(Coord{5, 6});
  const std::uint32_t bits = rtl::encode_flit(head, MeshShape{8, 8});
  CHECK(ff::kFirst.get(bits) == static_cast<std::uint32_t>(Port::MinusX));
  CHECK(ff::kBase.get(bits) == static_cast<std::uint32_t>(WormBase::Low));
  CHECK(ff::kMore.get(bits) == 1);
  CHECK(ff::kDestX.get(bits) == 5);
  CHECK(ff::kDestY.get(bits) == 6);
}

TEST_CASE("contract: meshsync_pkg's ports, VCs and sync codes are the model's", "[contract]") {
  const auto v = verilog_constants("meshsync_pkg.sv");
  CHECK(v.at("NumPorts") == kPorts);
  CHECK(v.at("NumVcs") == rtl::kRtlVcs);
  CHECK(v.at("VcWorm") == kWormVc);
  CHECK(v.at("VcSnake") == kSnakeVc);
  CHECK(v.at("VcTree") == kTreeVc);
  CHECK(v.at("PortLocal") == static_cast<long>(Port::Local));
  CHECK(v.at("PortPlusX") == static_cast<long>(Port::PlusX));
  CHECK(v.at("PortMinusX") == static_cast<long>(Port::MinusX));
  CHECK(v.at("PortPlusY") == static_cast<long>(Port::PlusY));
  CHECK(v.at("PortMinusY") == static_cast<long>(Port::MinusY));
  CHECK(v.at("SyncArrive") == static_cast<long>(SyncType::Arrive));
  CHECK(v.at("SyncRelease") == static_cast<long>(SyncType::Release));
  CHECK(v.at("SyncSetup") == static_cast<long>(SyncType::Setup));
  CHECK(v.at("SyncTeardown") == static_cast<long>(SyncType::Teardown));
  CHECK(v.at("SlotLocal") == kLocalSlot);
  CHECK(v.at("SlotNone") == kNoSlot);
}

TEST_CASE("contract: a configuration names only parameters the model mirrors", "[contract]") {
  const RtlParams p = rtl::parse_rtl_params("x", "BufferDepth=4 Trn=2 MeshW=16 NiPorts=4");
  CHECK(p.router.buffer_depth == 4);
  CHECK(p.timing.trn == 2);
  CHECK(p.router.ni_ports == 4);
  CHECK(p.mesh_w == 16);
  CHECK(p.mesh_h == RtlParams{}.mesh_h);
  CHECK_THROWS_AS(rtl::parse_rtl_params("x", "FallbackDepth=1"), std::invalid_argument);
  CHECK_THROWS_AS(rtl::parse_rtl_params("x", "Trn"), std::invalid_argument);
  // Only the values the model takes (the table's ranges).
  CHECK_THROWS_AS(rtl::parse_rtl_params("x", "NiPorts=2"), std::invalid_argument);
  CHECK_THROWS_AS(rtl::parse_rtl_params("x", "MaxChildren=3"), std::invalid_argument);
  CHECK_THROWS_AS(rtl::parse_rtl_params("x", "Trn=-1"), std::invalid_argument);
  // The mapping both ways and the match go through the table's rows.
  NetworkConfig c = rtl::network_config(p);
  CHECK(c.router.buffer_depth == 4);
  CHECK(c.router.ni_ports == 4);
  CHECK(rtl::matches(p, c));
  CHECK(rtl::router_params(c).router.buffer_depth == 4);
  c.router.tree_buffer_depth = 30;
  CHECK_FALSE(rtl::matches(p, c));
  c = rtl::network_config(p);
  c.timing.ts = 7;  // not the router's
  CHECK(rtl::matches(p, c));
}
