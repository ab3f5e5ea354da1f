// The register file of one router (RTL meshsync_barrier_regfile): the barrier register of
// the BTM paper (Fig. 2) and the content-addressable file that holds a router's registers.
// The reduction/distribution rules live here once and serve both the router's barrier
// unit and the network interface's software fallback.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "../flit.hpp"
#include "../reduction_message.hpp"

namespace meshsync {

struct ChildLink {
  NodeId node = 0;
  Route route = Route::XY;  // distribution route to this child
};

// What software writes into a register (the fields of Fig. 2 less the arrival flags).
struct BarrierRegisterSetup {
  std::uint8_t gid = 0;
  // CS-tree entry: every sync message of this GID that crosses the router is processed
  // (t_rm), not only those addressed to it. BTM registers leave it clear.
  bool transit = false;
  std::optional<NodeId> parent;  // P; empty at the root
  Route parent_route = Route::XY;  // the R bit
  std::uint8_t slot_at_parent = kNoSlot;  // sync data sent upward: which child we are
  std::vector<ChildLink> children;  // BTM: at most four, one per port
};

// A register's in-network reduction (docs/reduction-hardware.md, "Barrier registers"):
// what the epoch is, the descriptor its members' messages must agree on, and the lanes
// that hold the operands until the fold. Kept by the router's barrier unit; a software
// write clears the epoch.
struct RegisterReduction {
  bool kind_set = false;  // the epoch's first arrival head has said what the epoch is
  bool red = false;       // ... a reduction (its arrivals carry vectors), else a barrier
  bool desc_set = false;  // the epoch's first descriptor is latched; cleared at completion
  // The value stays after completion, for the fold and the release: the next epoch's first
  // descriptor comes from a child or the node only after this router's release batch was
  // taken, and the emitter keeps its own copy while it streams.
  ReductionDescriptor desc;
  std::uint8_t operands = 0;  // the arrival flags at completion: the lanes the fold reads
  // Five lanes of up to reduce_words words: lanes 0-3 the children in slot order (C+X,
  // C-X, C+Y, C-Y), lane 4 the node's own vector and then the result. The model grows a
  // lane to the longest vector it has held (the hardware has reduce_words flops each).
  std::array<std::vector<std::uint32_t>, 5> lanes;
  // Lane k, at least `words` long.
  std::uint32_t* lane(std::uint32_t k, std::uint32_t words) {
    std::vector<std::uint32_t>& l = lanes[k];
    if (l.size() < words) l.resize(words);
    return l.data();
  }
  void clear_epoch() {
    kind_set = false;
    red = false;
    desc_set = false;
  }
};

class BarrierRegister {
 public:
  bool valid() const { return valid_; }
  bool member() const { return member_; }
  bool transit() const { return transit_; }
  std::uint8_t gid() const { return setup_.gid; }
  const BarrierRegisterSetup& setup() const { return setup_; }
  std::uint32_t arrival_flags() const { return flags_; }
  std::uint32_t arrived() const { return arrived_; }
  std::uint32_t expected() const { return static_cast<std::uint32_t>(setup_.children.size()) + 1; }
  std::uint32_t path_refs() const { return path_refs_; }

  void program(const BarrierRegisterSetup& s);
  void open_transit(std::uint8_t gid);  // CS setup message crossing this router
  // Returns true when the register is no longer needed and may be freed.
  bool close_transit();
  bool unprogram();

  // Reduction: marks an arrival from `slot` (kNoSlot: counted only). When the children
  // and the local process have all arrived, returns the one message to send: to the
  // parent, or, at the root, a notification to the local network interface. Otherwise
  // returns nothing.
  std::optional<Flit> on_arrive(std::uint8_t slot, NodeId self);
  // The message a completed reduction sends: to the parent, or at the root to the local
  // network interface.
  Flit reduction_message(NodeId self) const;
  // Distribution: one release per child plus the release of the local process (last).
  std::vector<Flit> on_release(NodeId self) const;
  // The k-th message of on_release: child k's release (k < children), else the local one.
  Flit release_message(std::size_t k, NodeId self) const;

  std::string describe() const;

  RegisterReduction reduction;

 private:
  bool valid_ = false;
  bool member_ = false;
  bool transit_ = false;
  BarrierRegisterSetup setup_;
  std::uint32_t flags_ = 0;    // A+X A-X A+Y A-Y and the local flag (bit 4)
  std::uint32_t arrived_ = 0;  // arrivals this epoch (CS children carry no slot)
  std::uint32_t path_refs_ = 0;
};

// A CAM of barrier registers, matched by GID.
class BarrierRegisterFile {
 public:
  explicit BarrierRegisterFile(std::uint32_t size) : regs_(size) {}
  int lookup(std::uint8_t gid) const {
    for (std::size_t i = 0; i < regs_.size(); ++i)
      if (regs_[i].valid() && regs_[i].gid() == gid) return static_cast<int>(i);
    return -1;
  }
  // Lookup, else the lowest free register, else -1.
  int find_or_allocate(std::uint8_t gid) const;
  BarrierRegister& at(int i) { return regs_[static_cast<std::size_t>(i)]; }
  const BarrierRegister& at(int i) const { return regs_[static_cast<std::size_t>(i)]; }
  std::size_t size() const { return regs_.size(); }
  std::size_t in_use() const;

 private:
  std::vector<BarrierRegister> regs_;
};

}  // namespace meshsync
