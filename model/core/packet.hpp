// Building an ordinary message as a worm, and checking that worms arrive whole: shared by
// the network interfaces and the traffic generator.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "flit.hpp"

namespace meshsync {

// An ordinary message of `length` flits (head, bodies, tail); words ride in the bodies.
std::vector<Flit> make_worm(std::uint64_t packet, NodeId src, NodeId dest, std::uint16_t length,
                            std::uint64_t created, const std::vector<std::uint32_t>& words = {});

// A multidestination worm (docs/microarchitecture.md "Multidestination worms"): one
// address flit per destination in delivery order (the first is the head), then `data`
// flits carrying `words`, the last being the tail. `base` must route from `src` through
// every destination in order (the plans of sw/collective/path_multicast.hpp do).
std::vector<Flit> make_multicast_worm(std::uint64_t packet, NodeId src,
                                      const std::vector<NodeId>& dests, WormBase base,
                                      std::uint16_t data, std::uint64_t created,
                                      const std::vector<std::uint32_t>& words = {});

// Every ordinary flit delivered exactly once, in order, at the right node. A multicast
// worm's copy at its j-th destination (0-based) starts at flit j: the routers before it
// stripped the addresses they were.
class Scoreboard {
 public:
  // Where a packet is due and the flit it expects there next.
  struct Delivery {
    NodeId dest = 0;
    std::uint16_t next_seq = 0;
  };
  struct Packet {
    NodeId src = 0;
    Delivery first;
    // A multicast's further destinations: empty for ordinary messages, which are almost
    // every packet of a traffic run and so cost no allocation here.
    std::vector<Delivery> rest;
    std::uint16_t length = 1;
    std::size_t open = 1;  // destinations still missing their tail
    std::uint64_t created = 0;
  };
  void expect(std::uint64_t packet, NodeId src, NodeId dest, std::uint16_t length,
              std::uint64_t created);
  void expect_multicast(std::uint64_t packet, NodeId src, const std::vector<NodeId>& dests,
                        std::uint16_t length, std::uint64_t created);
  // Returns true when this flit completes its packet (at every destination).
  bool deliver(NodeId node, const Flit& f);
  bool knows(std::uint64_t packet) const { return open_.count(packet) != 0; }
  std::size_t in_flight() const { return open_.size(); }
  std::uint64_t delivered_packets() const { return done_; }
  std::uint64_t delivered_flits() const { return flits_; }
  const std::vector<std::string>& errors() const { return errors_; }

 private:
  std::unordered_map<std::uint64_t, Packet> open_;
  std::uint64_t done_ = 0;
  std::uint64_t flits_ = 0;
  std::vector<std::string> errors_;
};

}  // namespace meshsync
