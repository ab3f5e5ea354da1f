// The protocol errors a router detects (error_o, docs/microarchitecture.md "Errors"), each
// by a directed stimulus: raised by the model and by the RTL in the same cycle (the
// lockstep), or, where only a broken neighbour could send it, by the RTL alone.
#include <catch2/catch.hpp>

#include <deque>
#include <vector>

#include "directed_driver.hpp"
#include "model/core/packet.hpp"
#include "model/core/reduction_message.hpp"
#include "tb/support/malformed_reduction.hpp"

using namespace meshsync;
using namespace meshsync::rtl;
using namespace meshsync::rtl::directed;

namespace {

// Presents `flits` on input `port`, one a cycle while its VC has room (a neighbour that
// keeps the credit protocol), then idles `settle` cycles; true once error_o rose.
bool send_until_error(Driver& d, int port, const std::vector<Flit>& flits, int settle = 60) {
  std::deque<Flit> q(flits.begin(), flits.end());
  for (int idle = 0, c = 0; idle < settle; ++c) {
    REQUIRE(c < 100000);  // the input never drains: the test's mistake
    Stimulus s;
    if (q.empty()) {
      ++idle;
    } else if (d.ls().buffered(port, q.front().vc()) < d.ls().depth(q.front().vc())) {
      s.in[port] = q.front();
      q.pop_front();
    }
    if (d.cycle(s).error) return true;
  }
  return false;
}

}  // namespace

TEST_CASE("errors: a multidestination worm with no further destination after an absorbing router",
          "[directed][error]") {
  Driver d("default");
  std::vector<Flit> worm = make_multicast_worm(1, d.node(0, 4), {d.self(), d.node(6, 4)}, WormBase::XY, Port::Local, 2, 0);
  REQUIRE(worm.size() == 4);
  REQUIRE(worm[1].addr);
  SECTION("the flit after the absorbed head is data") { worm.erase(worm.begin() + 1); }
  SECTION("the next address is this router again") { worm[1].dest = d.self(); }
  CHECK(send_until_error(d, kMinusX, worm));
  CHECK_THAT(d.violation(), Catch::Contains("no further destination after an absorbing router"));
}

TEST_CASE("errors: more CS paths of one group across a router than its register counts",
          "[directed][error][cs]") {
  // An 8x8 mesh: a register counts 63 paths (6 bits), as many as a group of all 64 nodes
  // lays across one router; the 64th setup without a teardown is a protocol error.
  Driver d("default");
  const std::uint8_t gid = 33;
  const auto path = [&](SyncType t) { return make_sync(t, gid, d.node(0, 4), d.node(7, 4), Route::XY, 0); };
  CHECK_FALSE(send_until_error(d, kMinusX, std::vector<Flit>(63, path(SyncType::Setup))));
  CHECK(d.ls().model().registers().at(d.ls().model().registers().lookup(gid)).path_refs() == 63);
  // A teardown makes room for one more.
  CHECK_FALSE(send_until_error(d, kMinusX, {path(SyncType::Teardown), path(SyncType::Setup)}));
  CHECK(send_until_error(d, kMinusX, {path(SyncType::Setup)}));
  CHECK_THAT(d.violation(), Catch::Contains("a CS path setup beyond the 63 its register counts"));
}

TEST_CASE("errors: every malformed reduction message at one router, in the model's cycle",
          "[directed][error][reduction]") {
  // The register's child east is slot 0 (the co-simulation test sends the shared cases
  // through a mesh).
  Driver d("model");
  const std::uint8_t gid = 9;
  const NodeId child = d.node(4, 4);
  struct Case {
    const char* what;  // the model's words for it
    int port;
    std::vector<Flit> flits;
    bool transit = false;  // the register is on a CS path too
  };
  std::vector<Case> cases;
  for (const test::MalformedReduction& m : test::malformed_reductions(gid, d.self(), child))
    cases.push_back({m.what, m.from_child ? kPlusX : kLocal, m.flits});
  // What a mesh of well-made NIs cannot send, but one router can be sent.
  const ReductionDescriptor two{ReduceOp::Sum, ElementType::Int32, true, 2};
  const auto message = [&](NodeId from, std::uint8_t slot) {
    return test::reduction_message_to(d.self(), gid, SyncType::Arrive, from, slot, two);
  };
  const auto then = [](std::vector<Flit> a, const std::vector<Flit>& b) {
    a.insert(a.end(), b.begin(), b.end());
    return a;
  };
  const Flit barrier_arrival = make_sync(SyncType::Arrive, gid, child, d.self(), Route::XY, 0);
  const Flit local_arrival = make_sync(SyncType::Arrive, gid, d.self(), d.self(), Route::XY, kLocalSlot);
  cases.push_back({"a barrier message arrived in a reduction's epoch", kPlusX, then(message(child, 0), {local_arrival})});
  cases.push_back({"a reduction message arrived in a barrier's epoch", kPlusX,
                   then({barrier_arrival}, message(d.self(), kLocalSlot))});
  cases.push_back({"slot 0 sent two reduction messages in one epoch", kPlusX, then(message(child, 0), message(child, 0))});
  cases.push_back({"a reduction message at a CS path register", kPlusX, message(child, 0), true});
  cases.push_back({"an arrival names no child slot (sync data 7)", kPlusX,
                   {make_sync(SyncType::Arrive, gid, child, d.self(), Route::XY, 7)}});

  const std::size_t k = GENERATE_COPY(range(std::size_t{0}, cases.size()));
  const Case& c = cases[k];
  INFO("case " << k << ": " << c.what);
  BarrierRegisterSetup s;
  s.gid = gid;
  s.children = {{child, Route::XY}};
  s.transit = c.transit;
  REQUIRE(d.program(s));
  CHECK(send_until_error(d, c.port, c.flits));
  CHECK_THAT(d.violation(), Catch::Contains(c.what));
}

TEST_CASE("errors: a reduction message at a router without reduction lanes", "[directed][error][reduction]") {
  Driver d("default");  // ReduceWords 0
  const std::uint8_t gid = 9;
  BarrierRegisterSetup s;
  s.gid = gid;
  s.children = {{d.node(4, 4), Route::XY}};
  REQUIRE(d.program(s));
  const ReductionDescriptor one{ReduceOp::Max, ElementType::Int32, false, 1};
  CHECK(send_until_error(d, kPlusX,
                         make_reduction_message(make_sync(SyncType::Arrive, gid, d.node(4, 4), d.self(), Route::XY, 0),
                                                one, {42})));
  CHECK_THAT(d.violation(), Catch::Contains("a reduction message at a router without reduction lanes"));
}

TEST_CASE("errors: the emitter's ALU refuses what the barrier unit let by after its own error (the RTL alone)",
          "[directed][error][reduction]") {
  // The barrier unit raises error_o at a descriptor naming an operation its type has not
  // (DescriptorError_C), and a model stops there. The RTL goes on: the descriptor is the
  // epoch's, the epoch completes, and the emitter's fold raises error_o again (AluError_C)
  // and sends zeros: a second line behind the unit's check.
  const MeshShape mesh{8, 8};
  auto rtl = make_rtl_router("model");
  rtl->reset(3, 4);
  const NodeId self = mesh.id({3, 4}), child = mesh.id({4, 4});
  const ReductionDescriptor bad{ReduceOp::Xor, ElementType::Float32, true, 1};
  const std::uint8_t gid = 9;
  std::deque<Flit> from_child, from_local;
  for (const Flit& f : make_reduction_message(make_sync(SyncType::Arrive, gid, child, self, Route::XY, 0), bad,
                                              {0x3f800000u}))
    from_child.push_back(f);
  for (const Flit& f : make_reduction_message(make_sync(SyncType::Arrive, gid, self, self, Route::XY, kLocalSlot),
                                              bad, {0x40000000u}))
    from_local.push_back(f);

  BarrierRegisterSetup root;
  root.gid = gid;
  root.children = {{child, Route::XY}};
  RtlInputs program;
  set_program(program, root, mesh, rtl->params().max_children());
  REQUIRE(rtl->eval(program).reg_ok);
  rtl->clock();

  std::vector<std::uint64_t> errors;
  std::vector<std::uint32_t> to_child;  // the release worm east, flit by flit
  std::array<int, kRtlVcs> owed{};
  bool released = false;
  for (std::uint64_t c = 0; c < 200; ++c) {
    RtlInputs in;
    const auto present = [&](std::deque<Flit>& q, int port) {
      if (q.empty()) return;
      in.in_valid[port] = true;
      in.in_vc[port] = static_cast<std::uint8_t>(q.front().vc());
      in.in_flit[port] = encode_flit(q.front(), mesh);
      q.pop_front();
    };
    present(from_child, kPlusX);
    present(from_local, kLocal);
    for (int v = 0; v < kRtlVcs; ++v)
      if (owed[v] > 0) {
        in.credit_in[kPlusX][v] = true;
        --owed[v];
      }
    const RtlOutputs o = rtl->eval(in);
    if (o.error) errors.push_back(c);
    // The root's completion goes to its NI, which starts the distribution.
    if (o.out_valid[kLocal] && !released) {
      released = true;
      from_local.push_back(make_sync(SyncType::Release, gid, self, self, Route::XY, 0));
    }
    if (o.out_valid[kPlusX]) {
      ++owed[o.out_vc[kPlusX]];
      to_child.push_back(o.out_flit[kPlusX]);
    }
    rtl->clock();
  }
  // The two descriptors, then the fold, in three cycles.
  CHECK(errors.size() == 3);
  // The release east carries the allreduce's result: head, descriptor, and two halves of
  // zero (1.0f ^ 2.0f, had the ALU folded it).
  REQUIRE(to_child.size() == 4);
  CHECK(flit_format::kData.get(to_child[2]) == 0);
  CHECK(flit_format::kData.get(to_child[3]) == 0);
}
