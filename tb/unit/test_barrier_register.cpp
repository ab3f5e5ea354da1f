// The barrier register (Fig. 2) and its CAM: reduction, distribution, protocol checks,
// and the reference counting of CS path entries.
#include <catch2/catch.hpp>

#include <stdexcept>

#include "model/core/router/barrier_register_file.hpp"

using namespace meshsync;

namespace {
BarrierRegisterSetup setup_with(std::uint8_t gid, std::optional<NodeId> parent, int children) {
  BarrierRegisterSetup s;
  s.gid = gid;
  s.parent = parent;
  s.parent_route = Route::YX;
  s.slot_at_parent = 2;
  for (int i = 0; i < children; ++i)
    s.children.push_back(ChildLink{static_cast<NodeId>(10 + i), i < 2 ? Route::XY : Route::YX});
  return s;
}
}  // namespace

TEST_CASE("register: reduction completes after all children and the local process", "[register]") {
  BarrierRegister r;
  CHECK_FALSE(r.valid());
  r.program(setup_with(7, NodeId{3}, 3));
  CHECK(r.valid());
  CHECK(r.member());
  CHECK_FALSE(r.transit());
  CHECK(r.gid() == 7);
  CHECK(r.expected() == 4);
  CHECK_FALSE(r.on_arrive(0, 20));
  CHECK(r.arrival_flags() == 0b1);
  CHECK_FALSE(r.on_arrive(kLocalSlot, 20));
  CHECK(r.arrival_flags() == 0b10001);
  CHECK_FALSE(r.on_arrive(3, 20));
  CHECK(r.arrived() == 3);
  const auto up = r.on_arrive(1, 20);
  REQUIRE(up);
  CHECK(up->sync);
  CHECK(up->stype == SyncType::Arrive);
  CHECK(up->gid == 7);
  CHECK(up->src == 20);
  CHECK(up->dest == 3);
  CHECK(up->route == Route::YX);
  CHECK(up->data == 2);
  CHECK(up->vc() == 2);  // the YX sync virtual network
  // Cleared for the next epoch.
  CHECK(r.arrival_flags() == 0);
  CHECK(r.arrived() == 0);
  CHECK_FALSE(r.on_arrive(kLocalSlot, 20));
}

TEST_CASE("register: a slot arriving twice in one epoch is a protocol violation", "[register]") {
  BarrierRegister r;
  r.program(setup_with(1, NodeId{0}, 2));
  CHECK_FALSE(r.on_arrive(0, 5));
  CHECK_THROWS_AS(r.on_arrive(0, 5), std::logic_error);
}

TEST_CASE("register: root notifies its own NI and a leaf completes on the local arrival", "[register]") {
  BarrierRegister root;
  root.program(setup_with(9, std::nullopt, 1));
  CHECK_FALSE(root.on_arrive(kLocalSlot, 4));
  const auto done = root.on_arrive(0, 4);
  REQUIRE(done);
  CHECK(done->dest == 4);
  CHECK(done->src == 4);
  CHECK(done->data == kLocalSlot);
  BarrierRegister leaf;
  leaf.program(setup_with(9, NodeId{4}, 0));
  CHECK(leaf.expected() == 1);
  REQUIRE(leaf.on_arrive(kLocalSlot, 12));
}

TEST_CASE("register: CS arrivals carry no slot and are only counted", "[register]") {
  BarrierRegister r;
  auto s = setup_with(2, NodeId{1}, 2);
  s.transit = true;
  s.slot_at_parent = kNoSlot;
  r.program(s);
  CHECK(r.transit());
  CHECK_FALSE(r.on_arrive(kNoSlot, 8));
  CHECK_FALSE(r.on_arrive(kNoSlot, 8));
  CHECK(r.arrival_flags() == 0);
  const auto up = r.on_arrive(kLocalSlot, 8);
  REQUIRE(up);
  CHECK(up->data == kNoSlot);
}

TEST_CASE("register: distribution replicates to every child and the local process", "[register]") {
  BarrierRegister r;
  r.program(setup_with(33, NodeId{0}, 4));
  const auto out = r.on_release(50);
  REQUIRE(out.size() == 5);
  for (std::size_t i = 0; i < 4; ++i) {
    CHECK(out[i].stype == SyncType::Release);
    CHECK(out[i].dest == 10 + i);
    CHECK(out[i].route == (i < 2 ? Route::XY : Route::YX));
    CHECK(out[i].gid == 33);
  }
  CHECK(out[4].dest == 50);
}

TEST_CASE("register: CS path references keep a nonmember entry alive", "[register]") {
  BarrierRegister r;
  r.open_transit(4);
  CHECK(r.valid());
  CHECK_FALSE(r.member());
  CHECK(r.transit());
  CHECK(r.gid() == 4);
  r.open_transit(4);
  CHECK(r.path_refs() == 2);
  CHECK_FALSE(r.close_transit());
  CHECK(r.valid());
  CHECK(r.close_transit());
  CHECK_FALSE(r.valid());
  // A member whose router is also on a CS path: leaving keeps the path entry.
  BarrierRegister m;
  auto s = setup_with(6, NodeId{1}, 0);
  s.transit = true;
  m.program(s);
  m.open_transit(6);
  CHECK_FALSE(m.unprogram());
  CHECK(m.valid());
  CHECK_FALSE(m.member());
  CHECK(m.close_transit());
  CHECK_FALSE(m.valid());
}

TEST_CASE("register file: CAM lookup and allocation", "[register]") {
  BarrierRegisterFile f(2);
  CHECK(f.size() == 2);
  CHECK(f.in_use() == 0);
  CHECK(f.lookup(5) == -1);
  CHECK(f.find_or_allocate(5) == 0);
  f.at(0).program(setup_with(5, NodeId{0}, 0));
  CHECK(f.lookup(5) == 0);
  CHECK(f.find_or_allocate(5) == 0);
  CHECK(f.find_or_allocate(6) == 1);
  f.at(1).program(setup_with(6, NodeId{0}, 0));
  CHECK(f.in_use() == 2);
  CHECK(f.find_or_allocate(7) == -1);  // full
  f.at(0).unprogram();
  CHECK(f.in_use() == 1);
  CHECK(f.lookup(5) == -1);
  CHECK(f.find_or_allocate(7) == 0);
  BarrierRegisterFile none(0);
  CHECK(none.find_or_allocate(1) == -1);
}
