// Directed RTL tests. Every cycle also runs the C++ router core in lockstep (any
// difference fails the test), and each test checks the RTL's outputs against the values
// the contract gives (docs/microarchitecture.md).
#include <catch2/catch.hpp>

#include <algorithm>

#include <map>
#include <optional>
#include <vector>

#include "directed_driver.hpp"

using namespace meshsync;
using namespace meshsync::rtl;
using namespace meshsync::rtl::directed;

TEST_CASE("directed: CAM hit, miss, full, free and reuse", "[directed][cam]") {
  Driver d("default");  // 4 registers
  CHECK(d.program(leaf(10)));
  CHECK(d.program(leaf(11)));
  CHECK(d.program(leaf(12)));
  CHECK(d.program(leaf(13)));
  CHECK_FALSE(d.program(leaf(14)));  // full: the NI keeps the group in node memory
  CHECK(d.program(leaf(11)));        // hit: reprogramming its own entry
  CHECK_FALSE(d.free(99));           // not a member here
  CHECK(d.free(11));
  CHECK_FALSE(d.free(11));
  CHECK(d.program(leaf(14)));        // reuses the freed entry
  CHECK(d.ls().model().registers().lookup(14) == 1);  // the lowest free one

  // A hit on a member: the barrier unit takes the arrival (trm) and, at the root, sends
  // one arrive to the local NI with data 4.
  Stimulus s;
  s.in[kPlusX] = make_sync(SyncType::Arrive, 14, d.node(4, 4), d.self(), Route::XY, kLocalSlot);
  d.cycle(s);
  const std::uint64_t arrival = d.now();
  for (std::uint64_t c = arrival; c + 1 < arrival + d.trm() - 1; ++c) CHECK_FALSE(d.cycle().out_valid[kLocal]);
  const RtlOutputs& up = d.until(arrival + d.trm() - 1);
  REQUIRE(up.out_valid[kLocal]);
  CHECK(type_of(up.out_flit[kLocal]) == 0);
  CHECK(gid_of(up.out_flit[kLocal]) == 14);
  CHECK(data_of(up.out_flit[kLocal]) == 4);
  CHECK(up.out_vc[kLocal] == 1);

  // A miss: the message goes on to the NI unchanged, also after trm.
  Stimulus m;
  m.in[kMinusY] = make_sync(SyncType::Release, 99, d.node(3, 3), d.self(), Route::YX, 0);
  d.cycle(m);
  const std::uint64_t a2 = d.now();
  const RtlOutputs& out = d.until(a2 + d.trm() - 1);
  REQUIRE(out.out_valid[kLocal]);
  CHECK(gid_of(out.out_flit[kLocal]) == 99);
  CHECK(type_of(out.out_flit[kLocal]) == 1);
  CHECK(out.out_vc[kLocal] == 2);
}

TEST_CASE("directed: XY and YX route computation", "[directed][route]") {
  Driver d("small");  // trn 2
  struct Case {
    int x, y;
    Route r;
    int port;
  };
  // From (3,4): X first for XY, Y first for YX; Local when the destination is here.
  const std::vector<Case> cases = {
      {6, 7, Route::XY, kPlusX},  {6, 7, Route::YX, kPlusY},  {0, 1, Route::XY, kMinusX},
      {0, 1, Route::YX, kMinusY}, {3, 7, Route::XY, kPlusY},  {3, 0, Route::YX, kMinusY},
      {5, 4, Route::YX, kPlusX},  {1, 4, Route::XY, kMinusX}, {7, 0, Route::YX, kMinusY},
  };
  for (const Case& k : cases) {
    // Pass-through sync messages (no register: trn) and a worm head for XY.
    Stimulus s;
    s.in[kLocal] = make_sync(SyncType::Release, 200, d.self(), d.node(k.x, k.y), k.r, 0);
    d.cycle(s);
    const RtlOutputs& o = d.until(d.now() + d.trn() - 1);
    INFO("dest (" << k.x << "," << k.y << ") " << route_name(k.r));
    REQUIRE(o.out_valid[k.port]);
    CHECK(dest_x(o.out_flit[k.port]) == k.x);
    CHECK(dest_y(o.out_flit[k.port]) == k.y);
    CHECK(yx_of(o.out_flit[k.port]) == (k.r == Route::YX));
    CHECK(o.out_vc[k.port] == (k.r == Route::YX ? 2 : 1));
    if (k.r == Route::XY) {
      Stimulus w;
      w.in[kMinusX] = worm_flit(d.node(k.x, k.y), true, true);
      d.cycle(w);
      const RtlOutputs& ow = d.until(d.now() + d.trn() - 1);
      REQUIRE(ow.out_valid[k.port]);
      CHECK(ow.out_vc[k.port] == 0);
      CHECK_FALSE(sync_of(ow.out_flit[k.port]));
    }
    d.cycle();
  }
  // A worm to this router leaves through Local.
  Stimulus w;
  w.in[kPlusY] = worm_flit(d.self(), true, true);
  d.cycle(w);
  CHECK(d.until(d.now() + d.trn() - 1).out_valid[kLocal]);
}

TEST_CASE("directed: output arbitration is round robin over the inputs", "[directed][arbiter]") {
  Driver d("default");
  // Four inputs send single-flit worms to -Y without pause; each input's destination row
  // names it. The downstream returns every credit three cycles later.
  const std::vector<int> inputs = {kLocal, kPlusX, kMinusX, kPlusY};
  std::map<int, int> credit;  // upstream credits of the three non-Local inputs (VC 0)
  for (int p : inputs) credit[p] = static_cast<int>(d.ls().depth(0));
  std::map<std::uint64_t, int> returns;  // cycle -> credits for -Y VC 0 presented then
  std::vector<int> order;
  std::map<int, int> wins;
  for (int c = 0; c < 400; ++c) {
    d.ls().step_model();
    Stimulus s;
    for (std::size_t k = 0; k < inputs.size(); ++k) {
      const int p = inputs[k];
      const bool room = p == kLocal ? d.ls().model().buffered(Port::Local, 0) < d.ls().depth(0)
                                    : credit[p] > 0;
      if (!room) continue;
      s.in[p] = worm_flit(d.node(3, static_cast<int>(k)), true, true);
      if (p != kLocal) --credit[p];
    }
    if (returns[d.now()] > 0) {
      s.credit[kMinusY][0] = true;
      if (--returns[d.now()] > 0) returns[d.now() + 1] += returns[d.now()];
    }
    REQUIRE(d.ls().apply(s));
    const RtlOutputs& o = d.ls().rtl_outputs();
    for (int p : inputs)
      if (p != kLocal && o.credit_out[p][0]) ++credit[p];
    if (o.out_valid[kMinusY]) {
      const int who = dest_y(o.out_flit[kMinusY]);
      order.push_back(who);
      ++wins[who];
      returns[d.now() + 2] += 1;
    }
  }
  REQUIRE(order.size() > 300);
  // In steady state every input wins once every four grants, in index order.
  for (std::size_t i = 20; i + 1 < order.size(); ++i) CHECK(order[i + 1] == (order[i] + 1) % 4);
  for (int k = 0; k < 4; ++k) CHECK(std::abs(wins[k] - static_cast<int>(order.size()) / 4) <= 1);
}

TEST_CASE("directed: no flit leaves without a credit and every credit comes back", "[directed][credits]") {
  Driver d("default");
  d.manual_credits();
  const int depth = static_cast<int>(d.ls().depth(0));
  // A long worm from -X to +X; the downstream returns nothing at first. The input buffer
  // holds what the downstream cannot take yet (at most `depth`, and at least the three
  // flits the three credits below let go).
  const int len = depth + std::min(depth, 6);
  int sent_in = 0, sent_out = 0, credits_back = 0;
  int up_credit = depth;
  for (int c = 0; c < 200; ++c) {
    Stimulus s;
    if (sent_in < len && up_credit > 0) {
      s.in[kMinusX] = worm_flit(d.node(7, 4), sent_in == 0, sent_in + 1 == len,
                                static_cast<std::uint32_t>(sent_in));
      ++sent_in;
      --up_credit;
    }
    const RtlOutputs& o = d.cycle(s);
    if (o.out_valid[kPlusX]) {
      // In order: body flit i carries payload i.
      if (sent_out > 0) CHECK(flit_format::kPayload.get(o.out_flit[kPlusX]) == static_cast<std::uint32_t>(sent_out));
      ++sent_out;
    }
    if (o.credit_out[kMinusX][0]) {
      ++credits_back;
      ++up_credit;
    }
    CHECK(sent_out <= depth);  // the downstream buffer holds `depth` flits
  }
  CHECK(sent_out == depth);
  CHECK(credits_back == depth);  // every flit that left the input returned its credit
  // Three credits: exactly three more flits.
  for (int k = 0; k < 3; ++k) {
    Stimulus s;
    s.credit[kPlusX][0] = true;
    if (d.cycle(s).out_valid[kPlusX]) ++sent_out;
  }
  for (int c = 0; c < 30; ++c)
    if (d.cycle().out_valid[kPlusX]) ++sent_out;
  CHECK(sent_out == depth + 3);
  // The rest once the downstream frees everything.
  for (int c = 0; c < depth; ++c) {
    Stimulus s;
    s.credit[kPlusX][0] = true;
    if (d.cycle(s).out_valid[kPlusX]) ++sent_out;
  }
  for (int c = 0; c < 30; ++c)
    if (d.cycle().out_valid[kPlusX]) ++sent_out;
  CHECK(sent_out == len);
}

TEST_CASE("directed: BTM reduction and distribution at one router", "[directed][btm]") {
  Driver d("default");
  const Coord me = d.ls().where();
  // Children C+X, C-X, C+Y, C-Y (XY, XY, YX, YX); the parent at (1,6), reached YX.
  BarrierRegisterSetup s;
  s.gid = 42;
  s.parent = d.node(1, 6);
  s.parent_route = Route::YX;
  s.slot_at_parent = 2;
  s.children = {{d.node(me.x + 1, me.y), Route::XY},
                {d.node(me.x - 1, me.y), Route::XY},
                {d.node(me.x, me.y + 1), Route::YX},
                {d.node(me.x, me.y - 1), Route::YX}};
  REQUIRE(d.program(s));

  // Four children and the local process arrive in the same cycle. The barrier unit takes
  // them one per cycle, so the fifth completes the reduction four cycles later, well
  // within trm: the message still leaves when the last arrival is ready.
  Stimulus a;
  for (int slot = 0; slot < 4; ++slot)
    a.in[slot + 1] = make_sync(SyncType::Arrive, 42, s.children[slot].node, d.self(),
                               slot % 2 ? Route::YX : Route::XY, static_cast<std::uint8_t>(slot));
  a.in[kLocal] = make_sync(SyncType::Arrive, 42, d.self(), d.self(), Route::XY, kLocalSlot);
  d.cycle(a);
  const std::uint64_t arrival = d.now();
  int messages = 0;
  for (std::uint64_t c = arrival; c < arrival + d.trm() + 10; ++c) {
    const RtlOutputs& o = d.cycle();
    for (int p = 0; p < kPorts; ++p) {
      if (!o.out_valid[p]) continue;
      ++messages;
      // One message to the parent: Y first from (3,4) to (1,6) is +Y, in cycle a + trm - 1.
      CHECK(c == arrival + d.trm() - 1);
      CHECK(p == kPlusY);
      CHECK(type_of(o.out_flit[p]) == 0);
      CHECK(gid_of(o.out_flit[p]) == 42);
      CHECK(data_of(o.out_flit[p]) == 2);
      CHECK(dest_x(o.out_flit[p]) == 1);
      CHECK(dest_y(o.out_flit[p]) == 6);
      CHECK(yx_of(o.out_flit[p]));
      CHECK(o.out_vc[p] == 2);
    }
  }
  CHECK(messages == 1);

  // The release from the parent: four children through four ports in the same cycle, the
  // local release in the next.
  Stimulus r;
  r.in[kPlusY] = make_sync(SyncType::Release, 42, d.node(1, 6), d.self(), Route::YX, 0);
  d.cycle(r);
  const std::uint64_t rel = d.now();
  std::map<int, std::uint32_t> out;
  for (std::uint64_t c = rel; c < rel + d.trm() + 10; ++c) {
    const RtlOutputs& o = d.cycle();
    for (int p = 0; p < kPorts; ++p) {
      if (!o.out_valid[p]) continue;
      CHECK(c == rel + d.trm() - (p == kLocal ? 0 : 1));
      out[p] = o.out_flit[p];
      CHECK(o.out_vc[p] == (p == kPlusY || p == kMinusY ? 2 : 1));
    }
  }
  REQUIRE(out.size() == 5);
  for (int slot = 0; slot < 4; ++slot) {
    const std::uint32_t f = out[slot + 1];
    const Coord child = d.ls().mesh().coord(s.children[slot].node);
    CHECK(type_of(f) == 1);
    CHECK(gid_of(f) == 42);
    CHECK(dest_x(f) == child.x);
    CHECK(dest_y(f) == child.y);
  }
  CHECK(type_of(out[kLocal]) == 1);
  CHECK(dest_x(out[kLocal]) == me.x);
  CHECK(dest_y(out[kLocal]) == me.y);
}

TEST_CASE("directed: an arrival on a flag already set is a protocol error", "[directed][error]") {
  Driver d("small");
  BarrierRegisterSetup s;
  s.gid = 7;
  s.children = {{d.node(4, 4), Route::XY}};
  REQUIRE(d.program(s));
  Stimulus a;
  a.in[kPlusX] = make_sync(SyncType::Arrive, 7, d.node(4, 4), d.self(), Route::XY, 0);
  d.cycle(a);
  d.cycle();
  d.cycle(a);  // slot 0 again in the same epoch
  CHECK(d.error_within(10));
}

TEST_CASE("directed: a sync message on an all-port injection channel 1-3 is a protocol error",
          "[directed][error]") {
  // Channels 1-3 carry worms only: a sync message there has no path to the barrier unit.
  // The model refuses it as it is injected (its NI never sends one there), so the RTL is
  // driven alone: error_o in the cycle the flit is presented.
  std::optional<MeshShape> mesh;
  Flit arrive;
  {
    Driver d("allport");
    mesh = d.ls().mesh();
    arrive = make_sync(SyncType::Arrive, 9, d.self(), d.node(4, 4), Route::XY, 0);
    for (int channel = 1; channel < 4; ++channel)
      CHECK_THROWS_WITH(d.ls().model().inject(arrive, 0, channel), Catch::Contains("channels 1-3 carry worms only"));
  }
  // One Verilated router of a configuration at a time (two of one class deadlock in
  // Verilator 5.006's scope table when they go).
  auto rtl = make_rtl_router("allport");
  rtl->reset(3, 4);
  RtlInputs in;
  CHECK_FALSE(rtl->eval(in).error);
  for (int channel = 5; channel < 8; ++channel) {
    in = RtlInputs{};
    in.in_valid[channel] = true;
    in.in_vc[channel] = static_cast<std::uint8_t>(arrive.vc());
    in.in_flit[channel] = encode_flit(arrive, *mesh);
    INFO("input " << channel);
    CHECK(rtl->eval(in).error);
    rtl->clock();  // the edge samples the cycle's cover points (scripts/coverage)
  }
}

TEST_CASE("directed: a credit no flit spent is an error on each VC of a router with eight unicast VCs",
          "[directed][error][vcs]") {
  // Configuration vcs8: VCs 0-11 in 4-bit VC numbers; each VC's counter refuses a credit
  // back out of reset (every credit is held then), in the cycle it arrives.
  auto rtl = make_rtl_router("vcs8");
  for (int v = 0; v < rtl->params().vcs(); ++v) {
    INFO("VC " << v);
    rtl->reset(3, 4);
    CHECK_FALSE(rtl->eval(RtlInputs{}).error);
    RtlInputs in;
    in.credit_in[kMinusX][static_cast<std::size_t>(v)] = true;
    CHECK(rtl->eval(in).error);
    rtl->clock();
  }
}

TEST_CASE("directed: each link protocol violation raises error_o in its cycle (the RTL alone)",
          "[directed][error]") {
  // The lockstep's stimulus keeps the link protocol (a flit's VC follows from its fields,
  // a flit needs a credit), so these inputs reach the RTL alone: a broken neighbour's.
  const MeshShape mesh{8, 8};
  const NodeId west = mesh.id(Coord{0, 4});
  auto rtl = make_rtl_router("default");
  rtl->reset(3, 4);
  const auto present = [&](const RtlInputs& in) {
    const bool error = rtl->eval(in).error;
    rtl->clock();
    return error;
  };
  SECTION("a flit on a VC its kind does not use") {
    RtlInputs in;
    in.in_valid[kPlusX] = true;
    in.in_vc[kPlusX] = 1;  // a worm's head on a sync VC
    in.in_flit[kPlusX] = encode_flit(worm_flit(west, true, true), mesh);
    CHECK(present(in));
  }
  SECTION("a credit the output never spent") {
    RtlInputs in;
    in.credit_in[kMinusX][0] = true;  // out of reset every credit is held
    CHECK(present(in));
  }

  SECTION("a flit into a full input buffer") {
    // A worm west, a flit a cycle, whose credits never come back: at most BufferDepth
    // flits leave (the head only after its routing delay), BufferDepth fill the +X
    // input's VC 0, and the next one has no room.
    const int depth = static_cast<int>(rtl->params().router.buffer_depth);
    int flits = 0;
    bool error = false;
    while (!error && flits < 4 * depth) {
      RtlInputs in;
      in.in_valid[kPlusX] = true;
      in.in_vc[kPlusX] = 0;
      in.in_flit[kPlusX] = encode_flit(worm_flit(west, flits == 0, false, static_cast<std::uint32_t>(flits)), mesh);
      error = present(in);
      ++flits;
    }
    CHECK(error);
    CHECK(flits > depth);
    CHECK(flits <= 2 * depth + 1);
  }
}

// Register gid 5 with one child east, whose release batch the emitter holds: the +X
// VC 1 credits are used up by messages passing through (credits returned by hand), and
// the root's release is injected.
namespace {
void hold_release_east(Driver& d) {
  BarrierRegisterSetup s;
  s.gid = 5;
  s.children = {{d.node(4, 4), Route::XY}};
  REQUIRE(d.program(s));
  for (int k = 0; k < static_cast<int>(d.ls().depth(1)); ++k) {
    Stimulus p;
    p.in[kMinusX] = make_sync(SyncType::Release, 200, d.node(2, 4), d.node(7, 4), Route::XY, 0);
    d.cycle(p);
  }
  Stimulus r;
  r.in[kLocal] = make_sync(SyncType::Release, 5, d.self(), d.self(), Route::XY, 0);
  d.cycle(r);
}
}  // namespace

// Within the protocol a register's next batch comes after its previous one has left
// (the local release leaves last, and the next epoch needs the local process).
TEST_CASE("directed: a batch while the register's previous one is still sent is a protocol error",
          "[directed][error]") {
  Driver d("default");
  d.manual_credits();
  // One child east; the +X VC 1 credits used up, so its release waits.
  hold_release_east(d);
  for (int k = 0; k < 40; ++k) {
    const RtlOutputs& o = d.cycle();
    CHECK_FALSE(o.out_valid[kLocal]);  // the local release waits for the child's
    CHECK_FALSE(o.error);
  }
  // The next epoch's arrivals complete a reduction while the release batch is still sent.
  Stimulus a;
  a.in[kPlusX] = make_sync(SyncType::Arrive, 5, d.node(4, 4), d.self(), Route::XY, 0);
  a.in[kLocal] = make_sync(SyncType::Arrive, 5, d.self(), d.self(), Route::XY, kLocalSlot);
  d.cycle(a);
  CHECK(d.error_within(10));
}

TEST_CASE("directed: cancelled batches stay in the emitter's FIFO, a batch into a full FIFO is a protocol error",
          "[directed][error][emitter]") {
  Driver d("default");
  d.manual_credits();
  // Register 0: one child east, +X VC 1 credits used up: its release batch stays in the
  // emitter, which takes nothing else meanwhile.
  hold_release_east(d);
  for (int k = 0; k < 5; ++k) CHECK_FALSE(d.cycle().error);
  // Register 1, a root without children: each arrival queues a reduction batch behind
  // the held one, and each rewrite of the register cancels it; the cancelled entries
  // stay queued. Four entries (NumRegs) fill the FIFO.
  const auto arrive = [&] {
    Stimulus a;
    a.in[kMinusX] = make_sync(SyncType::Arrive, 21, d.node(2, 4), d.self(), Route::XY, kLocalSlot);
    d.cycle(a);
    for (int k = 0; k < 3; ++k) CHECK_FALSE(d.cycle().error);
  };
  for (int k = 0; k < 4; ++k) {
    REQUIRE(d.program(leaf(21)));
    arrive();
  }
  CHECK_FALSE(d.cycle().idle);
  // One more: the model throws and error_o rises in the same cycle (the lockstep).
  REQUIRE(d.program(leaf(21)));
  Stimulus a;
  a.in[kMinusX] = make_sync(SyncType::Arrive, 21, d.node(2, 4), d.self(), Route::XY, kLocalSlot);
  d.cycle(a);
  bool fired = false;
  std::string why;
  for (int k = 0; k < 10 && !fired; ++k) {
    why = d.ls().step_model().error_text;
    REQUIRE(d.ls().apply(Stimulus{}));
    fired = d.ls().rtl_outputs().error;
  }
  CHECK(fired);
  CHECK_THAT(why, Catch::Contains("emitter's queue was full"));
}

TEST_CASE("directed: the emitter sends one register's batch at a time, in creation order",
          "[directed][emitter]") {
  // Registers 0 and 1: roots without children, so each arrival completes a reduction
  // whose message goes to the local NI. Both arrive in the same cycle: the unit takes
  // them in consecutive cycles in round-robin input order (+X first: gid 20, register 1),
  // both are due at a + trm - 1, and the emitter sends them in creation order, register
  // 1's then register 0's (not lowest index first).
  Driver d("default");
  REQUIRE(d.program(leaf(21)));
  REQUIRE(d.program(leaf(20)));
  REQUIRE(d.ls().model().registers().lookup(21) == 0);
  Stimulus a;
  a.in[kPlusX] = make_sync(SyncType::Arrive, 20, d.node(4, 4), d.self(), Route::XY, kLocalSlot);
  a.in[kMinusX] = make_sync(SyncType::Arrive, 21, d.node(2, 4), d.self(), Route::XY, kLocalSlot);
  d.cycle(a);
  const std::uint64_t arrival = d.now();
  std::vector<std::pair<std::uint64_t, int>> local;
  for (int k = 0; k < static_cast<int>(d.trm()) + 10; ++k) {
    const std::uint64_t c = d.now();
    const RtlOutputs& o = d.cycle();
    if (o.out_valid[kLocal]) local.emplace_back(c, gid_of(o.out_flit[kLocal]));
  }
  REQUIRE(local.size() == 2);
  CHECK(local[0] == std::make_pair(arrival + d.trm() - 1, 20));
  // The second batch is taken once the first has left (free from the next cycle), staged
  // in that cycle and sent in the one after.
  CHECK(local[1] == std::make_pair(arrival + d.trm() + 1, 21));
}

TEST_CASE("directed: a message whose register was freed since its arrival goes on to the NI",
          "[directed][cam]") {
  // Three messages for the barrier unit arrive in one cycle; it takes one per cycle, and
  // software frees gid 21 before the unit reaches its message: that one is not taken but
  // leaves for the NI when ready, as a message for a group without register would.
  Driver d("default");
  BarrierRegisterSetup s;
  s.gid = 20;
  s.children = {{d.node(4, 4), Route::XY}};
  REQUIRE(d.program(s));
  REQUIRE(d.program(leaf(21)));
  Stimulus a;
  a.in[kLocal] = make_sync(SyncType::Arrive, 20, d.self(), d.self(), Route::XY, kLocalSlot);
  a.in[kPlusX] = make_sync(SyncType::Arrive, 20, d.node(4, 4), d.self(), Route::XY, 0);
  a.in[kMinusX] = make_sync(SyncType::Arrive, 21, d.node(2, 4), d.self(), Route::XY, kLocalSlot);
  d.cycle(a);
  const std::uint64_t arrival = d.now();
  REQUIRE(d.free(21));
  std::map<int, std::uint64_t> at;  // gid -> cycle it reached the NI
  for (int k = 0; k < static_cast<int>(d.trm()) + 10; ++k) {
    const std::uint64_t c = d.now();
    const RtlOutputs& o = d.cycle();
    CHECK_FALSE(o.error);
    if (!o.out_valid[kLocal]) continue;
    CHECK(type_of(o.out_flit[kLocal]) == 0);
    at[gid_of(o.out_flit[kLocal])] = c;
  }
  REQUIRE(at.size() == 2);
  // Both are due at a + trm - 1 and compete for the Local output: one waits a cycle.
  CHECK(std::min(at[20], at[21]) == arrival + d.trm() - 1);
  CHECK(std::max(at[20], at[21]) == arrival + d.trm());
}

TEST_CASE("directed: a software write cancels what is left of its register's batch", "[directed][emitter]") {
  Driver d("default");
  d.manual_credits();
  BarrierRegisterSetup s;
  s.gid = 9;
  s.children = {{d.node(4, 4), Route::XY}, {d.node(3, 5), Route::YX}};
  REQUIRE(d.program(s));
  // +X VC 1 has no credit: the first child's release waits.
  for (int k = 0; k < static_cast<int>(d.ls().depth(1)); ++k) {
    Stimulus p;
    p.in[kMinusX] = make_sync(SyncType::Arrive, 201, d.node(2, 4), d.node(7, 4), Route::XY, 0);
    d.cycle(p);
  }
  Stimulus r;
  r.in[kLocal] = make_sync(SyncType::Release, 9, d.self(), d.self(), Route::XY, 0);
  d.cycle(r);
  int north = 0;
  for (int k = 0; k < 40; ++k) {
    const RtlOutputs& o = d.cycle();
    if (o.out_valid[kPlusY]) ++north;  // the second child's release goes
    CHECK_FALSE(o.out_valid[kLocal]);  // the local release waits for the first child's
  }
  CHECK(north == 1);
  CHECK_FALSE(d.cycle().idle);
  // Software frees the group: the rest of the batch is dropped.
  REQUIRE(d.free(9));
  Stimulus c;
  c.credit[kPlusX][1] = true;
  d.cycle(c);
  for (int k = 0; k < 10; ++k) {
    const RtlOutputs& o = d.cycle();
    CHECK_FALSE(o.out_valid[kPlusX]);
    CHECK_FALSE(o.out_valid[kLocal]);
    CHECK(o.idle);
  }
}

TEST_CASE("directed: same-cycle messages reach the barrier unit in round-robin input order", "[directed][btm]") {
  // One child (C+X, slot 0). In one cycle the local process (input 0) and the child
  // (input 1) complete an epoch, and an early arrival of the child for the next epoch on
  // input 2 starts it: the unit takes one per cycle from input 0 on (its pointer after
  // reset); in any other order slot 0 would arrive twice in one epoch.
  Driver d("default");
  BarrierRegisterSetup s;
  s.gid = 3;
  s.children = {{d.node(4, 4), Route::XY}};
  REQUIRE(d.program(s));
  Stimulus a;
  a.in[kLocal] = make_sync(SyncType::Arrive, 3, d.self(), d.self(), Route::XY, kLocalSlot);
  a.in[kPlusX] = make_sync(SyncType::Arrive, 3, d.node(4, 4), d.self(), Route::XY, 0);
  a.in[kMinusX] = make_sync(SyncType::Arrive, 3, d.node(4, 4), d.self(), Route::YX, 0);
  d.cycle(a);
  int ups = 0;
  for (int k = 0; k < 40; ++k) {
    const RtlOutputs& o = d.cycle();
    CHECK_FALSE(o.error);
    if (o.out_valid[kLocal]) ++ups;  // the root's reduction message to its NI
  }
  CHECK(ups == 1);
  CHECK(d.ls().model().registers().at(0).arrived() == 1);
  // The next epoch completes with the local arrival.
  Stimulus b;
  b.in[kLocal] = make_sync(SyncType::Arrive, 3, d.self(), d.self(), Route::XY, kLocalSlot);
  d.cycle(b);
  for (int k = 0; k < 40; ++k)
    if (d.cycle().out_valid[kLocal]) ++ups;
  CHECK(ups == 2);
}

TEST_CASE("directed: programming a member again starts a fresh epoch", "[directed][cam]") {
  Driver d("default");
  BarrierRegisterSetup s;
  s.gid = 8;
  s.children = {{d.node(4, 4), Route::XY}, {d.node(2, 4), Route::XY}};
  REQUIRE(d.program(s));
  Stimulus a;
  a.in[kPlusX] = make_sync(SyncType::Arrive, 8, d.node(4, 4), d.self(), Route::XY, 0);
  d.cycle(a);
  for (int k = 0; k < 40; ++k) d.cycle();
  REQUIRE(d.ls().model().registers().at(0).arrival_flags() == 1u);
  // Reprogrammed (a hit): flags and count clear, so slot 0 may arrive again.
  REQUIRE(d.program(s));
  d.cycle(a);
  Stimulus b;
  b.in[kMinusX] = make_sync(SyncType::Arrive, 8, d.node(2, 4), d.self(), Route::XY, 1);
  b.in[kLocal] = make_sync(SyncType::Arrive, 8, d.self(), d.self(), Route::XY, kLocalSlot);
  d.cycle(b);
  int ups = 0;
  for (int k = 0; k < 40; ++k) {
    const RtlOutputs& o = d.cycle();
    CHECK_FALSE(o.error);
    if (o.out_valid[kLocal]) ++ups;
  }
  CHECK(ups == 1);
}

TEST_CASE("directed: idle_o: nothing buffered, no batch pending or being sent", "[directed][idle]") {
  Driver d("default");
  d.manual_credits();  // credits come back only when the test returns them
  const Coord me = d.ls().where();  // (3,4)
  CHECK(d.cycle().idle);            // after reset

  // A 3-flit worm in on +X, out on -X: idle_o falls in the head's arrival cycle and rises
  // in the cycle after the tail left (idle_o shows the state at the start of the cycle).
  const NodeId west = d.node(0, me.y);
  Stimulus w;
  w.in[kPlusX] = worm_flit(west, true, false);
  CHECK(d.cycle(w).idle);  // presented now, in the buffer from the next cycle
  const std::uint64_t a = d.now();
  w.in[kPlusX] = worm_flit(west, false, false, 1);
  CHECK_FALSE(d.cycle(w).idle);
  w.in[kPlusX] = worm_flit(west, false, true, 2);
  CHECK_FALSE(d.cycle(w).idle);
  std::uint64_t tail_left = 0;
  while (d.now() < a + d.trn() + 4) {
    const std::uint64_t c = d.now();
    const RtlOutputs& o = d.cycle();
    CHECK(o.idle == (tail_left != 0));
    if (o.out_valid[kMinusX] && flit_format::kTail.get(o.out_flit[kMinusX])) tail_left = c;
  }
  CHECK(tail_left == a + d.trn() + 1);  // head at a + trn - 1, one flit per cycle

  // Register: parent (3,6) reached YX (output +Y, VC 2), one child (3,5), sent YX too.
  BarrierRegisterSetup s;
  s.gid = 42;
  s.parent = d.node(me.x, me.y + 2);
  s.parent_route = Route::YX;
  s.slot_at_parent = 3;
  s.children = {{d.node(me.x, me.y + 1), Route::YX}};
  REQUIRE(d.program(s));
  CHECK(d.cycle().idle);  // a programmed register holds no message
  // Use up the (+Y, VC 2) credits with messages passing through.
  const int sync_depth = static_cast<int>(d.ls().depth(2));
  for (int k = 0; k < sync_depth; ++k) {
    Stimulus p;
    p.in[kMinusY] = make_sync(SyncType::Arrive, 99, d.node(me.x, 0), d.node(me.x, 7), Route::YX, 0);
    d.cycle(p);
  }
  int passed = 0;
  for (int k = 0; k < 20; ++k) {
    const RtlOutputs& o = d.cycle();
    if (o.out_valid[kPlusY]) ++passed;
  }
  REQUIRE(passed == sync_depth);
  CHECK(d.cycle().idle);

  // The child's and the local arrival complete the reduction; its message to the parent
  // has no credit and waits in the emitter with every input buffer empty.
  Stimulus r;
  r.in[kPlusY] = make_sync(SyncType::Arrive, 42, d.node(me.x, me.y + 1), d.self(), Route::YX, 2);
  r.in[kLocal] = make_sync(SyncType::Arrive, 42, d.self(), d.self(), Route::XY, kLocalSlot);
  CHECK(d.cycle(r).idle);
  const std::uint64_t ra = d.now();
  for (int k = 0; k < static_cast<int>(d.trm()) + 20; ++k) {
    const RtlOutputs& o = d.cycle();
    CHECK_FALSE(o.idle);
    CHECK_FALSE(o.out_valid[kPlusY]);
  }
  REQUIRE(d.now() > ra + d.trm());  // the arrivals have left their buffers
  CHECK(d.ls().model().buffered(Port::Local, 1) == 0);
  CHECK(d.ls().model().buffered(Port::PlusY, 2) == 0);
  // One credit back: usable in the next cycle, when the message leaves; idle after that.
  Stimulus c;
  c.credit[kPlusY][2] = true;
  CHECK_FALSE(d.cycle(c).idle);
  {
    const RtlOutputs& o = d.cycle();
    CHECK_FALSE(o.idle);
    REQUIRE(o.out_valid[kPlusY]);
    CHECK(type_of(o.out_flit[kPlusY]) == 0);
  }
  CHECK(d.cycle().idle);

  // The release from the parent: the child's waits for a (+Y, VC 2) credit in the
  // emitter, and the local release waits for the child's.
  Stimulus rel;
  rel.in[kPlusY] = make_sync(SyncType::Release, 42, d.node(me.x, me.y + 2), d.self(), Route::YX, 0);
  CHECK(d.cycle(rel).idle);
  for (int k = 0; k < static_cast<int>(d.trm()) + 20; ++k) {
    const RtlOutputs& o = d.cycle();
    CHECK_FALSE(o.idle);
    CHECK_FALSE(o.out_valid[kPlusY]);
    CHECK_FALSE(o.out_valid[kLocal]);
  }
  d.cycle(c);
  {
    const RtlOutputs& o = d.cycle();
    CHECK_FALSE(o.idle);
    REQUIRE(o.out_valid[kPlusY]);
    CHECK_FALSE(o.out_valid[kLocal]);
    CHECK(type_of(o.out_flit[kPlusY]) == 1);
    CHECK(dest_y(o.out_flit[kPlusY]) == me.y + 1);
  }
  {
    const RtlOutputs& o = d.cycle();
    CHECK_FALSE(o.idle);
    REQUIRE(o.out_valid[kLocal]);
    CHECK(type_of(o.out_flit[kLocal]) == 1);
  }
  for (int k = 0; k < 5; ++k) CHECK(d.cycle().idle);
}
