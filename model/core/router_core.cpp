#include "router_core.hpp"

#include <algorithm>
#include <sstream>


namespace meshsync {

RouterCore::RouterCore(NodeId id, Coord where, const NetworkConfig& cfg, const Coord* coords)
    : id_(id),
      coord_(where),
      coords_(coords),
      timing_(cfg.timing),
      max_children_(cfg.router.max_children),
      regs_(cfg.router.barrier_registers),
      outbox_(cfg.router.barrier_registers) {
  for (int p = 0; p < kPorts; ++p) {
    for (int v = 0; v < kVcs; ++v) {
      const std::uint32_t depth =
          v == kWormVc ? cfg.router.buffer_depth : cfg.router.sync_buffer_depth;
      in_[p][v].set_capacity(depth);
      credits_[p][v] = depth;  // the downstream buffer of the same class is empty
    }
    worm_owner_[p] = -1;
  }
  credit_returns_.set_capacity(
      kPorts * (cfg.router.buffer_depth + (kVcs - 1) * cfg.router.sync_buffer_depth));
}

Port RouterCore::route_of(const Flit& f) const {
  return next_port(coord_, coords_[f.dest], f.route);
}

bool RouterCore::program_register(const BarrierRegisterSetup& s) {
  if (s.children.size() > max_children_) return false;
  const int r = regs_.find_or_allocate(s.gid);
  if (r < 0) return false;
  regs_.at(r).program(s);
  return true;
}

bool RouterCore::free_register(std::uint8_t gid) {
  const int r = regs_.lookup(gid);
  if (r < 0 || !regs_.at(r).member()) return false;
  regs_.at(r).unprogram();
  return true;
}

void RouterCore::inject(const Flit& f, std::uint64_t cycle) { source_.push(f, cycle); }

std::uint64_t RouterCore::receive(Port in, const Flit& f, std::uint64_t arrival) {
  Buffered b;
  b.flit = f;
  const int i = index(in);
  if (f.sync && in != Port::Local) {
    // The CAM is looked up in the arrival cycle (docs/microarchitecture.md), and the
    // upstream router calls us earlier, when it sends: registers may still change in
    // between. The owner runs us in `arrival`, where step() classifies the flit.
    b.out = kUnrouted;
    b.ready = arrival;
    unrouted_ = static_cast<std::uint16_t>(unrouted_ | (1u << queue_bit(i, f.vc())));
  } else {
    // Worms need no lookup; the injection channel runs inside step(arrival).
    classify(b, arrival);
  }
  in_[i][f.vc()].push(b);
  nonempty_ = static_cast<std::uint16_t>(nonempty_ | (1u << queue_bit(i, f.vc())));
  return b.ready;
}

void RouterCore::classify(Buffered& b, std::uint64_t arrival) const {
  const Flit& f = b.flit;
  std::uint32_t delay = timing_.trn;
  if (f.sync) {
    const int r = regs_.lookup(f.gid);
    if (f.dest == id_) {
      // Every sync message addressed to this router goes through the CAM (t_rm).
      delay = timing_.trm;
      const bool control = f.stype == SyncType::Setup || f.stype == SyncType::Teardown;
      const bool hardware = r >= 0 && regs_.at(r).member();
      // A miss goes on to the network interface: the group lives in node memory there.
      b.out = (control || hardware) ? kConsume : static_cast<std::int8_t>(index(Port::Local));
    } else {
      if (r >= 0 && regs_.at(r).transit()) delay = timing_.trm;  // a CS path router
      b.out = static_cast<std::int8_t>(index(route_of(f)));
    }
  } else {
    b.out = static_cast<std::int8_t>(index(route_of(f)));
  }
  b.ready = arrival + delay - 1;
}

void RouterCore::classify_arrivals(std::uint64_t c) {
  for (unsigned m = unrouted_; m; m &= m - 1) {
    const int bit = __builtin_ctz(m);
    auto& q = in_[bit / kVcs][bit % kVcs];
    bool left = false;
    for (std::size_t k = 0; k < q.size(); ++k) {
      Buffered& b = q.at(k);
      if (b.out != kUnrouted) continue;
      if (b.ready > c) {
        left = true;  // arrives later
        continue;
      }
      classify(b, b.ready);
    }
    if (!left) unrouted_ = static_cast<std::uint16_t>(unrouted_ & ~(1u << bit));
  }
}

void RouterCore::update_cs_path(const Flit& f) {
  // CS setup/teardown messages program the routers they cross (not their endpoints).
  if (f.stype == SyncType::Setup) {
    const int r = regs_.find_or_allocate(f.gid);
    if (r >= 0) regs_.at(r).open_transit(f.gid);
    // No free register: this router stays out of the CS tree and forwards with t_rn.
  } else if (f.stype == SyncType::Teardown) {
    const int r = regs_.lookup(f.gid);
    if (r >= 0) regs_.at(r).close_transit();
  }
}

void RouterCore::barrier_unit(const Flit& f) {
  if (f.stype == SyncType::Setup || f.stype == SyncType::Teardown) return;  // path end
  const int r = regs_.lookup(f.gid);
  if (r < 0 || !regs_.at(r).member()) {
    // The register was freed while the message was in the buffer: hand it to the NI.
    outbox_[0].push_back({f, static_cast<std::int8_t>(index(Port::Local))});
    ++pending_;
    return;
  }
  BarrierRegister& reg = regs_.at(r);
  auto& box = outbox_[static_cast<std::size_t>(r)];
  if (f.stype == SyncType::Arrive) {
    if (auto up = reg.on_arrive(f.data, id_)) {
      box.push_back({*up, static_cast<std::int8_t>(index(route_of(*up)))});
      ++pending_;
    }
  } else {
    for (const Flit& m : reg.on_release(id_)) {
      box.push_back({m, static_cast<std::int8_t>(index(route_of(m)))});
      ++pending_;
    }
  }
}

void RouterCore::send(int out, const Flit& f, std::uint64_t cycle, RouterLinks& links) {
  if (out != index(Port::Local)) {
    if (f.sync && (f.stype == SyncType::Setup || f.stype == SyncType::Teardown)) update_cs_path(f);
    --credits_[out][f.vc()];
  }
  links.flit_out(id_, out, f, cycle);
}

void RouterCore::pop_input(int i, int v, std::uint64_t c, RouterLinks& links) {
  auto& q = in_[i][v];
  q.pop();
  if (q.empty()) nonempty_ = static_cast<std::uint16_t>(nonempty_ & ~(1u << queue_bit(i, v)));
  in_rr_[i] = static_cast<std::uint8_t>((v + 1) % kVcs);
  if (i != index(Port::Local)) links.credit_out(id_, i, v, c);
}

std::uint32_t RouterCore::credits_at(Port p, int vc, std::uint64_t cycle) const {
  std::uint32_t n = credits_[index(p)][vc];
  for (std::size_t k = 0; k < credit_returns_.size(); ++k) {
    const CreditReturn& cr = credit_returns_.at(k);
    if (cr.cycle > cycle) break;
    if (cr.port == index(p) && cr.vc == vc) ++n;
  }
  return n;
}

namespace {
// The first set bit of `mask` at or after `start`, wrapping around; -1 if none.
int first_from(unsigned mask, int start) {
  const unsigned high = mask & (~0u << start);
  const unsigned pick = high ? high : mask;
  return pick ? __builtin_ctz(pick) : -1;
}
}  // namespace

bool RouterCore::step(std::uint64_t c, RouterLinks& links) {
  while (!credit_returns_.empty() && credit_returns_.front().cycle <= c) {
    const CreditReturn& cr = credit_returns_.front();
    ++credits_[cr.port][cr.vc];
    credit_returns_.pop();
  }
  classify_arrivals(c);
  bool moved = false;
  // The injection channel carries one flit per cycle into the Local input buffer.
  if (!source_.empty() && source_.front_cycle() <= c) {
    const Flit& f = source_.front();
    if (!in_[index(Port::Local)][f.vc()].full()) {
      receive(Port::Local, f, c);
      source_.pop();
      moved = true;
    }
  }

  // Stage 1, input arbitration: each input port offers one VC whose head flit is ready
  // and could move (credit available, worm VC free or already ours), round robin over
  // the VCs starting after the last one served.
  constexpr std::int8_t kNone = -2;
  std::array<std::int8_t, kPorts> want_vc{};
  std::array<std::uint8_t, kPorts> asked{};  // per output: inputs requesting it
  unsigned consume = 0;                       // inputs offering to the barrier unit
  for (int i = 0; i < kPorts; ++i) {
    want_vc[i] = kNone;
    if (((nonempty_ >> queue_bit(i, 0)) & 7u) == 0) continue;
    for (int k = 0; k < kVcs; ++k) {
      const int v = (in_rr_[i] + k) % kVcs;
      const auto& q = in_[i][v];
      if (q.empty()) continue;
      const Buffered& b = q.front();
      if (b.ready > c) continue;
      if (b.out == kConsume) {
        consume |= 1u << i;
      } else {
        if (!has_credit(b.out, v)) continue;
        if (v == kWormVc && worm_owner_[b.out] != (b.flit.head ? -1 : i)) continue;
        asked[b.out] = static_cast<std::uint8_t>(asked[b.out] | (1u << i));
      }
      want_vc[i] = static_cast<std::int8_t>(v);
      break;
    }
  }

  // The barrier unit accepts from every input in the same cycle: it never blocks, which
  // is what keeps sync messages out of any channel dependency (docs/deadlock.md).
  for (int i = 0; consume; ++i) {
    if (!(consume & (1u << i))) continue;
    consume &= ~(1u << i);
    const Flit f = in_[i][want_vc[i]].front().flit;
    pop_input(i, want_vc[i], c, links);
    barrier_unit(f);
    moved = true;
  }

  // Stage 2, output arbitration: round robin over the five inputs, then the barrier
  // registers' held messages, starting after the last winner.
  const int requesters = kPorts + static_cast<int>(outbox_.size());
  for (int o = 0; o < kPorts; ++o) {
    if (asked[o] == 0 && pending_ == 0) continue;
    int winner = -1;
    if (pending_ == 0) {
      winner = first_from(asked[o], out_rr_[o] < kPorts ? out_rr_[o] : 0);
    } else {
      for (int k = 0; k < requesters && winner < 0; ++k) {
        const int r = (out_rr_[o] + k) % requesters;
        if (r < kPorts) {
          if (asked[o] & (1u << r)) winner = r;
        } else {
          const auto& box = outbox_[static_cast<std::size_t>(r - kPorts)];
          for (const Pending& p : box)
            if (p.out == o && has_credit(o, p.flit.vc())) {
              winner = r;
              break;
            }
        }
      }
    }
    if (winner < 0) continue;
    if (winner < kPorts) {
      const int v = want_vc[winner];
      const Flit f = in_[winner][v].front().flit;
      pop_input(winner, v, c, links);
      if (v == kWormVc) worm_owner_[o] = f.tail ? -1 : static_cast<std::int8_t>(winner);
      send(o, f, c, links);
    } else {
      auto& box = outbox_[static_cast<std::size_t>(winner - kPorts)];
      auto it = std::find_if(box.begin(), box.end(), [&](const Pending& p) {
        return p.out == o && has_credit(o, p.flit.vc());
      });
      const Flit f = it->flit;
      box.erase(it);
      --pending_;
      send(o, f, c, links);
    }
    out_rr_[o] = static_cast<std::uint16_t>((winner + 1) % requesters);
    moved = true;
  }
  return moved;
}

std::uint64_t RouterCore::next_wake(std::uint64_t c) const {
  if (pending_ > 0) return c + 1;
  std::uint64_t next = kNever;
  for (unsigned m = nonempty_; m; m &= m - 1) {
    const int bit = __builtin_ctz(m);
    const std::uint64_t r = in_[bit / kVcs][bit % kVcs].front().ready;
    if (r <= c) return c + 1;
    next = std::min(next, r);
  }
  if (!source_.empty()) next = std::min(next, std::max(c + 1, source_.front_cycle()));
  return next;
}

bool RouterCore::idle() const {
  if (pending_ > 0 || !source_.empty()) return false;
  for (const auto& port : in_)
    for (const auto& q : port)
      if (!q.empty()) return false;
  return true;
}

bool RouterCore::holds_sync() const {
  // Bits port*kVcs+vc of nonempty_ for every VC but the worm VC.
  constexpr unsigned kSyncVcs = [] {
    unsigned m = 0;
    for (int i = 0; i < kPorts; ++i)
      for (int v = 0; v < kVcs; ++v)
        if (v != kWormVc) m |= 1u << queue_bit(i, v);
    return m;
  }();
  return (nonempty_ & kSyncVcs) != 0 || pending_ > 0 || source_.holds_sync();
}

void RouterCore::describe_stuck(std::vector<std::string>& out, const MeshShape& mesh) const {
  static const char* vc_name[kVcs] = {"worm", "sync-XY", "sync-YX"};
  const auto where = [&](NodeId n) {
    const Coord k = mesh.coord(n);
    return "(" + std::to_string(k.x) + "," + std::to_string(k.y) + ")";
  };
  const std::string me = "router " + where(id_);
  for (int i = 0; i < kPorts; ++i)
    for (int v = 0; v < kVcs; ++v) {
      const auto& q = in_[i][v];
      if (q.empty()) continue;
      const Buffered& b = q.front();
      std::ostringstream s;
      s << me << " input " << port_name(port_at(i)) << " " << vc_name[v] << ": " << q.size()
        << " flit(s), head " << (b.flit.sync ? "sync" : "packet " + std::to_string(b.flit.packet))
        << " to " << where(b.flit.dest);
      if (b.out == kUnrouted) {
        s << " arriving in cycle " << b.ready;
      } else if (b.out == kConsume) {
        s << " for the barrier unit";
      } else {
        s << " waiting for output " << port_name(port_at(b.out)) << " (credits "
          << credits_[b.out][v];
        if (v == kWormVc && worm_owner_[b.out] >= 0)
          s << ", worm VC held by input " << port_name(port_at(worm_owner_[b.out]));
        s << ")";
      }
      out.push_back(s.str());
    }
  if (pending_ > 0) out.push_back(me + ": " + std::to_string(pending_) + " message(s) held in barrier registers");
  if (!source_.empty())
    out.push_back(me + ": " + std::to_string(source_.size()) + " flit(s) waiting at the NI");
}

}  // namespace meshsync
