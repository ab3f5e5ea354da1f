// The flit as the model carries it. The hardware format (bit widths) is in
// docs/microarchitecture.md; fields marked "model only" exist for statistics and the
// scoreboard and have no wires in the RTL.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "geometry.hpp"

namespace meshsync {

// Sync message type, 2 bits (NOTES.md, Fig. 3). Setup/Teardown use the two spare codes:
// the CS tree needs them to program nonmember routers on its paths.
enum class SyncType : std::uint8_t { Arrive = 0, Release = 1, Setup = 2, Teardown = 3 };

// Five virtual networks share every physical link (docs/deadlock.md): XY worms (ordinary
// messages and CP's multicast worms), XY sync messages, YX sync messages, the multicast
// worms routed in the snake subnetworks Hu and Hl, and tree worms (a data multicast
// along a barrier register's tree, docs/tree-multicast.md). The first four are acyclic
// on their own; tree worms never wait for a VC another worm holds (they drop instead).
inline constexpr int kVcs = 5;
inline constexpr int kWormVc = 0;
inline constexpr int kSnakeVc = 3;
inline constexpr int kTreeVc = 4;
// Ordinary (unicast) worms may have more VCs than VC 0 (--vcs, RouterParams::unicast_vcs):
// unicast VC k > 0 is VC kVcs + k - 1, after the five classes, so that the classes keep
// their numbers whatever the count. A worm head takes a free unicast VC of its output at
// every hop (VC allocation, docs/microarchitecture.md "Unicast VCs").
inline constexpr int kMaxUnicastVcs = 8;
inline constexpr int kMaxVcs = kVcs + kMaxUnicastVcs - 1;
constexpr int unicast_vc(int lane) { return lane == 0 ? kWormVc : kVcs + lane - 1; }
constexpr bool is_unicast_vc(int vc) { return vc == kWormVc || vc >= kVcs; }
constexpr int unicast_lane(int vc) { return vc == kWormVc ? 0 : vc - kVcs + 1; }
// The VC allocation rule, at an output and at injection alike: of `lanes` unicast VCs,
// those `usable`, the first round robin from lane `next`, or (`most`) the one whose
// `room` is largest, the lowest on a tie. -1: none usable.
template <typename Usable, typename Room>
int pick_lane(int lanes, int next, bool most, Usable usable, Room room) {
  int best = -1;
  for (int k = 0; k < lanes; ++k) {
    const int lane = most ? k : (next + k) % lanes;
    if (!usable(lane)) continue;
    if (!most) return lane;
    if (best < 0 || room(lane) > room(best)) best = lane;
  }
  return best;
}
// Worms are several flits long and hold an output's VC from head to tail; sync messages
// are single flits, but for reduction messages (sync worms, model/core/reduction_message.hpp).
constexpr bool is_worm_vc(int vc) { return is_unicast_vc(vc) || vc == kSnakeVc || vc == kTreeVc; }
// Sync VCs 1 (XY) and 2 (YX) as 0 and 1, for state kept per sync VC.
constexpr std::size_t sync_vc_index(int vc) { return vc == 2 ? 1 : 0; }
// The VCs' names in deadlock reports and waveforms (the unicast VCs after VC 0: worm1...).
inline constexpr std::array<std::string_view, kMaxVcs> kVcNames{
    "worm", "sync_xy", "sync_yx", "snake_worm", "tree_worm", "worm1", "worm2", "worm3", "worm4", "worm5", "worm6", "worm7"};

// Base routing of a worm between its destinations: XY (ordinary messages, CP), or the
// high/low snake subnetwork (DP, MP, QG; model/core/snake.hpp).
enum class WormBase : std::uint8_t { XY = 0, High = 1, Low = 2 };

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
  // Multidestination worms (docs/microarchitecture.md "Multidestination worms"): the
  // worm starts with one address flit per destination still to visit, the first being
  // the head; `dest` of an address flit is its destination.
  bool mcast = false;  // every flit of a multidestination worm
  bool addr = false;   // an address flit
  bool more = false;   // an address flit followed by another address flit
  WormBase base = WormBase::XY;
  // A worm head's forced first hop (MP's quadrant port; Local: none). Only the router the
  // worm is injected into honours it; later routers follow the base routing.
  Port first = Port::Local;
  // A tree worm (every flit): the head is addressed to a member router of group `gid`
  // along route `route`; there the barrier register's children get copies, each head
  // readdressed to its child, and the NI gets one (docs/tree-multicast.md).
  bool tree = false;
  // An ordinary worm's unicast VC on the link it is on (0 .. unicast_vcs - 1): chosen by
  // the VC allocation of the router it leaves (or the NI it is injected by). Every flit
  // of a worm carries its head's. Multidestination worms keep 0.
  std::uint8_t lane = 0;

  int vc() const {
    if (sync) return 1 + static_cast<int>(route);
    if (tree) return kTreeVc;
    return base == WormBase::XY ? unicast_vc(lane) : kSnakeVc;
  }
  // A worm that VC allocation places on any unicast VC (not a multidestination worm).
  bool allocates_vc() const { return !sync && !tree && !mcast && base == WormBase::XY; }
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
