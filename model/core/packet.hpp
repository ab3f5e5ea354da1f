// Building an ordinary message as a worm, and checking that worms arrive whole: shared by
// the network interfaces and the traffic generator.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "flit.hpp"
#include "geometry.hpp"

namespace meshsync {

// Flit `seq` of an ordinary message of `length` flits (head, bodies, tail); words ride
// in the bodies. A traffic generator builds its packets flit by flit with it: a vector
// per packet showed in the simulator's profile.
Flit worm_flit(std::uint64_t packet, NodeId src, NodeId dest, std::uint16_t length,
               std::uint64_t created, std::uint16_t seq, const std::vector<std::uint32_t>& words = {});
// The whole message.
std::vector<Flit> make_worm(std::uint64_t packet, NodeId src, NodeId dest, std::uint16_t length,
                            std::uint64_t created, const std::vector<std::uint32_t>& words = {});

// A multidestination worm (docs/microarchitecture.md "Multidestination worms"): one
// address flit per destination in delivery order (the first is the head), then `data`
// flits carrying `words`, the last being the tail. `base` must route from `src` through
// every destination in order (the plans of sw/collective/path_multicast.hpp do). The head
// carries `first`, a forced first hop out of the source router (Local: none; MP's plans
// set it, and it must be a minimal step inside `base`'s subnetwork).
std::vector<Flit> make_multicast_worm(std::uint64_t packet, NodeId src,
                                      const std::vector<NodeId>& dests, WormBase base, Port first,
                                      std::uint16_t data, std::uint64_t created,
                                      const std::vector<std::uint32_t>& words = {});

// A tree worm (docs/tree-multicast.md): `length` flits addressed to `member` (the root of
// group `gid`'s tree, which replicates it down the tree), words in the bodies.
std::vector<Flit> make_tree_worm(std::uint64_t packet, NodeId src, NodeId member, std::uint8_t gid,
                                 std::uint16_t length, std::uint64_t created,
                                 const std::vector<std::uint32_t>& words = {});

// Every ordinary flit delivered exactly once, in order, at the right node, with the
// payload it was sent with. A multicast worm's copy at its j-th destination (0-based)
// starts at flit j: the routers before it stripped the addresses they were.
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
    // The payload of flit `first_word + i` is words[i], of every other flit 0 (as
    // make_worm and make_multicast_worm place them). Empty for a traffic generator's
    // packets, which carry no words: no allocation there either.
    std::uint16_t first_word = 1;
    std::vector<std::uint32_t> words;
    // A tree worm: any destination may miss its copy (a router dropped it), so the packet
    // never counts as in flight; a copy that does arrive must be whole and correct.
    bool lossy = false;
    std::uint32_t payload(std::uint16_t seq) const {
      return seq >= first_word && seq - first_word < static_cast<int>(words.size()) ? words[seq - first_word] : 0;
    }
  };
  // Errors then name routers by position instead of node id.
  void set_mesh(const MeshShape& m) { mesh_ = m; }
  void expect(std::uint64_t packet, NodeId src, NodeId dest, std::uint16_t length,
              std::uint64_t created, const std::vector<std::uint32_t>& words = {});
  void expect_multicast(std::uint64_t packet, NodeId src, const std::vector<NodeId>& dests,
                        std::uint16_t length, std::uint64_t created,
                        const std::vector<std::uint32_t>& words = {});
  // A tree worm for the nodes `dests` (each may receive one copy, or none).
  void expect_tree(std::uint64_t packet, NodeId src, const std::vector<NodeId>& dests,
                   std::uint16_t length, std::uint64_t created, const std::vector<std::uint32_t>& words = {});
  // Returns true when this flit completes its packet (at every destination). `cycle`
  // (its delivery) only goes into error messages.
  bool deliver(NodeId node, const Flit& f, std::uint64_t cycle = 0);
  bool knows(std::uint64_t packet) const { return open_.count(packet) != 0; }
  std::size_t in_flight() const { return open_.size() - lossy_open_; }
  std::uint64_t delivered_packets() const { return done_; }
  std::uint64_t delivered_flits() const { return flits_; }
  // Flits due at destinations so far: a multicast copy counts the flits that reach its
  // destination (the worm without the addresses stripped before it); a tree worm's copy
  // counts once it arrives.
  std::uint64_t expected_flits() const { return expected_flits_; }
  const std::vector<std::string>& errors() const { return errors_; }

 private:
  std::string where(NodeId node, const Flit& f) const;
  MeshShape mesh_;
  std::unordered_map<std::uint64_t, Packet> open_;
  std::uint64_t done_ = 0;
  std::uint64_t flits_ = 0;
  std::uint64_t expected_flits_ = 0;
  std::size_t lossy_open_ = 0;
  std::vector<std::string> errors_;
};

}  // namespace meshsync
