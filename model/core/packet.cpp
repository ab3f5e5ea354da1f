#include "packet.hpp"

namespace meshsync {

std::vector<Flit> make_worm(std::uint64_t packet, NodeId src, NodeId dest, std::uint16_t length,
                            std::uint64_t created, const std::vector<std::uint32_t>& words) {
  std::vector<Flit> w(length);
  for (std::uint16_t i = 0; i < length; ++i) {
    Flit& f = w[i];
    f.packet = packet;
    f.created = created;
    f.src = src;
    f.dest = dest;
    f.seq = i;
    f.length = length;
    f.head = i == 0;
    f.tail = i + 1 == length;
    f.route = Route::XY;  // ordinary worms are XY only (docs/deadlock.md)
    if (i > 0 && i - 1u < words.size()) f.payload = words[i - 1u];
  }
  return w;
}

void Scoreboard::expect(std::uint64_t packet, NodeId src, NodeId dest, std::uint16_t length,
                        std::uint64_t created) {
  open_[packet] = Packet{src, dest, length, 0, created};
}

bool Scoreboard::deliver(NodeId node, const Flit& f) {
  auto it = open_.find(f.packet);
  if (it == open_.end()) {
    errors_.push_back("flit " + std::to_string(f.seq) + " of packet " + std::to_string(f.packet) +
                      " delivered but not expected (duplicate or unknown)");
    return false;
  }
  Packet& p = it->second;
  if (node != p.dest)
    errors_.push_back("packet " + std::to_string(f.packet) + " delivered at node " +
                      std::to_string(node) + " instead of " + std::to_string(p.dest));
  if (f.seq != p.next_seq)
    errors_.push_back("packet " + std::to_string(f.packet) + ": flit " + std::to_string(f.seq) +
                      " arrived when flit " + std::to_string(p.next_seq) + " was due");
  ++p.next_seq;
  ++flits_;
  if (p.next_seq < p.length) return false;
  open_.erase(it);
  ++done_;
  return true;
}

}  // namespace meshsync
