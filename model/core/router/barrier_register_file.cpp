#include "barrier_register_file.hpp"

#include <stdexcept>

namespace meshsync {

void BarrierRegister::program(const BarrierRegisterSetup& s) {
  valid_ = true;
  member_ = true;
  transit_ = s.transit;
  setup_ = s;
  flags_ = 0;
  arrived_ = 0;
  reduction.clear_epoch();
}

void BarrierRegister::open_transit(std::uint8_t gid) {
  if (!valid_) {
    valid_ = true;
    member_ = false;
    setup_ = BarrierRegisterSetup{};
    setup_.gid = gid;
    flags_ = 0;
    arrived_ = 0;
  }
  transit_ = true;
  ++path_refs_;
}

bool BarrierRegister::close_transit() {
  if (path_refs_ > 0) --path_refs_;
  if (path_refs_ == 0 && !member_) {
    valid_ = false;
    transit_ = false;
  }
  return !valid_;
}

bool BarrierRegister::unprogram() {
  member_ = false;
  const std::uint8_t gid = setup_.gid;
  setup_ = BarrierRegisterSetup{};
  setup_.gid = gid;
  flags_ = 0;
  arrived_ = 0;
  reduction.clear_epoch();
  if (path_refs_ == 0) {
    valid_ = false;
    transit_ = false;
  }
  return !valid_;
}

std::optional<Flit> BarrierRegister::on_arrive(std::uint8_t slot, NodeId self) {
  if (slot != kNoSlot) {
    // A BTM arrival names its child slot (0-3) or the local process (4); a CS arrival
    // none (kNoSlot). The RTL's flags have five bits.
    if (slot > kLocalSlot)
      throw std::logic_error("barrier protocol violation: gid " + std::to_string(setup_.gid) +
                             ": an arrival names no child slot (sync data " + std::to_string(slot) + ")");
    const std::uint32_t bit = 1u << slot;
    if (flags_ & bit)
      throw std::logic_error("barrier protocol violation: gid " + std::to_string(setup_.gid) +
                             " slot " + std::to_string(slot) + " arrived twice in one epoch");
    flags_ |= bit;
  }
  if (++arrived_ < expected()) return std::nullopt;
  // Reduction complete: clear for the next epoch before anything else can arrive.
  flags_ = 0;
  arrived_ = 0;
  return reduction_message(self);
}

Flit BarrierRegister::reduction_message(NodeId self) const {
  if (setup_.parent)
    return make_sync(SyncType::Arrive, setup_.gid, self, *setup_.parent, setup_.parent_route,
                     setup_.slot_at_parent);
  return make_sync(SyncType::Arrive, setup_.gid, self, self, Route::XY, kLocalSlot);
}

std::vector<Flit> BarrierRegister::on_release(NodeId self) const {
  std::vector<Flit> out;
  out.reserve(setup_.children.size() + 1);
  for (std::size_t k = 0; k <= setup_.children.size(); ++k) out.push_back(release_message(k, self));
  return out;
}

Flit BarrierRegister::release_message(std::size_t k, NodeId self) const {
  if (k < setup_.children.size()) {
    const ChildLink& c = setup_.children[k];
    return make_sync(SyncType::Release, setup_.gid, self, c.node, c.route, 0);
  }
  return make_sync(SyncType::Release, setup_.gid, self, self, Route::XY, 0);
}

std::string BarrierRegister::describe() const {
  if (!valid_) return "free";
  std::string s = "gid " + std::to_string(setup_.gid);
  if (member_) s += " member arrived " + std::to_string(arrived_) + "/" + std::to_string(expected());
  if (transit_) s += " cs-path refs " + std::to_string(path_refs_);
  return s;
}

int BarrierRegisterFile::find_or_allocate(std::uint8_t gid) const {
  const int hit = lookup(gid);
  if (hit >= 0) return hit;
  for (std::size_t i = 0; i < regs_.size(); ++i)
    if (!regs_[i].valid()) return static_cast<int>(i);
  return -1;
}

std::size_t BarrierRegisterFile::in_use() const {
  std::size_t n = 0;
  for (const auto& r : regs_) n += r.valid() ? 1 : 0;
  return n;
}

}  // namespace meshsync
