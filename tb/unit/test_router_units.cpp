// The router core's units one at a time (model/core/router/, docs/microarchitecture.md
// "Units"): each is exercised through its own interface, without a mesh, the way its RTL
// module would be on a bench.
#include <catch2/catch.hpp>

#include <initializer_list>
#include <vector>

#include "model/core/router/barrier_unit.hpp"
#include "model/core/router/crossbar.hpp"
#include "model/core/router/input_unit.hpp"
#include "model/core/router/output_unit.hpp"
#include "model/core/router/switch_allocator.hpp"
#include "model/core/router/tree_claim.hpp"
#include "model/core/router_core.hpp"

using namespace meshsync;

namespace {

constexpr MeshShape kMesh{4, 4};
const Timing kTiming{1000, 5, 5, 30};

std::vector<Coord> coords() {
  std::vector<Coord> c;
  for (int n = 0; n < kMesh.nodes(); ++n) c.push_back(kMesh.coord(static_cast<NodeId>(n)));
  return c;
}

Flit unicast(NodeId src, NodeId dest, std::uint64_t packet = 1) {
  Flit f;
  f.packet = packet;
  f.src = src;
  f.dest = dest;
  return f;
}

std::array<OutputUnit, kMaxOutputs> outputs(const RouterParams& p) {
  std::array<OutputUnit, kMaxOutputs> o{};
  for (int k = 1; k < kPorts; ++k) o[static_cast<std::size_t>(k)].connect_link(p);
  return o;
}

// The inputs that ask for more than one output.
unsigned several(const std::array<std::uint16_t, kMaxInputs>& wants) {
  unsigned m = 0;
  for (int i = 0; i < kMaxInputs; ++i)
    if (wants[static_cast<std::size_t>(i)] & (wants[static_cast<std::size_t>(i)] - 1)) m |= 1u << i;
  return m;
}

// Records what a unit reports to the router's links.
struct Links : RouterLinks {
  std::vector<int> dropped_outputs;
  void flit_out(NodeId, int, const Flit&, std::uint64_t) override {}
  void credit_out(NodeId, int, int, std::uint64_t) override {}
  void tree_copy_dropped(NodeId, int output, std::uint64_t, std::uint64_t) override {
    dropped_outputs.push_back(output);
  }
};

// One router's surroundings at (1,1): its place, parameters, register file and outputs,
// and a fresh input unit, as a module's bench would give them.
struct RouterBench {
  explicit RouterBench(std::uint32_t registers = 4) : cam(registers), out(outputs(p)), tree(p.tree_buffer_depth) {
    in.set_capacities(p, Timing{}.trn);  // the model's t_rn
  }
  std::vector<Coord> where = coords();
  NodeId here = kMesh.id({1, 1});
  RouteUnit route{here, {1, 1}, kMesh, where.data(), false};
  RouterParams p;
  BarrierRegisterFile cam;
  ArrivalContext ctx{route, kTiming, cam};
  std::array<OutputUnit, kMaxOutputs> out;
  TreeClaim tree;
  InputUnit in;
};

}  // namespace

TEST_CASE("output unit: credits only on links, worm VCs held from head to tail", "[units]") {
  RouterParams p;
  auto o = outputs(p);
  OutputUnit& east = o[static_cast<std::size_t>(index(Port::PlusX))];
  OutputUnit& local = o[static_cast<std::size_t>(index(Port::Local))];
  CHECK(east.credits(kWormVc) == p.buffer_depth);
  CHECK(east.credits(1) == p.sync_buffer_depth);
  CHECK(east.credits(kTreeVc) == p.tree_buffer_depth);
  for (std::uint32_t k = 0; k < p.sync_buffer_depth; ++k) east.take_credit(1);
  CHECK_FALSE(east.has_credit(1));
  east.return_credit(1);
  CHECK(east.has_credit(1));
  local.take_credit(kWormVc);  // the NI always takes
  CHECK(local.has_credit(kWormVc));

  CHECK(east.may_use(kWormVc, true, 2));
  east.pass(kWormVc, false, 2);  // a head of input 2
  CHECK(east.owner(kWormVc) == 2);
  CHECK_FALSE(east.may_use(kWormVc, true, 3));   // another head waits
  CHECK_FALSE(east.may_use(kWormVc, false, 3));  // and so does another worm's body
  CHECK(east.may_use(kWormVc, false, 2));
  CHECK(east.may_use(1, true, 3));               // sync VCs hold nothing
  CHECK(east.may_use(kSnakeVc, true, 3));        // each worm VC on its own
  east.pass(kWormVc, true, 2);                   // the tail frees it
  CHECK(east.owner(kWormVc) == -1);
}

TEST_CASE("switch allocator: round robin from the one after the last winner", "[units]") {
  SwitchAllocator sw;
  std::array<std::uint16_t, kMaxOutputs> req{};
  std::array<std::uint16_t, kMaxInputs> wants{};
  const int east = index(Port::PlusX);
  // Inputs 1, 3 and the emitter (5) want +X every cycle.
  req[east] = (1u << 1) | (1u << 3) | (1u << 5);
  wants[1] = wants[3] = static_cast<std::uint16_t>(1u << east);
  std::vector<int> order;
  for (int c = 0; c < 6; ++c) {
    std::array<std::int8_t, kMaxOutputs> grant{};
    REQUIRE(sw.allocate(req, 1u << east, wants, several(wants), kPorts, grant) == 1u << east);
    order.push_back(grant[east]);
  }
  CHECK(order == std::vector<int>{1, 3, 5, 1, 3, 5});
}

namespace {
// Inputs asking a switch allocator for outputs, cycle after cycle.
struct AllocatorBench {
  SwitchAllocator sw;
  std::array<std::uint16_t, kMaxOutputs> req{};
  std::array<std::uint16_t, kMaxInputs> wants{};
  unsigned asking = 0;
  std::array<std::int8_t, kMaxOutputs> grant{};
  void ask(int input, std::initializer_list<Port> ports) {
    for (Port p : ports) {
      wants[static_cast<std::size_t>(input)] = static_cast<std::uint16_t>(wants[static_cast<std::size_t>(input)] | (1u << index(p)));
      req[static_cast<std::size_t>(index(p))] = static_cast<std::uint16_t>(req[static_cast<std::size_t>(index(p))] | (1u << input));
      asking |= 1u << index(p);
    }
  }
  unsigned cycle() { return sw.allocate(req, asking, wants, several(wants), kPorts, grant); }
};
}  // namespace

TEST_CASE("switch allocator: links first, an absorbing flit leaves only with both outputs", "[units]") {
  const int local = index(Port::Local), east = index(Port::PlusX);
  AllocatorBench a;
  // Input 2 is absorbed and forwarded (Local and +X); input 1 wants +X alone and wins it
  // first (pointer 0); input 3 wants Local alone.
  a.ask(2, {Port::Local, Port::PlusX});
  a.ask(1, {Port::PlusX});
  a.ask(3, {Port::Local});
  // Input 2 lost its link, so it does not compete for Local: input 3 gets it.
  CHECK(a.cycle() == ((1u << local) | (1u << east)));
  CHECK(a.grant[east] == 1);
  CHECK(a.grant[local] == 3);
  // Next cycle input 2 wins +X (pointer past 1) and Local (pointer past 3, wrapping): both.
  CHECK(a.cycle() == ((1u << local) | (1u << east)));
  CHECK(a.grant[east] == 2);
  CHECK(a.grant[local] == 2);
}

TEST_CASE("switch allocator: a link won alone stays idle and keeps its pointer", "[units]") {
  const int local = index(Port::Local), east = index(Port::PlusX);
  AllocatorBench a;
  a.ask(2, {Port::Local, Port::PlusX});
  a.ask(0, {Port::Local});
  // Local's pointer is 0: input 0 wins it, so input 2 has +X alone and sends nothing.
  CHECK(a.cycle() == 1u << local);
  CHECK(a.grant[local] == 0);
  // +X kept its pointer, Local moved past 0: input 2 now has both.
  CHECK(a.cycle() == ((1u << local) | (1u << east)));
  CHECK(a.grant[east] == 2);
  CHECK(a.grant[local] == 2);
}

TEST_CASE("input unit: route and router delay as a flit arrives, ready only then", "[units]") {
  RouterBench b(4);
  auto& [where, here, route, p, cam, ctx, out, tree, in] = b;

  // A worm for (3,2) arriving on -X in cycle 100: XY routing sends it on +X, ready at
  // 100 + t_rn - 1.
  const int west_in = index(Port::MinusX);
  CHECK(in.accept(unicast(0, kMesh.id({3, 2})), 100, west_in, ctx) == 100 + kTiming.trn - 1);
  CHECK(in.request(103, west_in, out, tree).vc == -1);
  const InputRequest r = in.request(104, west_in, out, tree);
  CHECK(r.vc == kWormVc);
  CHECK(r.outputs == 1u << index(Port::PlusX));
  CHECK_FALSE(r.barrier);

  // No credit on +X: no request.
  for (std::uint32_t k = 0; k < p.buffer_depth; ++k) out[index(Port::PlusX)].take_credit(kWormVc);
  CHECK(in.request(104, west_in, out, tree).vc == -1);
}

TEST_CASE("input unit: a sync message's CAM lookup in its arrival cycle decides where it goes", "[units]") {
  RouterBench b(4);
  auto& [where, here, route, p, cam, ctx, out, tree, in] = b;

  const Flit arrive = make_sync(SyncType::Arrive, 7, kMesh.id({2, 1}), here, Route::XY, 1);
  const int east_in = index(Port::PlusX);
  SECTION("no register for the group: on to the NI, after t_rm") {
    InputUnit in;
    in.set_capacities(p, Timing{}.trn);  // the model's t_rn
    CHECK(in.accept(arrive, 50, east_in, ctx) == 50);  // looked up in cycle 50
    CHECK(in.awaits_lookup());
    in.classify_arrivals(50, east_in, ctx);
    CHECK_FALSE(in.awaits_lookup());
    CHECK(in.front(1).ready == 50 + kTiming.trm - 1);
    CHECK(in.front(1).out == index(Port::Local));
  }
  SECTION("a member register: the barrier unit takes it from its arrival on") {
    BarrierRegisterSetup s;
    s.gid = 7;
    s.parent = here;
    s.children = {{kMesh.id({2, 1}), Route::XY}};
    cam.at(0).program(s);
    InputUnit in;
    in.set_capacities(p, Timing{}.trn);  // the model's t_rn
    in.accept(arrive, 50, east_in, ctx);
    in.classify_arrivals(50, east_in, ctx);
    CHECK(in.front(1).consume);
    const InputRequest r = in.request(50, east_in, out, tree);
    CHECK(r.barrier);
    CHECK(r.vc == 1);
    CHECK(r.outputs == 0);
  }
}

TEST_CASE("input unit: VCs are offered round robin from the one after the last served", "[units]") {
  RouterBench b(0);
  auto& [where, here, route, p, cam, ctx, out, tree, in] = b;
  const int west_in = index(Port::MinusX);
  const NodeId east = kMesh.id({3, 1});
  // Two XY worms' heads on VC 0 (one after the other) and a YX sync message on VC 2.
  Flit w = unicast(0, east, 1);
  w.tail = false;
  in.accept(w, 10, west_in, ctx);
  Flit sync = make_sync(SyncType::Release, 3, 0, east, Route::YX, 0);
  in.accept(sync, 10, west_in, ctx);
  in.classify_arrivals(10, west_in, ctx);
  const std::uint64_t c0 = 10 + kTiming.trn - 1;
  CHECK(in.request(c0, west_in, out, tree).vc == kWormVc);
  in.pop(kWormVc, c0);
  CHECK(in.request(c0 + 1, west_in, out, tree).vc == 2);  // after VC 0: VC 2
}

TEST_CASE("tree claim: one head a cycle, round robin, taken or non-empty outputs lose their copy", "[units]") {
  RouterBench b(4);
  auto& [where, here, route, p, cam, ctx, out, tree, unused] = b;
  BarrierRegisterSetup s;
  s.gid = 9;
  s.parent = here;
  s.children = {{kMesh.id({3, 1}), Route::XY}, {kMesh.id({1, 3}), Route::XY}};  // behind +X and +Y
  cam.at(0).program(s);
  Links links;
  std::vector<InputUnit> in(kPorts);
  for (auto& i : in) i.set_capacities(p, Timing{}.trn);  // the model's t_rn

  Flit head;
  head.tree = true;
  head.tail = false;
  head.gid = 9;
  head.dest = here;
  head.packet = 5;
  // Heads addressed here on -X and -Y in cycle 0; ready after t_rm.
  in[index(Port::MinusX)].accept(head, 0, index(Port::MinusX), ctx);
  head.packet = 6;
  in[index(Port::MinusY)].accept(head, 0, index(Port::MinusY), ctx);
  const unsigned candidates = (1u << index(Port::MinusX)) | (1u << index(Port::MinusY));
  // +Y's tree buffer downstream is not empty: that copy will be dropped.
  out[index(Port::PlusY)].take_credit(kTreeVc);

  tree.claim(kTiming.trm - 2, candidates, in.data(), kPorts, route, cam, out, links);
  CHECK_FALSE(tree.claimed(index(Port::MinusX)));  // not ready yet
  tree.claim(kTiming.trm - 1, candidates, in.data(), kPorts, route, cam, out, links);
  REQUIRE(tree.claimed(index(Port::MinusX)));
  CHECK_FALSE(tree.claimed(index(Port::MinusY)));  // one claim a cycle
  CHECK(tree.outputs(index(Port::MinusX)) == ((1u << index(Port::Local)) | (1u << index(Port::PlusX))));
  CHECK(links.dropped_outputs == std::vector<int>{index(Port::PlusY)});
  CHECK(out[index(Port::PlusX)].owner(kTreeVc) == index(Port::MinusX));
  // The crossbar readdresses the copy to +X to that child; the NI's copy leaves as it came.
  BufferedFlit front;
  front.flit = head;
  front.tree = true;
  const auto leaving = [&](Port o) {
    return Crossbar::from_input(index(o), front, tree.child(index(Port::MinusX), index(o)));
  };
  CHECK(leaving(Port::PlusX).dest == kMesh.id({3, 1}));
  CHECK(leaving(Port::Local).dest == here);

  // The second head claims in the next cycle: Local and +X are held, +Y has no room.
  tree.claim(kTiming.trm, candidates, in.data(), kPorts, route, cam, out, links);
  CHECK(tree.claimed(index(Port::MinusY)));
  CHECK(tree.outputs(index(Port::MinusY)) == 0);  // dropped here
  tree.release(index(Port::MinusX));
  CHECK_FALSE(tree.claimed(index(Port::MinusX)));
}

namespace {
// The emitter's step, wired to the barrier unit as RouterCore wires them.
EmitterOffer offer(Emitter& emitter, BarrierUnit& unit, std::uint64_t c, const RouteUnit& route,
                   const std::array<OutputUnit, kMaxOutputs>& out) {
  const EmitterOffer o = emitter.offer(c, route, unit.registers(), unit.batches(), out, kPorts);
  if (o.loaded >= 0) unit.loaded(o.loaded);
  return o;
}
}  // namespace

TEST_CASE("barrier unit: a completed reduction leaves at its ready cycle, a release batch staged child by child", "[units]") {
  RouterBench bench;
  auto& [where, here, route, p, cam, ctx, out, tree, in] = bench;
  BarrierUnit unit(p);
  Emitter emitter(p.barrier_registers);
  BarrierRegisterSetup s;
  s.gid = 2;
  s.parent = kMesh.id({0, 1});  // the parent is behind -X
  s.children = {{kMesh.id({2, 1}), Route::XY}, {kMesh.id({3, 1}), Route::XY}, {kMesh.id({1, 2}), Route::XY}};
  REQUIRE(unit.program(s) >= 0);
  CHECK(emitter.idle());

  // The local process and the three children arrive; the last completes the reduction.
  const auto arrival = [&](std::uint8_t slot, std::uint64_t ready) {
    BufferedFlit b;
    b.flit = make_sync(SyncType::Arrive, 2, 0, here, Route::XY, slot);
    b.ready = ready;
    b.consume = true;
    return b;
  };
  const std::uint8_t slots[] = {kLocalSlot, 0, 1, 2};
  for (std::uint8_t k = 0; k < 4; ++k) {
    BufferedFlit b = arrival(slots[k], 100 + k);
    CHECK(unit.take(b, 0, 80 + k, route, emitter));
  }
  CHECK_FALSE(emitter.idle());
  CHECK(emitter.next_wake(83, unit.batches()) == 84);  // the emitter takes the batch in the next cycle
  CHECK(offer(emitter, unit, 83, route, out).ports == 0);  // created this cycle: not yet
  CHECK(offer(emitter, unit, 84, route, out).ports == 0);  // taken and staged, not due
  CHECK(emitter.next_wake(84, unit.batches()) == 103);  // due when the completing message is ready
  CHECK(offer(emitter, unit, 102, route, out).ports == 0);
  EmitterOffer o = offer(emitter, unit, 103, route, out);
  CHECK(o.ports == 1u << index(Port::MinusX));
  CHECK(emitter.message(o, index(Port::MinusX)).dest == s.parent);
  emitter.sent(o, o.ports, unit.registers());
  CHECK(emitter.idle());

  // The release, one message staged per cycle from 191: the first +X child waits in its
  // slot for the due cycle 200; the second +X child waits for that slot (staged in 201,
  // sent in 202) and holds up the +Y child behind it (staged 202, sent 203); the local
  // release is staged in 203 and leaves once no child's slot is full (204).
  BufferedFlit rel;
  rel.flit = make_sync(SyncType::Release, 2, *s.parent, here, Route::XY, 0);
  rel.ready = 200;
  CHECK(unit.take(rel, 0, 190, route, emitter));
  std::vector<std::pair<std::uint64_t, int>> sent;  // (cycle, port)
  std::vector<NodeId> dests;
  for (std::uint64_t c = 190; c < 220 && !emitter.idle(); ++c) {
    o = offer(emitter, unit, c, route, out);
    for (unsigned m = o.ports; m; m &= m - 1) {
      sent.emplace_back(c, lowest_bit(m));
      dests.push_back(emitter.message(o, lowest_bit(m)).dest);
    }
    emitter.sent(o, o.ports, unit.registers());
  }
  CHECK(emitter.idle());
  const std::vector<std::pair<std::uint64_t, int>> expected{{200, index(Port::PlusX)},
                                                            {202, index(Port::PlusX)},
                                                            {203, index(Port::PlusY)},
                                                            {204, index(Port::Local)}};
  CHECK(sent == expected);
  CHECK(dests == std::vector<NodeId>{kMesh.id({2, 1}), kMesh.id({3, 1}), kMesh.id({1, 2}), here});
}

TEST_CASE("barrier unit: a register write cancels its batch, a freed group's message goes to the NI", "[units]") {
  RouterBench bench;
  auto& [where, here, route, p, cam, ctx, out, tree, in] = bench;
  BarrierUnit unit(p);
  Emitter emitter(p.barrier_registers);
  BarrierRegisterSetup s;
  s.gid = 4;
  s.parent = kMesh.id({0, 1});
  REQUIRE(unit.program(s) >= 0);
  BufferedFlit b;
  b.flit = make_sync(SyncType::Arrive, 4, here, here, Route::XY, kLocalSlot);
  b.ready = 10;
  b.consume = true;
  CHECK(unit.take(b, 0, 5, route, emitter));
  CHECK_FALSE(emitter.idle());
  const int written = unit.program(s);  // software writes the register again
  REQUIRE(written >= 0);
  emitter.cancel(written);
  // The cancelled batch stays in the FIFO until the emitter discards it, taking nothing.
  CHECK_FALSE(emitter.idle());
  CHECK(offer(emitter, unit, 6, route, out).ports == 0);
  CHECK(emitter.idle());
  CHECK(offer(emitter, unit, 10, route, out).ports == 0);

  REQUIRE(unit.free(4) >= 0);
  CHECK(unit.free(4) < 0);
  CHECK_FALSE(unit.take(b, 0, 11, route, emitter));  // not taken: the input relabels it for the NI

  // Round robin among the inputs offering messages.
  CHECK(unit.pick(0b10110) == 1);
  CHECK(unit.pick(0b10110) == 2);
  CHECK(unit.pick(0b10110) == 4);
  CHECK(unit.pick(0b10110) == 1);
}

namespace {
// A matching allocator's requests: input i may send to any of `ports` (one VC each).
struct MatchBench {
  SwitchAllocator sw;
  std::array<std::uint16_t, kMaxOutputs> req{};
  std::array<std::uint16_t, kMaxInputs> wants{};
  unsigned asking = 0, several_inputs = 0;
  std::array<std::int8_t, kMaxOutputs> grant{};
  explicit MatchBench(SwitchAllocator::Kind kind, int iterations = 1) { sw.set_kind(kind, iterations, kPorts); }
  void ask(int input, std::initializer_list<Port> ports, bool one_flit = false) {
    for (Port p : ports) {
      wants[static_cast<std::size_t>(input)] = static_cast<std::uint16_t>(wants[static_cast<std::size_t>(input)] | (1u << index(p)));
      req[static_cast<std::size_t>(index(p))] = static_cast<std::uint16_t>(req[static_cast<std::size_t>(index(p))] | (1u << input));
      asking |= 1u << index(p);
    }
    if (one_flit) several_inputs |= 1u << input;
  }
  unsigned cycle() { return sw.match(req, asking, wants, several_inputs, kPorts, grant); }
  // Inputs granted an output, each once at most (the emitter excepted).
  int matched_inputs(unsigned granted) const {
    unsigned in = 0;
    for (unsigned m = granted; m; m &= m - 1) {
      const int w = grant[static_cast<std::size_t>(__builtin_ctz(m))];
      if (w < kPorts && !(several_inputs & (1u << w))) {
        CHECK((in & (1u << w)) == 0);
      }
      in |= 1u << w;
    }
    return __builtin_popcount(in);
  }
};
}  // namespace

TEST_CASE("switch allocator: a matching sends an input's other VC to a free output", "[units][allocator]") {
  // Input 1 has flits for +X and +Y (two VCs), input 2 for +X only. The separable
  // allocator lets input 1 offer one of them (its round robin) whatever input 2 does; a
  // matching offers both and gives input 1 the output input 2 does not take.
  const int east = index(Port::PlusX), north = index(Port::PlusY);
  {
    // The wavefront's matching is maximal, not maximum: when input 1's +X cell comes on
    // the first diagonal (priority 0), +Y is left with nobody. From any other priority
    // diagonal it finds both: 11 flits in 6 cycles (6 diagonals: 5 requesters + the
    // emitter beside 5 outputs).
    MatchBench m(SwitchAllocator::kWavefront);
    m.ask(1, {Port::PlusX, Port::PlusY});
    m.ask(2, {Port::PlusX});
    std::vector<int> matched;
    for (int c = 0; c < 6; ++c) {
      const unsigned g = m.cycle();
      matched.push_back(m.matched_inputs(g));
      if (matched.back() == 2) CHECK(m.grant[north] == 1);
    }
    CHECK(matched == std::vector<int>{1, 2, 2, 2, 2, 2});
  }
  {
    // iSLIP neither: when both outputs grant input 1 it accepts +X (its pointer), and +Y
    // has nobody else to grant. Its pointers then alternate the two matchings: 9 flits.
    MatchBench m(SwitchAllocator::kIslip, 2);
    m.ask(1, {Port::PlusX, Port::PlusY});
    m.ask(2, {Port::PlusX});
    std::vector<int> matched;
    for (int c = 0; c < 6; ++c) matched.push_back(__builtin_popcount(m.cycle()));
    CHECK(matched == std::vector<int>{1, 2, 1, 2, 1, 2});
  }
  // Input 3 also wants +Y: +Y's grant to input 1 is declined in the first iteration, and
  // a second iteration gives it to input 3 (what iSLIP's iterations are for).
  for (int iterations : {1, 2}) {
    INFO("iSLIP iterations " << iterations);
    MatchBench m(SwitchAllocator::kIslip, iterations);
    m.ask(1, {Port::PlusX, Port::PlusY});
    m.ask(2, {Port::PlusX});
    m.ask(3, {Port::PlusY});
    const unsigned g = m.cycle();
    CHECK(m.grant[east] == 1);
    CHECK(__builtin_popcount(g) == iterations);
    if (iterations == 2) CHECK(m.grant[north] == 3);
  }
}

TEST_CASE("switch allocator: matchings are fair, and a flit for two outputs gets both or none", "[units][allocator]") {
  const int east = index(Port::PlusX), local = index(Port::Local);
  for (const auto kind : {SwitchAllocator::kIslip, SwitchAllocator::kWavefront}) {
    INFO("allocator " << static_cast<int>(kind));
    // Three inputs and the emitter want +X. iSLIP's grant pointer serves each in turn;
    // the wavefront's rotating priority serves each within one turn of its diagonals (6
    // here: 5 requesters and the emitter), not always evenly.
    MatchBench m(kind);
    for (int i : {1, 2, 3}) m.ask(i, {Port::PlusX});
    m.req[static_cast<std::size_t>(east)] = static_cast<std::uint16_t>(m.req[static_cast<std::size_t>(east)] | (1u << kPorts));
    std::array<int, kMaxInputs + 1> wins{};
    const int cycles = kind == SwitchAllocator::kIslip ? 8 : 6;
    for (int c = 0; c < cycles; ++c) {
      REQUIRE(m.cycle() == 1u << east);
      ++wins[static_cast<std::size_t>(m.grant[static_cast<std::size_t>(east)])];
    }
    for (int w : {1, 2, 3, kPorts}) {
      INFO("requester " << w);
      if (kind == SwitchAllocator::kIslip) CHECK(wins[static_cast<std::size_t>(w)] == 2);
      else CHECK(wins[static_cast<std::size_t>(w)] >= 1);
    }
    // Input 2's flit is absorbed and forwarded (Local and +X), input 1 wants +X, input 3
    // Local: whenever input 2 is granted, it has both; otherwise it has neither.
    MatchBench a(kind, 2);
    a.ask(2, {Port::Local, Port::PlusX}, true);
    a.ask(1, {Port::PlusX});
    a.ask(3, {Port::Local});
    int both = 0;
    for (int c = 0; c < 12; ++c) {
      const unsigned g = a.cycle();
      const bool to2 = (g & (1u << east)) && a.grant[east] == 2;
      const bool local2 = (g & (1u << local)) && a.grant[local] == 2;
      CHECK(to2 == local2);
      both += to2;
    }
    CHECK(both > 0);
  }
}
