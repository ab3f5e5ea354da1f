// The Verilog and the C++ share one contract (docs/microarchitecture.md). The router's
// parameter defaults and the flit layout are written once on each side; these tests read
// the Verilog sources and check that both say the same.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

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

namespace {

// A packed struct or union of meshsync_pkg as Verilog lays it out: each member's name,
// its type (a typedef of the package, or "" for a logic vector) and its width.
struct PackedMember {
  std::string name, type;
  long width = 0;
};
struct PackedType {
  bool is_union = false;
  std::vector<PackedMember> members;  // in declaration order: the first is the most significant
};

// Every `typedef struct packed { ... } name;` and `typedef union packed ...` of the package,
// member widths resolved from its constants (`logic [GidW-1:0] gid;`, `logic [6:0] spare;`).
std::map<std::string, PackedType> packed_types() {
  const std::string s = rtl_file("meshsync_pkg.sv");
  const auto constants = verilog_constants("meshsync_pkg.sv");
  std::map<std::string, PackedType> types;
  const std::regex typedef_re(R"(typedef\s+(struct|union)\s+packed\s*\{([^}]*)\}\s*(\w+)\s*;)");
  const std::regex member_re(R"((\w+)\s*(?:\[\s*(\w+)\s*(?:-\s*1)?\s*:\s*0\s*\])?\s+(\w+)\s*;)");
  for (auto t = std::sregex_iterator(s.begin(), s.end(), typedef_re); t != std::sregex_iterator(); ++t) {
    PackedType type;
    type.is_union = (*t)[1] == "union";
    std::string body = std::regex_replace((*t)[2].str(), std::regex("//[^\n]*"), "");
    for (auto m = std::sregex_iterator(body.begin(), body.end(), member_re); m != std::sregex_iterator(); ++m) {
      PackedMember member{(*m)[3].str(), (*m)[1] == "logic" ? "" : (*m)[1].str(), 1};
      if ((*m)[2].matched) {
        const std::string bound = (*m)[2].str();
        const bool minus_one = (*m)[0].str().find("-") != std::string::npos;
        const long b = std::isdigit(static_cast<unsigned char>(bound[0])) ? std::stol(bound) : constants.at(bound);
        member.width = minus_one ? b : b + 1;
      }
      type.members.push_back(member);
    }
    types[(*t)[3].str()] = type;
  }
  return types;
}

long packed_width(const std::map<std::string, PackedType>& types, const PackedMember& m) {
  if (m.type.empty()) return m.width;
  long width = 0;
  for (const PackedMember& sub : types.at(m.type).members) {
    const long w = packed_width(types, sub);
    width = types.at(m.type).is_union ? std::max(width, w) : width + w;
  }
  return width;
}

// The least significant bit and width of a member path ("f.hdr.view.sync.gid") of a type.
std::pair<long, long> packed_field(const std::map<std::string, PackedType>& types, std::string type,
                                   const std::string& path) {
  long lsb = 0, width = packed_width(types, {"", type, 0});
  std::istringstream names(path);
  for (std::string name; std::getline(names, name, '.');) {
    const PackedType& t = types.at(type);
    long below = width;  // bits below the members seen so far
    bool found = false;
    for (const PackedMember& m : t.members) {
      const long w = packed_width(types, m);
      if (!t.is_union) below -= w;
      if (m.name == name) {
        lsb += t.is_union ? 0 : below;
        width = w;
        type = m.type;
        found = true;
        break;
      }
    }
    INFO(path << ": no member " << name);
    REQUIRE(found);
  }
  return {lsb, width};
}

}  // namespace

TEST_CASE("contract: meshsync_pkg's flit_t names the fields where flit_format.hpp puts them",
          "[contract]") {
  // The RTL reads flit fields through flit_t's members; their positions follow from the
  // typedefs' order and widths, which this recomputes and compares with the C++ format.
  const auto types = packed_types();
  const auto at = [&](const std::string& path) { return packed_field(types, "flit_t", path); };
  using Field = std::pair<long, long>;
  const auto field = [](const ff::Field& f) { return Field{f.lsb, f.width}; };
  CHECK(packed_width(types, {"", "flit_t", 0}) == ff::kWidth);
  CHECK(verilog_constants("meshsync_pkg.sv").at("FlitBits") == ff::kWidth);
  CHECK(at("head") == field(ff::kHead));
  CHECK(at("tail") == field(ff::kTail));
  CHECK(at("f.hdr.sync") == field(ff::kSync));
  CHECK(at("f.payload") == field(ff::kPayload));
  CHECK(at("f.hdr.route") == field(ff::kRoute));
  CHECK(at("f.hdr.dest_x") == field(ff::kDestX));
  CHECK(at("f.hdr.dest_y") == field(ff::kDestY));
  CHECK(at("f.hdr.view.sync.msg") == field(ff::kType));
  CHECK(at("f.hdr.view.sync.gid") == field(ff::kGid));
  CHECK(at("f.hdr.view.sync.data") == field(ff::kData));
  CHECK(at("f.hdr.view.worm.mcast") == field(ff::kMcast));
  CHECK(at("f.hdr.view.worm.base") == field(ff::kBase));
  CHECK(at("f.hdr.view.worm.more") == field(ff::kMore));
  CHECK(at("f.hdr.view.worm.first") == field(ff::kFirst));
  CHECK(at("f.hdr.view.tree.mcast") == field(ff::kMcast));
  CHECK(at("f.hdr.view.tree.base") == field(ff::kBase));
  CHECK(at("f.hdr.view.tree.gid") == field(ff::kTreeGid));
  // Every view of the header's middle bits is as wide as the others.
  for (const char* view : {"sync", "worm", "tree"}) {
    INFO(view);
    CHECK(at(std::string("f.hdr.view.") + view).second == at("f.hdr.view").second);
  }
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
  CHECK(v.at("ClassVcs") == kVcs);
  CHECK(v.at("MaxUnicastVcs") == kMaxUnicastVcs);
  CHECK(v.at("ClassVcs") + v.at("MaxUnicastVcs") - 1 == rtl::kRtlVcs);
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
