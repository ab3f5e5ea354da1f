// What a waveform shows of a flit on a port: its kind, VC and nodes as names. One table
// for the GTKWave translate filters and docs/waveforms.md.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "../core/flit.hpp"
#include "../core/geometry.hpp"

namespace meshsync {

// The kind of a flit as a person reads it: ordinary worms (XY unicast), sync messages of
// the barrier tree, path-based multidestination worms and tree worms.
enum class FlitKind : std::uint8_t {
  Idle = 0,
  WormHead, WormBody, WormTail, WormSingle,
  SyncArrive, SyncRelease, SyncSetup, SyncTeardown,
  PathHead, PathAddress, PathBody, PathTail,
  TreeHead, TreeBody, TreeTail, TreeSingle,
};
inline constexpr unsigned kFlitKindBits = 5;

inline const std::vector<std::string>& flit_kind_names() {
  static const std::vector<std::string> names{
      "idle",         "worm_head",     "worm_body",  "worm_tail",    "worm_single", "sync_arrive",
      "sync_release", "sync_setup",    "sync_teardown", "path_head", "path_addr",   "path_body",
      "path_tail",    "tree_head",     "tree_body",  "tree_tail",    "tree_single"};
  return names;
}

inline FlitKind flit_kind(const Flit& f) {
  if (f.sync) return static_cast<FlitKind>(static_cast<unsigned>(FlitKind::SyncArrive) + static_cast<unsigned>(f.stype));
  if (f.mcast) {
    if (f.head) return FlitKind::PathHead;
    if (f.addr) return FlitKind::PathAddress;
    return f.tail ? FlitKind::PathTail : FlitKind::PathBody;
  }
  const unsigned base = static_cast<unsigned>(f.tree ? FlitKind::TreeHead : FlitKind::WormHead);
  if (f.head && f.tail) return static_cast<FlitKind>(base + 3);
  return static_cast<FlitKind>(base + (f.head ? 0 : f.tail ? 2 : 1));
}

// The virtual networks by their names (flit.hpp), as the filter files list them: the
// `count` VC numbers a router uses (RouterParams::vcs()).
inline std::vector<std::string> vc_names(int count) {
  return std::vector<std::string>(kVcNames.begin(), kVcNames.begin() + count);
}
// Bits of a flit's VC number: 3 for the five classes and up to three more unicast VCs.
inline unsigned vc_bits(int count) { return count > 8 ? 4 : 3; }

// A node as a trace shows it: its coordinates side by side, x in the high bits, so that
// the bare number reads as x then y in binary; the filter names it "x,y".
inline std::uint64_t node_value(Coord c, unsigned coord_bits) {
  return static_cast<std::uint64_t>(c.x) << coord_bits | static_cast<std::uint64_t>(c.y);
}
inline std::vector<std::string> node_names(const MeshShape& mesh, unsigned coord_bits) {
  std::vector<std::string> names(static_cast<std::size_t>(node_value({mesh.width - 1, mesh.height - 1}, coord_bits)) + 1);
  for (int x = 0; x < mesh.width; ++x)
    for (int y = 0; y < mesh.height; ++y)
      names[static_cast<std::size_t>(node_value({x, y}, coord_bits))] = std::to_string(x) + "," + std::to_string(y);
  return names;
}

}  // namespace meshsync
