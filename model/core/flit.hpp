// The flit as the model carries it. The hardware format (bit widths) is in
// docs/microarchitecture.md; fields marked "model only" exist for statistics and the
// scoreboard and have no wires in the RTL.
#pragma once

#include <cstdint>

#include "geometry.hpp"

namespace meshsync {

// Sync message type, 2 bits (NOTES.md, Fig. 3). Setup/Teardown use the two spare codes:
// the CS tree needs them to program nonmember routers on its paths.
enum class SyncType : std::uint8_t { Arrive = 0, Release = 1, Setup = 2, Teardown = 3 };

// Three virtual networks share every physical link (docs/deadlock.md): ordinary worms
// (XY only), XY sync messages and YX sync messages. Each is dimension-ordered on its own.
inline constexpr int kVcs = 3;
inline constexpr int kWormVc = 0;

// Sync data value of an arrival that comes from the local process (slots 0-3 are the
// children C+X, C-X, C+Y, C-Y), and of one that names no slot (CS: counted only).
inline constexpr std::uint8_t kLocalSlot = 4;
inline constexpr std::uint8_t kNoSlot = 15;

struct Flit {
  std::uint64_t packet = 0;   // model only: packet id for the scoreboard
  std::uint64_t created = 0;  // model only: cycle the packet was created
  std::uint32_t payload = 0;  // body flits: one data word
  NodeId src = 0;             // model only (the RTL header has no source field)
  NodeId dest = 0;
  std::uint16_t seq = 0;      // model only: flit index inside its packet
  std::uint16_t length = 1;   // model only: flits in the packet
  bool head = true;
  bool tail = true;
  bool sync = false;
  Route route = Route::XY;
  SyncType stype = SyncType::Arrive;
  std::uint8_t gid = 0;
  std::uint8_t data = 0;  // sync data (4 bits): the sender's child slot in reduction

  int vc() const { return sync ? 1 + static_cast<int>(route) : kWormVc; }
};

inline Flit make_sync(SyncType t, std::uint8_t gid, NodeId src, NodeId dest, Route r,
                      std::uint8_t data) {
  Flit f;
  f.sync = true;
  f.stype = t;
  f.gid = gid;
  f.src = src;
  f.dest = dest;
  f.route = r;
  f.data = data;
  return f;
}

}  // namespace meshsync
