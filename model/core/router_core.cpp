#include "router_core.hpp"

#include <algorithm>
#include <sstream>
#include <stdexcept>


namespace meshsync {

RouterCore::RouterCore(NodeId id, Coord where, const NetworkConfig& cfg, const Coord* coords)
    : id_(id),
      coord_(where),
      coords_(coords),
      timing_(cfg.timing),
      max_children_(cfg.router.max_children),
      regs_(cfg.router.barrier_registers),
      batches_(cfg.router.barrier_registers) {
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
  cancel_batch(r);
  return true;
}

bool RouterCore::free_register(std::uint8_t gid) {
  const int r = regs_.lookup(gid);
  if (r < 0 || !regs_.at(r).member()) return false;
  regs_.at(r).unprogram();
  cancel_batch(r);
  return true;
}

void RouterCore::cancel_batch(int r) {
  // A write starts the register afresh: messages it still had to send are dropped
  // (software frees a register only after its local release, which leaves last).
  Batch& b = batches_[static_cast<std::size_t>(r)];
  if (b.pending) --pending_;
  b.pending = false;
  if (emitter_.reg == r) {
    emitter_.reset();
    --pending_;
  }
}

void RouterCore::inject(const Flit& f, std::uint64_t cycle) { source_.push(f, cycle); }

std::uint64_t RouterCore::receive(Port in, const Flit& f, std::uint64_t arrival) {
  Buffered b;
  b.flit = f;
  const int i = index(in);
  if (f.sync) {
    // The CAM is looked up in the arrival cycle (docs/microarchitecture.md), and the
    // upstream router calls us earlier, when it sends: registers may still change in
    // between. The owner runs us in `arrival`, where step() classifies the flit (an
    // injected one right after the injection).
    b.out = kUnrouted;
    b.ready = arrival;
    unrouted_ = static_cast<std::uint16_t>(unrouted_ | (1u << queue_bit(i, f.vc())));
  } else {
    classify(b, arrival);  // worms need no lookup
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
      // Without registers there is no CS entry to open or close.
      b.cs_update = regs_.size() > 0 &&
                    (f.stype == SyncType::Setup || f.stype == SyncType::Teardown);
    }
  } else {
    b.out = static_cast<std::int8_t>(index(route_of(f)));
  }
  b.ready = arrival + delay - 1;
}

void RouterCore::classify_arrivals(std::uint64_t c) {
  if (unrouted_ == 0) return;
  // Every arrival of this cycle is looked up in the registers as they are at its start.
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

bool RouterCore::barrier_unit(Buffered& b, std::uint64_t c) {
  const Flit& f = b.flit;
  if (b.cs_update) {
    update_cs_path(f);
    b.cs_update = false;
    return false;
  }
  if (f.stype == SyncType::Setup || f.stype == SyncType::Teardown) return true;  // path end
  const int r = regs_.lookup(f.gid);
  if (r < 0 || !regs_.at(r).member()) return false;  // freed since its arrival
  BarrierRegister& reg = regs_.at(r);
  bool batch = true;
  if (f.stype == SyncType::Arrive) batch = reg.on_arrive(f.data, id_).has_value();
  if (!batch) return true;
  Batch& slot = batches_[static_cast<std::size_t>(r)];
  if (slot.pending || emitter_.reg == r)
    throw std::logic_error("barrier protocol violation: gid " + std::to_string(f.gid) +
                           " completed a reduction or distribution while its previous one was "
                           "still being sent");
  // It may leave when its message is ready, and in the next cycle at the earliest.
  slot = Batch{true, f.stype == SyncType::Release, std::max(b.ready, c + 1)};
  ++pending_;
  return true;
}

void RouterCore::select_batch(std::uint64_t c) {
  for (std::size_t r = 0; r < batches_.size(); ++r) {
    Batch& b = batches_[r];
    if (!b.pending || b.due > c) continue;
    const BarrierRegister& reg = regs_.at(static_cast<int>(r));
    emitter_.reg = static_cast<int>(r);
    emitter_.children.clear();
    const auto add = [&](const Flit& m) {
      emitter_.children.emplace_back(m, static_cast<std::int8_t>(index(route_of(m))));
    };
    if (b.release) {
      std::vector<Flit> msgs = reg.on_release(id_);
      emitter_.local_flit = msgs.back();
      emitter_.local = true;
      msgs.pop_back();
      for (const Flit& m : msgs) add(m);
    } else {
      add(reg.reduction_message(id_));
      emitter_.local = false;
    }
    b.pending = false;  // the emitter now counts for it in pending_
    return;
  }
}

void RouterCore::send(int out, const Flit& f, std::uint64_t cycle, RouterLinks& links) {
  if (out != index(Port::Local)) --credits_[out][f.vc()];
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
  classify_arrivals(c);

  // Stage 1, input arbitration: each input port offers one VC whose head flit could move
  // (ready, credit available, worm VC free or already ours; a message for the barrier unit
  // from its arrival on), round robin over the VCs starting after the last one served.
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
      if (b.out == kConsume || b.cs_update) {
        consume |= 1u << i;
      } else {
        if (b.ready > c || !has_credit(b.out, v)) continue;
        if (v == kWormVc && worm_owner_[b.out] != (b.flit.head ? -1 : i)) continue;
        asked[b.out] = static_cast<std::uint8_t>(asked[b.out] | (1u << i));
      }
      want_vc[i] = static_cast<std::int8_t>(v);
      break;
    }
  }

  // The barrier unit takes one message per cycle, round robin over the inputs. It never
  // waits for the emitter, which is what keeps sync messages out of any channel
  // dependency (docs/deadlock.md).
  if (consume) {
    const int i = first_from(consume, unit_rr_);
    unit_rr_ = static_cast<std::uint8_t>((i + 1) % kPorts);
    auto& q = in_[i][want_vc[i]];
    Buffered& head = q.at(0);
    const bool cs = head.cs_update;
    if (barrier_unit(head, c)) {
      pop_input(i, want_vc[i], c, links);
    } else if (!cs) {
      head.out = static_cast<std::int8_t>(index(Port::Local));  // on to the NI when ready
    }
    moved = true;
  }

  // The emitter sends one register's batch at a time.
  if (emitter_.reg < 0 && pending_ > 0) select_batch(c);
  const bool emitting = emitter_.reg >= 0;
  const bool children_left = emitting && !emitter_.children.empty();
  // Per output, the emitter's message for it (index into children, or -2 the local release).
  std::array<int, kPorts> offer{};
  offer.fill(-1);
  if (emitting) {
    for (std::size_t j = 0; j < emitter_.children.size(); ++j) {
      const auto& [m, o] = emitter_.children[j];
      if (offer[o] < 0 && has_credit(o, m.vc())) offer[o] = static_cast<int>(j);
    }
    if (emitter_.local && !children_left) offer[index(Port::Local)] = -2;
  }

  // Stage 2, output arbitration: round robin over the five inputs and the emitter
  // (requester 5), starting after the last winner.
  std::vector<std::size_t> sent;  // emitter messages granted this cycle
  for (int o = 0; o < kPorts; ++o) {
    unsigned req = asked[o];
    if (offer[o] != -1) req |= 1u << kPorts;
    if (req == 0) continue;
    const int winner = first_from(req, out_rr_[o]);
    if (winner < kPorts) {
      const int v = want_vc[winner];
      const Flit f = in_[winner][v].front().flit;
      pop_input(winner, v, c, links);
      if (v == kWormVc) worm_owner_[o] = f.tail ? -1 : static_cast<std::int8_t>(winner);
      send(o, f, c, links);
    } else if (offer[o] == -2) {
      send(o, emitter_.local_flit, c, links);
      emitter_.local = false;
    } else {
      sent.push_back(static_cast<std::size_t>(offer[o]));
      send(o, emitter_.children[sent.back()].first, c, links);
    }
    out_rr_[o] = static_cast<std::uint16_t>((winner + 1) % (kPorts + 1));
    moved = true;
  }
  if (emitting) {
    std::sort(sent.rbegin(), sent.rend());
    for (std::size_t j : sent) emitter_.children.erase(emitter_.children.begin() + static_cast<std::ptrdiff_t>(j));
    if (emitter_.children.empty() && !emitter_.local) {
      emitter_.reset();
      --pending_;
    }
  }
  return moved;
}

std::uint64_t RouterCore::next_wake(std::uint64_t c) const {
  if (emitter_.reg >= 0) return c + 1;
  std::uint64_t next = kNever;
  if (pending_ > 0)
    for (const Batch& b : batches_)
      if (b.pending) next = std::min(next, std::max(c + 1, b.due));
  for (unsigned m = nonempty_; m; m &= m - 1) {
    const int bit = __builtin_ctz(m);
    const Buffered& head = in_[bit / kVcs][bit % kVcs].front();
    // The barrier unit takes its messages from their arrival on, not when they are ready.
    const std::uint64_t r = head.out == kConsume || head.cs_update ? c : head.ready;
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
  if (emitter_.reg >= 0)
    out.push_back(me + ": barrier register " + std::to_string(emitter_.reg) + " sending " +
                  std::to_string(emitter_.children.size() + (emitter_.local ? 1 : 0)) + " message(s)");
  for (std::size_t r = 0; r < batches_.size(); ++r)
    if (batches_[r].pending)
      out.push_back(me + ": barrier register " + std::to_string(r) + " waits for the emitter");
  if (!source_.empty())
    out.push_back(me + ": " + std::to_string(source_.size()) + " flit(s) waiting at the NI");
}

}  // namespace meshsync
