// NetworkCore::set_link_delay: a slowed wire adds its extra cycles to every flit crossing
// it (and to the credits returned over it), and to nothing else.
#include <catch2/catch.hpp>

#include "model/core/network_core.hpp"
#include "model/core/packet.hpp"

using namespace meshsync;

namespace {

struct TailSink : NetworkSink {
  std::uint64_t tail = 0;
  void on_eject(NodeId, const Flit& f, std::uint64_t cycle) override {
    if (f.tail) tail = cycle;
  }
};

NetworkConfig config(std::uint32_t depth = 16) {
  NetworkConfig c;
  c.mesh = MeshShape{4, 4};
  c.router.buffer_depth = depth;
  return c;
}

// Tail delivery of one worm from (0,0) to (3,0) injected at cycle 1.
std::uint64_t tail_cycle(NetworkCore& net, std::uint16_t length) {
  TailSink sink;
  net.set_sink(&sink);
  const MeshShape& m = net.mesh();
  for (const Flit& f : make_worm(net.new_packet_id(), m.id({0, 0}), m.id({3, 0}), length, 1)) net.inject(m.id({0, 0}), f, 1);
  net.run_until_idle();
  return sink.tail;
}

}  // namespace

TEST_CASE("link delay: a slowed link on the route adds its extra cycles once", "[link-delay]") {
  NetworkCore plain(config());
  const std::uint64_t base = tail_cycle(plain, 4);
  NetworkCore slow(config());
  slow.set_link_delay(slow.mesh().id({1, 0}), Port::PlusX, 500);
  CHECK(slow.link_delay(slow.mesh().id({1, 0}), Port::PlusX) == 500);
  CHECK(tail_cycle(slow, 4) == base + 500);
  // The opposite direction of that wire and links off the route change nothing.
  NetworkCore other(config());
  other.set_link_delay(other.mesh().id({2, 0}), Port::MinusX, 500);
  other.set_link_delay(other.mesh().id({1, 1}), Port::PlusX, 500);
  CHECK(tail_cycle(other, 4) == base);
}

TEST_CASE("link delay: credits come back late, so a long worm through shallow buffers stalls", "[link-delay]") {
  // 2-flit buffers: the sender at (1,0) waits for the credits of the slowed wire's far
  // end, which come back over (2,0) -X, not slowed: only the flits' delay counts.
  NetworkCore flits_only(config(2));
  flits_only.set_link_delay(flits_only.mesh().id({1, 0}), Port::PlusX, 100);
  NetworkCore both(config(2));
  both.set_link_delay(both.mesh().id({1, 0}), Port::PlusX, 100);
  both.set_link_delay(both.mesh().id({2, 0}), Port::MinusX, 100);
  NetworkCore plain(config(2));
  const std::uint64_t base = tail_cycle(plain, 8);
  const std::uint64_t one_way = tail_cycle(flits_only, 8);
  CHECK(one_way > base + 100);               // the credit loop is longer than the buffer
  CHECK(tail_cycle(both, 8) > one_way);      // slow credits stall it further
}

TEST_CASE("link delay: refused where there is no link or the deadlock threshold is too low", "[link-delay]") {
  NetworkCore net(config());
  CHECK_THROWS_AS(net.set_link_delay(net.mesh().id({3, 0}), Port::PlusX, 10), ConfigError);
  CHECK_THROWS_AS(net.set_link_delay(0, Port::Local, 10), ConfigError);
  CHECK_THROWS_AS(net.set_link_delay(0, Port::PlusX, 60000), ConfigError);  // 2*60000 > 100000
}
