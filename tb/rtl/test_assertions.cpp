// The RTL's assertions (Verilator --assert; synthesis never sees them) each catch the bug
// they are written for: every mutant of tb/rtl/CMakeLists.txt is the default router with
// one deliberate bug, and the random lockstep bench must stop on that bug's assertion
// (Verilator prints its label), not merely on an output difference. The correct routers run every lockstep test with the same assertions on, so
// none of them fires there.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <sstream>

#include "lockstep.hpp"
#include "random_bench.hpp"

using namespace meshsync;
using namespace meshsync::rtl;

namespace {

// What the process writes to standard output while `body` runs: Verilator prints a failed
// assertion's label and message there.
template <class Body>
std::string captured_stdout(Body body) {
  std::fflush(stdout);
  char path[] = "/tmp/meshsync-assert-XXXXXX";
  const int fd = mkstemp(path);
  REQUIRE(fd >= 0);
  {
    // Standard output comes back even when `body` throws (a failed REQUIRE).
    struct Redirect {
      int saved;
      explicit Redirect(int to) : saved(dup(1)) { dup2(to, 1); }
      ~Redirect() {
        std::fflush(stdout);
        dup2(saved, 1);
        close(saved);
      }
    } redirect(fd);
    body();
  }
  close(fd);
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  std::remove(path);
  return text.str();
}

// The bench on `mutant` stops on an assertion, and Verilator names `label`
// (meshsync_*.sv) among those that failed.
void expect_assertion(const std::string& mutant, BenchOptions opt, const std::string& label) {
  BenchResult r;
  const std::string printed = captured_stdout([&] { r = run_random_bench(make_rtl_router(mutant), opt); });
  INFO("mutant " << mutant << ": " << r.stats.summary() << "\n" << printed);
  REQUIRE_FALSE(r.ok);
  CHECK(r.mismatch.find("RTL assertion failed") != std::string::npos);
  // The bench stops at the first cycle with a failed assertion: what Verilator printed is
  // that cycle's (a bug may break more than one rule at once).
  CHECK(printed.find("Assertion failed") != std::string::npos);
  CHECK(printed.find(label) != std::string::npos);
  WARN("mutant " << mutant << " caught: " << r.mismatch << ", " << label);
}

// A directed lockstep run on `mutant` at (3, 4): cycle() steps the core and the RTL on
// one stimulus (false: they differ, or an RTL assertion failed); program() writes a
// register in one cycle.
struct DirectedMutant {
  Lockstep ls;
  explicit DirectedMutant(const std::string& mutant) : ls(make_rtl_router(mutant), Coord{3, 4}) {}
  bool cycle(const Stimulus& s = Stimulus{}) {
    ls.step_model();
    return ls.apply(s);
  }
  void program(const BarrierRegisterSetup& setup) {
    Stimulus p;
    p.reg.op = RegOp::Program;
    p.reg.setup = setup;
    REQUIRE(cycle(p));
  }
};

BenchOptions bench(std::uint64_t seed) {
  BenchOptions opt;
  opt.cycles = 50000;
  opt.seed = seed;
  return opt;
}

}  // namespace

TEST_CASE("assertions: a flit popped without leaving breaks flit conservation", "[assertions]") {
  expect_assertion("lost-flit", bench(21), "FlitConserved");
}

TEST_CASE("assertions: a flit sent without a credit", "[assertions]") {
  BenchOptions opt = bench(22);
  opt.load = 0.8;  // keep the outputs short of credits
  expect_assertion("no-credit", opt, "SendWithCredit_A");
}

TEST_CASE("assertions: two CAM entries for one GID", "[assertions]") {
  expect_assertion("duplicate-gid", bench(23), "UniqueGid_A");
}

TEST_CASE("assertions: a batch that outlives its register", "[assertions]") {
  // Software frees a register while its reduction batch, taken and staged by the emitter,
  // waits for its due cycle (the random bench rarely does: the local release leaves
  // last). The model drops the batch; the mutant emitter keeps holding it, and the
  // assertion fires at the free, long before the stale message would leave.
  BarrierRegisterSetup root;
  root.gid = 12;  // no parent, no children: the local arrival completes it
  DirectedMutant t("stale-batch");
  t.program(root);
  Stimulus arrive;
  arrive.in[0] = make_sync(SyncType::Arrive, 12, t.ls.self(), t.ls.self(), Route::XY, kLocalSlot);
  REQUIRE(t.cycle(arrive));
  for (int k = 0; k < 5; ++k) REQUIRE(t.cycle());
  Stimulus free;
  free.reg.op = RegOp::Free;
  free.reg.gid = 12;
  bool ok = true;
  const std::string printed = captured_stdout([&] {
    ok = t.cycle(free);
    for (int k = 0; k < 3 && ok; ++k) ok = t.cycle();  // fires at the next edge
  });
  CHECK_FALSE(ok);
  CHECK(printed.find("BatchOfMember_A") != std::string::npos);
  CHECK(t.ls.mismatch().find("RTL assertion failed") != std::string::npos);
  WARN("mutant stale-batch caught: " << t.ls.mismatch());
}

TEST_CASE("assertions: a pop from an empty input buffer", "[assertions]") {
  expect_assertion("pop-empty", bench(24), "NoPopFromEmpty_A");
}

TEST_CASE("assertions: a grant to a requester that did not ask", "[assertions]") {
  expect_assertion("grant-nonrequester", bench(25), "GrantToRequester_A");
}

TEST_CASE("assertions: a worm's flit on a VC another input holds", "[assertions]") {
  BenchOptions opt = bench(26);
  opt.load = 0.8;  // worms contend for the outputs' VCs
  expect_assertion("owner-ignored", opt, "VcOwnerLeaves_A");
}

TEST_CASE("assertions: an input pops a flit it was not granted", "[assertions]") {
  BenchOptions opt = bench(27);
  opt.load = 0.8;  // requests that lose their output
  expect_assertion("pop-ungranted", opt, "OnePopPerGrant_A");
}

TEST_CASE("assertions: credits counted past the downstream buffer's depth", "[assertions]") {
  // Fires in the first cycle, long before the extra credit could show at an output.
  expect_assertion("credit-reset", bench(28), "CreditsWithinDepth_A");
}

TEST_CASE("assertions: a batch still pending while the emitter sends it", "[assertions]") {
  // A root with one child: its release batch sends the child's release, then the local
  // release a cycle later. The mutant leaves the batch pending when the emitter takes
  // it (in the cycle after its creation), so in the next cycle the register has a batch
  // pending and one held by the emitter; the assertion fires at that edge, before the
  // kept batch would be sent again.
  BarrierRegisterSetup root;
  root.gid = 12;
  DirectedMutant t("batch-kept");
  root.children.push_back(ChildLink{t.ls.mesh().id(Coord{5, 4}), Route::XY});
  t.program(root);
  Stimulus release;
  release.in[0] = make_sync(SyncType::Release, 12, t.ls.self(), t.ls.self(), Route::XY, 0);
  bool ok = t.cycle(release);
  const std::string printed = captured_stdout([&] {
    for (int k = 0; k < 80 && ok; ++k) ok = t.cycle();
  });
  CHECK_FALSE(ok);
  CHECK(printed.find("OneBatch_A") != std::string::npos);
  CHECK(t.ls.mismatch().find("RTL assertion failed") != std::string::npos);
  WARN("mutant batch-kept caught: " << t.ls.mismatch());
}
