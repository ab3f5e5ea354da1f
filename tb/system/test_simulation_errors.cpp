// A simulation that cannot finish must say so: a deadlock inside the network and
// software left blocked both end Machine::run with a SimulationError.
#include <catch2/catch.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <cstring>
#include <functional>
#include <memory>


#include "model/core/packet.hpp"
#include "support/sim_helpers.hpp"

using namespace meshsync;
using namespace meshsync::test;

namespace {

struct Outcome {
  bool threw = false;       // Machine::run threw SimulationError
  bool other = false;       // it threw something else, or nothing could be learnt
  std::string message;      // what() of the SimulationError
};

// Builds a machine with `cfg`, lets `setup` spawn its threads, runs it, and reports how
// the run ended. It runs in a child process: a run that ends with blocked SystemC
// threads throws across coroutine stacks, and AddressSanitizer then reports false
// stack errors in whatever the caller does next (it cannot follow the stack switches of
// libsystemc's QuickThreads). The child only writes the result to a pipe and exits.
Outcome run_isolated(const NetworkConfig& cfg, const std::function<void(Machine&)>& setup) {
  int fds[2];
  REQUIRE(::pipe(fds) == 0);
  const pid_t pid = ::fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    // The child never returns, destroys nothing and touches the stack as little as it
    // can once the run has thrown: it writes what() with write(2) and leaves.
    ::close(fds[0]);
    Machine& m = *new Machine(cfg);
    setup(m);
    try {
      m.run();
    } catch (const SimulationError& e) {
      forget_stale_stack_poison();
      const char* w = e.what();
      std::size_t left = std::strlen(w);
      while (left > 0) {
        const ssize_t n = ::write(fds[1], w, left);
        if (n <= 0) break;
        w += n;
        left -= static_cast<std::size_t>(n);
      }
      ::_exit(2);
    } catch (...) {
      forget_stale_stack_poison();
      ::_exit(3);
    }
    forget_stale_stack_poison();
    ::_exit(1);
  }
  ::close(fds[1]);
  std::string text;
  char buf[4096];
  for (;;) {
    const ssize_t r = ::read(fds[0], buf, sizeof buf);
    if (r <= 0) break;
    text.append(buf, static_cast<std::size_t>(r));
  }
  ::close(fds[0]);
  int status = 0;
  ::waitpid(pid, &status, 0);
  Outcome o;
  const int code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  o.threw = code == 2;
  o.other = code != 1 && code != 2;
  o.message = text;
  return o;
}

}  // namespace

TEST_CASE("Machine rejects a deadlock threshold that is too small", "[system][deadlock][config]") {
  NetworkConfig c = make_config({4, 4}, {100, 5, 5, 30});
  c.deadlock_cycles = 2 * (5 + 5 + 30) + 100;
  CHECK_THROWS_AS(Machine(c), ConfigError);
}

TEST_CASE("a network that stops moving ends the run with a deadlock report", "[system][deadlock]") {
  // A worm whose tail never comes (a broken sender) holds the worm channel of every
  // output on its path; a real message behind it can never leave. The receiver of that
  // message waits forever: the run must end with a deadlock error naming the router.
  const MeshShape mesh{4, 1};
  NetworkConfig c = make_config(mesh, {5, 1, 1, 1});
  c.deadlock_cycles = 200;
  const Outcome o = run_isolated(c, [](Machine& m) {
    m.spawn("broken", [&m] {
      const auto worm = make_worm(m.mesh().core().new_packet_id(), 0, 3, 3, m.now());
      m.mesh().inject(0, worm[0], m.now() + 1);
    });
    m.spawn("sender", [&m] {
      wait_cycles(30);
      m.node(1).send(3, {42});
    });
    m.spawn("receiver", [&m] { m.node(3).receive(); });
  });
  INFO(o.message);
  REQUIRE(o.threw);
  CHECK_THAT(o.message, Catch::Contains("deadlock"));
  CHECK_THAT(o.message, Catch::Contains("router (1,0)"));
  // Reported soon after the sender's worm got stuck (cycle 30 + ts + a few hops).
  const auto at = o.message.find("(cycle ");
  REQUIRE(at != std::string::npos);
  CHECK(std::stoull(o.message.substr(at + 7)) < 30 + 5 + 200 + 100);
}

TEST_CASE("software left waiting ends the run with an error naming it", "[system][deadlock]") {
  const Outcome o = run_isolated(make_config({3, 3}, {10, 1, 1, 2}),
                                 [](Machine& m) { m.spawn("lonely", [&m] { m.node(4).receive(); }); });
  INFO(o.message);
  REQUIRE(o.threw);
  CHECK_THAT(o.message, Catch::Contains("node (1,1) waiting in receive"));
}

TEST_CASE("a member that never arrives leaves the others blocked, and the run says so", "[system][deadlock][barrier]") {
  const MeshShape mesh{4, 4};
  GroupTable fresh;  // a new machine's table hands out the same first GID
  const std::uint8_t gid = fresh.create(mesh, {0, 5, 10}, BarrierScheme::BTM).gid;
  const Outcome o = run_isolated(make_config(mesh, {10, 1, 1, 2}), [mesh](Machine& m) {
    auto c = std::make_shared<Communicator>(m.groups().create(mesh, {0, 5, 10}, BarrierScheme::BTM));
    for (NodeId n : {0u, 5u, 10u})
      m.spawn("member_" + std::to_string(n), [&m, c, n] {
        join(m.node(n), *c);
        if (n != 10) barrier(m.node(n), *c);
      });
  });
  INFO(o.message);
  REQUIRE(o.threw);
  CHECK_THAT(o.message, Catch::Contains("2 process(es)"));
  CHECK_THAT(o.message, Catch::Contains("waiting for the release of gid " + std::to_string(gid)));
}

TEST_CASE("several machines run one after the other in one process", "[system]") {
  for (int i = 0; i < 3; ++i) {
    Machine m(make_config({3, 2}, {10, 1, 1, 2}));
    std::uint64_t got = 0;
    m.spawn("a", [&] { m.node(0).send(5, {7}); });
    m.spawn("b", [&] { got = m.node(5).receive().cycle; });
    m.run();
    CHECK(got == 10 + 3 * 1 + 4 * 1 + 1);
  }
}

namespace {

// Members of one BTM group each make their own call, `call(k, node, gid)`: the routers
// must stop the run where the calls disagree, before any result leaves.
Outcome disagreeing_members(const std::function<void(std::size_t, Node&, std::uint8_t)>& call) {
  const MeshShape mesh{4, 4};
  return run_isolated(make_config(mesh, {10, 1, 1, 40}), [mesh, call](Machine& m) {
    auto c = std::make_shared<Communicator>(m.groups().create(mesh, {0, 5, 10, 15}, BarrierScheme::BTM));
    for (std::size_t k = 0; k < 4; ++k)
      m.spawn("member_" + std::to_string(k), [&m, c, k, call] {
        Node& node = m.node(c->members()[k].node);
        join(node, *c);
        call(k, node, c->gid);
      });
  });
}

ReductionDescriptor sum_of(std::uint16_t count, ReduceOp op = ReduceOp::Sum) {
  return ReductionDescriptor{op, ElementType::Int32, true, count};
}

}  // namespace

TEST_CASE("members that disagree on an in-network reduction stop the run in a router", "[system][reduction][errors]") {
  SECTION("another operation") {
    const Outcome o = disagreeing_members([](std::size_t k, Node& n, std::uint8_t gid) {
      n.reduce_in_network(gid, sum_of(2, k == 2 ? ReduceOp::Max : ReduceOp::Sum), {1, 2});
    });
    INFO(o.message);
    REQUIRE(o.threw);
    CHECK_THAT(o.message, Catch::Contains("reduction protocol violation"));
    CHECK_THAT(o.message, Catch::Contains("allreduce sum int32 x2"));
    CHECK_THAT(o.message, Catch::Contains("allreduce max int32 x2"));
  }
  SECTION("another length") {
    const Outcome o = disagreeing_members([](std::size_t k, Node& n, std::uint8_t gid) {
      if (k == 1) n.reduce_in_network(gid, sum_of(3), {1, 2, 3});
      else n.reduce_in_network(gid, sum_of(2), {1, 2});
    });
    INFO(o.message);
    REQUIRE(o.threw);
    CHECK_THAT(o.message, Catch::Contains("every member must make the same call"));
  }
  SECTION("a barrier among reductions") {
    const Outcome o = disagreeing_members([](std::size_t k, Node& n, std::uint8_t gid) {
      if (k == 3) n.barrier(gid);
      else n.reduce_in_network(gid, sum_of(1), {7});
    });
    INFO(o.message);
    REQUIRE(o.threw);
    CHECK_THAT(o.message, Catch::Contains("reduction protocol violation"));
    CHECK_THAT(o.message, Catch::Contains("epoch (every member must make the same call)"));
  }
}
