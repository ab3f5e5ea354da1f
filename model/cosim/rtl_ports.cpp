#include "rtl_ports.hpp"

#include "model/core/errors.hpp"

#include <algorithm>
#include <sstream>
#include <stdexcept>

namespace meshsync::rtl {

namespace ff = flit_format;

std::uint32_t encode_flit(const Flit& f, const MeshShape& mesh) {
  const std::uint32_t flags = ff::kHead.put(f.head) | ff::kTail.put(f.tail);
  if (!f.head && !f.addr) return flags | ff::kPayload.put(f.payload);
  const Coord d = mesh.coord(f.dest);
  const std::uint32_t where =
      ff::kDestY.put(static_cast<std::uint32_t>(d.y)) | ff::kDestX.put(static_cast<std::uint32_t>(d.x));
  if (f.tree)
    return flags | ff::kRoute.put(f.route == Route::YX) | ff::kMcast.put(1) | ff::kBase.put(ff::kBaseTree) |
           ff::kTreeGid.put(f.gid) | where;
  if (f.mcast)
    return flags | ff::kMcast.put(1) | ff::kBase.put(static_cast<std::uint32_t>(f.base)) |
           ff::kMore.put(f.more) | ff::kFirst.put(static_cast<std::uint32_t>(f.first)) | where;
  return flags | ff::kSync.put(f.sync) | ff::kRoute.put(f.route == Route::YX) |
         ff::kType.put(static_cast<std::uint32_t>(f.stype)) | ff::kGid.put(f.gid) |
         ff::kData.put(f.data) | where;
}

bool is_sync_head(std::uint32_t b) { return ff::kHead.get(b) && ff::kSync.get(b); }

Flit decode_sync(std::uint32_t b, const MeshShape& mesh, NodeId self) {
  const Coord dest{static_cast<int>(ff::kDestX.get(b)), static_cast<int>(ff::kDestY.get(b))};
  // Refused rather than made into some other message: a wrong RTL flit must show as one.
  if (!mesh.contains(dest))
    throw FlitFormatError("RTL sync message " + describe_flit(b) + " is addressed outside the " +
                          std::to_string(mesh.width) + "x" + std::to_string(mesh.height) + " mesh");
  Flit f = make_sync(static_cast<SyncType>(ff::kType.get(b)), static_cast<std::uint8_t>(ff::kGid.get(b)), self,
                     mesh.id(dest), ff::kRoute.get(b) ? Route::YX : Route::XY, static_cast<std::uint8_t>(ff::kData.get(b)));
  f.tail = ff::kTail.get(b);  // 0: a reduction message's head, its vector behind it
  return f;
}

std::string describe_flit(std::uint32_t b) {
  static const char* const type[4] = {"arrive", "release", "setup", "teardown"};
  std::ostringstream s;
  s << "0x" << std::hex << b << std::dec << " (";
  const bool tail = ff::kTail.get(b);
  const auto dest = [&] { s << " dest (" << ff::kDestX.get(b) << "," << ff::kDestY.get(b) << ")"; };
  if (!ff::kHead.get(b)) {
    s << (tail ? "tail" : "body") << " payload 0x" << std::hex << ff::kPayload.get(b) << std::dec;
  } else if (ff::kSync.get(b)) {
    s << "sync " << type[ff::kType.get(b)] << " gid " << ff::kGid.get(b) << " data " << ff::kData.get(b);
    dest();
    s << " R=" << (ff::kRoute.get(b) ? "YX" : "XY");
  } else {
    s << (tail ? "head+tail" : "head");
    dest();
  }
  s << ")";
  return s.str();
}

RtlParams verilog_defaults() {
  RtlParams p;
  for (const Parameter& row : kParameters)
    if (row.rtl != nullptr) row.of(p) = row.rtl_default;
  return p;
}

RtlParams parse_rtl_params(const std::string& name, const std::string& verilog_params) {
  RtlParams p = verilog_defaults();
  p.name = name;
  std::istringstream in(verilog_params);
  for (std::string item; in >> item;) {
    const auto eq = item.find('=');
    const std::string key = item.substr(0, eq);
    const Parameter* row = eq == std::string::npos ? nullptr : rtl_parameter(key);
    if (eq == std::string::npos || (row == nullptr && key != "MeshW" && key != "MeshH"))
      throw std::invalid_argument("RTL configuration " + name + ": '" + item +
                                  "' is not a parameter the model mirrors");
    const int value = std::stoi(item.substr(eq + 1));
    if (row == nullptr) {
      (key == "MeshW" ? p.mesh_w : p.mesh_h) = value;
      continue;
    }
    const std::string error = value < 0 ? std::string(row->name) + " must not be negative"
                                        : parameter_error(*row, static_cast<std::uint32_t>(value));
    if (!error.empty()) throw std::invalid_argument("RTL configuration " + name + ": " + item + ": " + error);
    row->of(p) = static_cast<std::uint32_t>(value);
  }
  return p;
}

NetworkConfig network_config(const RtlParams& p) {
  NetworkConfig c;
  c.mesh = MeshShape{p.mesh_w, p.mesh_h};
  return with_router(c, p);
}

NetworkConfig with_router(NetworkConfig c, const RtlParams& p) {
  for (const Parameter& row : kParameters)
    if (row.rtl != nullptr) row.of(c) = row.of(p);
  return c;
}

RtlParams router_params(const NetworkConfig& c) {
  RtlParams p;
  for (const Parameter& row : kParameters)
    if (row.rtl != nullptr) row.of(p) = row.of(c);
  return p;
}

void require_rtl_features(const NetworkConfig& c) {
  for (const Parameter& row : kParameters)
    if (row.rtl_lacks && row.of(c) != row.default_value())
      throw ConfigError("the RTL router has no --" + std::string(row.name) + " but " +
                        value_text(row, row.default_value()) + ": --" + row.name + " " + value_text(row, row.of(c)) +
                        " runs on the model only (drop --rtl and --lockstep)");
}

bool matches(const RtlParams& p, const NetworkConfig& c) {
  for (const Parameter& row : kParameters)
    if (row.rtl != nullptr && !row.rtl_capacity && row.of(p) != row.of(c)) return false;
  return c.mesh.width <= p.mesh_w && c.mesh.height <= p.mesh_h;
}

std::string describe_router(const RtlParams& p, bool capacities) {
  std::string s;
  for (const Parameter& row : kParameters)
    if (row.rtl != nullptr && (capacities || !row.rtl_capacity)) s += (s.empty() ? "" : ", ") + std::string(row.name) + " " + value_text(row, row.of(p));
  return s;
}

std::string describe(const RtlParams& p) {
  return p.name + " (" + describe_router(p) + ", mesh up to " + std::to_string(p.mesh_w) + "x" +
         std::to_string(p.mesh_h) + ")";
}

const char* port_label(int port) {
  static const char* const name[kRtlInputs] = {"Local", "+X", "-X", "+Y", "-Y", "inject 1", "inject 2", "inject 3"};
  return name[port];
}

const char* output_label(int output) {
  static const char* const name[kRtlOutputs] = {"Local", "+X", "-X", "+Y", "-Y",
                                                "eject +X", "eject -X", "eject +Y", "eject -Y"};
  return name[output];
}

void set_program(RtlInputs& in, const BarrierRegisterSetup& su, const MeshShape& mesh,
                 int max_children) {
  in.reg_op = RegOp::Program;
  in.reg_gid = su.gid;
  in.reg_parent_valid = su.parent.has_value();
  if (su.parent) {
    in.reg_parent_x = mesh.coord(*su.parent).x;
    in.reg_parent_y = mesh.coord(*su.parent).y;
  }
  in.reg_route = su.parent_route == Route::YX;
  in.reg_slot = su.slot_at_parent;
  in.reg_transit = su.transit;
  // The port says "too many" with any count above MaxChildren.
  in.reg_num_children = std::min<int>(static_cast<int>(su.children.size()), max_children + 1);
  for (int j = 0; j < max_children && j < static_cast<int>(su.children.size()); ++j) {
    in.reg_child_x[j] = mesh.coord(su.children[j].node).x;
    in.reg_child_y[j] = mesh.coord(su.children[j].node).y;
    in.reg_child_route[j] = su.children[j].route == Route::YX;
  }
}

}  // namespace meshsync::rtl
