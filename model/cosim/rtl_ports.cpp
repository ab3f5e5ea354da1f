#include "rtl_ports.hpp"

#include <algorithm>
#include <map>
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
  if (!ff::kTail.get(b))
    throw FlitFormatError("RTL sync message " + describe_flit(b) + " has no tail bit (sync messages are single flits)");
  if (!mesh.contains(dest))
    throw FlitFormatError("RTL sync message " + describe_flit(b) + " is addressed outside the " +
                          std::to_string(mesh.width) + "x" + std::to_string(mesh.height) + " mesh");
  return make_sync(static_cast<SyncType>(ff::kType.get(b)), static_cast<std::uint8_t>(ff::kGid.get(b)),
                   self, mesh.id(dest), ff::kRoute.get(b) ? Route::YX : Route::XY,
                   static_cast<std::uint8_t>(ff::kData.get(b)));
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

RtlParams parse_rtl_params(const std::string& name, const std::string& verilog_params) {
  RtlParams p;
  p.name = name;
  const std::map<std::string, int*> field{{"MeshW", &p.mesh_w},
                                          {"MeshH", &p.mesh_h},
                                          {"BufferDepth", &p.buffer_depth},
                                          {"SyncBufferDepth", &p.sync_buffer_depth},
                                          {"TreeBufferDepth", &p.tree_buffer_depth},
                                          {"NumRegs", &p.num_regs},
                                          {"MaxChildren", &p.max_children},
                                          {"Trn", &p.trn},
                                          {"Trm", &p.trm},
                                          {"NiPorts", &p.ni_ports}};
  std::istringstream in(verilog_params);
  for (std::string item; in >> item;) {
    const auto eq = item.find('=');
    const auto f = field.find(item.substr(0, eq));
    if (eq == std::string::npos || f == field.end())
      throw std::invalid_argument("RTL configuration " + name + ": '" + item +
                                  "' is not a parameter the model mirrors");
    *f->second = std::stoi(item.substr(eq + 1));
  }
  if (p.ni_ports != 1 && p.ni_ports != 4)
    throw std::invalid_argument("RTL configuration " + name + ": NiPorts must be 1 or 4");
  return p;
}

NetworkConfig network_config(const RtlParams& p) {
  NetworkConfig c;
  c.mesh = MeshShape{p.mesh_w, p.mesh_h};
  c.timing.trn = static_cast<std::uint32_t>(p.trn);
  c.timing.trm = static_cast<std::uint32_t>(p.trm);
  c.router.buffer_depth = static_cast<std::uint32_t>(p.buffer_depth);
  c.router.sync_buffer_depth = static_cast<std::uint32_t>(p.sync_buffer_depth);
  c.router.tree_buffer_depth = static_cast<std::uint32_t>(p.tree_buffer_depth);
  c.router.barrier_registers = static_cast<std::uint32_t>(p.num_regs);
  c.router.max_children = static_cast<std::uint32_t>(p.max_children);
  c.router.ni_ports = static_cast<std::uint32_t>(p.ni_ports);
  return c;
}

RtlParams router_params(const NetworkConfig& c) {
  RtlParams p;
  p.buffer_depth = static_cast<int>(c.router.buffer_depth);
  p.sync_buffer_depth = static_cast<int>(c.router.sync_buffer_depth);
  p.tree_buffer_depth = static_cast<int>(c.router.tree_buffer_depth);
  p.num_regs = static_cast<int>(c.router.barrier_registers);
  p.max_children = static_cast<int>(c.router.max_children);
  p.trn = static_cast<int>(c.timing.trn);
  p.trm = static_cast<int>(c.timing.trm);
  p.ni_ports = static_cast<int>(c.router.ni_ports);
  return p;
}

bool matches(const RtlParams& p, const NetworkConfig& c) {
  const NetworkConfig r = network_config(p);
  return r.router.buffer_depth == c.router.buffer_depth &&
         r.router.sync_buffer_depth == c.router.sync_buffer_depth &&
         r.router.tree_buffer_depth == c.router.tree_buffer_depth &&
         r.router.barrier_registers == c.router.barrier_registers &&
         r.router.max_children == c.router.max_children && r.timing.trn == c.timing.trn &&
         r.timing.trm == c.timing.trm && r.router.ni_ports == c.router.ni_ports &&
         c.mesh.width <= p.mesh_w && c.mesh.height <= p.mesh_h;
}

std::string describe_router(const RtlParams& p) {
  std::ostringstream s;
  s << "buffer-depth " << p.buffer_depth << ", sync-buffer-depth " << p.sync_buffer_depth
    << ", tree-buffer-depth " << p.tree_buffer_depth
    << ", barrier-registers " << p.num_regs << ", max-children " << p.max_children << ", trn "
    << p.trn << ", trm " << p.trm << ", " << (p.ni_ports == 1 ? "one-port" : "all-port") << " NI";
  return s.str();
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
