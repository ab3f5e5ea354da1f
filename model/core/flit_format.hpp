// The 32-bit hardware flit of the contract (docs/microarchitecture.md "Flit format"):
// the one C++ description of its bit layout. rtl/meshsync_pkg.sv names the same fields
// for the Verilog; tb/rtl/test_contract.cpp checks that the two agree.
#pragma once

#include <cstdint>

namespace meshsync::flit_format {

// A bit field: `width` bits starting at bit `lsb`.
struct Field {
  unsigned lsb;
  unsigned width;

  constexpr std::uint32_t mask() const { return width >= 32 ? ~0u : (1u << width) - 1u; }
  constexpr std::uint32_t get(std::uint32_t word) const { return (word >> lsb) & mask(); }
  // `value` placed in the field; bits beyond the width are dropped, as on the wires.
  constexpr std::uint32_t put(std::uint32_t value) const { return (value & mask()) << lsb; }
};

inline constexpr unsigned kWidth = 32;

// Flags of every flit.
inline constexpr Field kHead{31, 1};
inline constexpr Field kTail{30, 1};
// A body or tail flit carries one data word below the two flags.
inline constexpr Field kPayload{0, 30};

// A head flit (worm head or single-flit sync message).
inline constexpr Field kSync{29, 1};
inline constexpr Field kRoute{28, 1};  // 1: YX (sync messages only; worms go XY)
inline constexpr Field kType{26, 2};   // SyncType
inline constexpr Field kGid{18, 8};
inline constexpr Field kData{14, 4};   // sync data: the sender's child slot in reduction
inline constexpr Field kDestY{7, 7};
// A multidestination worm's address flits (the head and the ones after it, which have
// head = 0 and are told from data flits by their position: each says whether another
// follows). Sync messages use these bits for type and gid; worms have no type or gid.
inline constexpr Field kMcast{27, 1};
inline constexpr Field kBase{25, 2};  // WormBase: 0 XY, 1 Hu, 2 Hl
inline constexpr Field kMore{24, 1};   // another address flit follows
// The head's forced first hop, an output port (Port; 0 = Local = none): honoured only by
// the router the worm is injected into (MP's quadrant ports).
inline constexpr Field kFirst{21, 3};
// A tree worm's head (docs/tree-multicast.md): mcast = 1 with base 3, the route R to its
// destination, and its group.
inline constexpr std::uint32_t kBaseTree = 3;
inline constexpr Field kTreeGid{17, 8};
inline constexpr Field kDestX{0, 7};

// The destination fields bound the meshes the hardware can address.
inline constexpr int kMaxMeshSide = 1 << kDestX.width;

}  // namespace meshsync::flit_format
