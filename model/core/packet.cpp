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

std::vector<Flit> make_multicast_worm(std::uint64_t packet, NodeId src,
                                      const std::vector<NodeId>& dests, WormBase base,
                                      std::uint16_t data, std::uint64_t created,
                                      const std::vector<std::uint32_t>& words) {
  const auto k = static_cast<std::uint16_t>(dests.size());
  std::vector<Flit> w = make_worm(packet, src, dests.back(), static_cast<std::uint16_t>(k + data),
                                  created);
  for (std::uint16_t i = 0; i < w.size(); ++i) {
    Flit& f = w[i];
    f.mcast = true;
    f.base = base;
    f.payload = 0;
    if (i < k) {
      f.addr = true;
      f.more = i + 1u < k;
      f.dest = dests[i];
    } else if (static_cast<std::size_t>(i - k) < words.size()) {
      f.payload = words[static_cast<std::size_t>(i - k)];
    }
  }
  return w;
}

void Scoreboard::expect(std::uint64_t packet, NodeId src, NodeId dest, std::uint16_t length,
                        std::uint64_t created) {
  open_[packet] = Packet{src, {dest, 0}, {}, length, 1, created};
}

void Scoreboard::expect_multicast(std::uint64_t packet, NodeId src,
                                  const std::vector<NodeId>& dests, std::uint16_t length,
                                  std::uint64_t created) {
  Packet p{src, {dests.at(0), 0}, {}, length, dests.size(), created};
  for (std::size_t j = 1; j < dests.size(); ++j)
    p.rest.push_back({dests[j], static_cast<std::uint16_t>(j)});
  open_[packet] = std::move(p);
}

bool Scoreboard::deliver(NodeId node, const Flit& f) {
  auto it = open_.find(f.packet);
  const auto error = [&](const std::string& what) {
    errors_.push_back("packet " + std::to_string(f.packet) + ": " + what);
  };
  if (it == open_.end()) {
    error("flit " + std::to_string(f.seq) + " delivered but not expected (duplicate or unknown)");
    return false;
  }
  Packet& p = it->second;
  Delivery* at = p.first.dest == node ? &p.first : nullptr;
  for (std::size_t j = 0; !at && j < p.rest.size(); ++j)
    if (p.rest[j].dest == node) at = &p.rest[j];
  if (!at) {
    error("delivered at node " + std::to_string(node) + ", not one of its destinations");
    return false;
  }
  std::uint16_t& next = at->next_seq;
  if (next >= p.length) {
    error("flit " + std::to_string(f.seq) + " delivered twice at node " + std::to_string(node));
    return false;
  }
  if (f.seq != next)
    error("flit " + std::to_string(f.seq) + " arrived at node " + std::to_string(node) +
          " when flit " + std::to_string(next) + " was due");
  ++next;
  ++flits_;
  if (next < p.length || --p.open > 0) return false;
  open_.erase(it);
  ++done_;
  return true;
}

}  // namespace meshsync
