#include "rtl_ports.hpp"

#include <algorithm>
#include <sstream>

namespace meshsync::rtl {

std::uint32_t encode_flit(const Flit& f, const MeshShape& mesh) {
  std::uint32_t b = (static_cast<std::uint32_t>(f.head) << 31) |
                    (static_cast<std::uint32_t>(f.tail) << 30);
  if (!f.head) return b | (f.payload & 0x3fffffffu);
  const Coord d = mesh.coord(f.dest);
  b |= static_cast<std::uint32_t>(f.sync) << 29;
  b |= static_cast<std::uint32_t>(f.route == Route::YX) << 28;
  b |= (static_cast<std::uint32_t>(f.stype) & 3u) << 26;
  b |= static_cast<std::uint32_t>(f.gid) << 18;
  b |= (static_cast<std::uint32_t>(f.data) & 15u) << 14;
  b |= (static_cast<std::uint32_t>(d.y) & 127u) << 7;
  b |= static_cast<std::uint32_t>(d.x) & 127u;
  return b;
}

bool is_sync_head(std::uint32_t b) { return (b >> 31) && ((b >> 29) & 1u); }

Flit decode_sync(std::uint32_t b, const MeshShape& mesh, NodeId self) {
  const Coord dest{static_cast<int>(b & 127u), static_cast<int>((b >> 7) & 127u)};
  return make_sync(static_cast<SyncType>((b >> 26) & 3u), static_cast<std::uint8_t>((b >> 18) & 255u),
                   self, mesh.id(dest), ((b >> 28) & 1u) ? Route::YX : Route::XY,
                   static_cast<std::uint8_t>((b >> 14) & 15u));
}

std::string describe_flit(std::uint32_t b) {
  static const char* const type[4] = {"arrive", "release", "setup", "teardown"};
  std::ostringstream s;
  s << "0x" << std::hex << b << std::dec << " (";
  const bool head = b >> 31, tail = (b >> 30) & 1u;
  if (!head) {
    s << (tail ? "tail" : "body") << " payload 0x" << std::hex << (b & 0x3fffffffu) << std::dec;
  } else if ((b >> 29) & 1u) {
    s << "sync " << type[(b >> 26) & 3u] << " gid " << ((b >> 18) & 255u) << " data "
      << ((b >> 14) & 15u) << " dest (" << (b & 127u) << "," << ((b >> 7) & 127u) << ") R="
      << (((b >> 28) & 1u) ? "YX" : "XY");
  } else {
    s << (tail ? "head+tail" : "head") << " dest (" << (b & 127u) << "," << ((b >> 7) & 127u)
      << ")";
  }
  s << ")";
  return s.str();
}

const char* port_label(int port) {
  static const char* const name[kPorts] = {"Local", "+X", "-X", "+Y", "-Y"};
  return name[port];
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
