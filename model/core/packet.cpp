#include "packet.hpp"

#include <cstdio>

namespace meshsync {

namespace {

std::string hex(std::uint32_t v) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%08x", v);
  return buf;
}

std::string fmt_hex(const std::string& before, std::uint32_t got, std::uint32_t sent) {
  return before + hex(got) + " where " + hex(sent) + " was sent (bits " + hex(got ^ sent) + " flipped)";
}

}  // namespace

Flit worm_flit(std::uint64_t packet, NodeId src, NodeId dest, std::uint16_t length,
               std::uint64_t created, std::uint16_t seq, const std::vector<std::uint32_t>& words) {
  Flit f;
  f.packet = packet;
  f.created = created;
  f.src = src;
  f.dest = dest;
  f.seq = seq;
  f.length = length;
  f.head = seq == 0;
  f.tail = seq + 1 == length;
  f.route = Route::XY;  // ordinary worms are XY only (docs/deadlock.md)
  if (seq > 0 && seq - 1u < words.size()) f.payload = words[seq - 1u];
  return f;
}

std::vector<Flit> make_worm(std::uint64_t packet, NodeId src, NodeId dest, std::uint16_t length,
                            std::uint64_t created, const std::vector<std::uint32_t>& words) {
  std::vector<Flit> w;
  w.reserve(length);
  for (std::uint16_t i = 0; i < length; ++i) w.push_back(worm_flit(packet, src, dest, length, created, i, words));
  return w;
}

std::vector<Flit> make_multicast_worm(std::uint64_t packet, NodeId src,
                                      const std::vector<NodeId>& dests, WormBase base, Port first,
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
      if (i == 0) f.first = first;
    } else if (static_cast<std::size_t>(i - k) < words.size()) {
      f.payload = words[static_cast<std::size_t>(i - k)];
    }
  }
  return w;
}

std::vector<Flit> make_tree_worm(std::uint64_t packet, NodeId src, NodeId member, std::uint8_t gid,
                                 std::uint16_t length, std::uint64_t created,
                                 const std::vector<std::uint32_t>& words) {
  std::vector<Flit> w = make_worm(packet, src, member, length, created, words);
  for (Flit& f : w) {
    f.tree = true;
    f.gid = gid;
  }
  return w;
}

void Scoreboard::expect(std::uint64_t packet, NodeId src, NodeId dest, std::uint16_t length,
                        std::uint64_t created, const std::vector<std::uint32_t>& words) {
  open_[packet] = Packet{src, {dest, 0}, {}, length, 1, created, 1, words};
  expected_flits_ += length;
}

void Scoreboard::expect_multicast(std::uint64_t packet, NodeId src,
                                  const std::vector<NodeId>& dests, std::uint16_t length,
                                  std::uint64_t created, const std::vector<std::uint32_t>& words) {
  const auto k = static_cast<std::uint16_t>(dests.size());
  Packet p{src, {dests.at(0), 0}, {}, length, dests.size(), created, k, words};
  for (std::uint16_t j = 1; j < k; ++j) p.rest.push_back({dests[j], j});
  for (std::uint16_t j = 0; j < k; ++j) expected_flits_ += length - j;
  open_[packet] = std::move(p);
}

void Scoreboard::expect_tree(std::uint64_t packet, NodeId src, const std::vector<NodeId>& dests,
                             std::uint16_t length, std::uint64_t created, const std::vector<std::uint32_t>& words) {
  Packet p{src, {dests.at(0), 0}, {}, length, dests.size(), created, 1, words};
  for (std::size_t j = 1; j < dests.size(); ++j) p.rest.push_back({dests[j], 0});
  p.lossy = true;
  if (open_.insert_or_assign(packet, std::move(p)).second) ++lossy_open_;
}

std::string Scoreboard::where(NodeId node, const Flit& f) const {
  const std::string vc = " (local port, VC " + std::to_string(f.vc()) + ")";
  if (mesh_.nodes() == 0) return "node " + std::to_string(node) + vc;
  const Coord c = mesh_.coord(node);
  return "router (" + std::to_string(c.x) + "," + std::to_string(c.y) + ")" + vc;
}

bool Scoreboard::deliver(NodeId node, const Flit& f, std::uint64_t cycle) {
  auto it = open_.find(f.packet);
  // Messages are built only when there is an error: this runs for every delivered flit.
  const auto error = [&](const std::string& what) {
    errors_.push_back("cycle " + std::to_string(cycle) + ": packet " + std::to_string(f.packet) + ": flit " +
                      std::to_string(f.seq) + " " + what);
  };
  if (it == open_.end()) {
    error("delivered at " + where(node, f) + " but not expected (duplicate or unknown)");
    return false;
  }
  Packet& p = it->second;
  Delivery* at = p.first.dest == node ? &p.first : nullptr;
  for (std::size_t j = 0; !at && j < p.rest.size(); ++j)
    if (p.rest[j].dest == node) at = &p.rest[j];
  if (!at) {
    error("delivered at " + where(node, f) + ", not one of its destinations");
    return false;
  }
  std::uint16_t& next = at->next_seq;
  if (next >= p.length) {
    error("delivered twice at " + where(node, f));
    return false;
  }
  if (f.seq != next)
    error("arrived at " + where(node, f) + " when flit " + std::to_string(next) + " was due");
  if (f.payload != p.payload(f.seq))
    error(fmt_hex("arrived at " + where(node, f) + " with payload ", f.payload, p.payload(f.seq)));
  ++next;
  ++flits_;
  if (p.lossy) ++expected_flits_;
  if (next < p.length || --p.open > 0) return false;
  if (p.lossy) --lossy_open_;
  open_.erase(it);
  ++done_;
  return true;
}

}  // namespace meshsync
