#include "router_core.hpp"

#include <algorithm>
#include <sstream>
#include <stdexcept>


namespace meshsync {

RouterCore::RouterCore(NodeId id, Coord where, const NetworkConfig& cfg, const Coord* coords)
    : id_(id),
      coord_(where),
      coords_(coords),
      mesh_(cfg.mesh),
      timing_(cfg.timing),
      max_children_(cfg.router.max_children),
      tree_depth_(cfg.router.tree_buffer_depth),
      all_port_(cfg.router.ni_ports > 1),
      outputs_(all_port_ ? kMaxOutputs : kPorts),
      in_(all_port_ ? kMaxInputs : kPorts),
      regs_(cfg.router.barrier_registers),
      batches_(cfg.router.barrier_registers) {
  const auto depth = [&](int v) { return cfg.router.depth(v); };
  for (auto& port : in_)
    for (int v = 0; v < kVcs; ++v) port[v].set_capacity(depth(v));
  std::uint32_t slots = 0;
  for (int v = 0; v < kVcs; ++v) slots += depth(v);
  for (int p = 0; p < kPorts; ++p)
    for (int v = 0; v < kVcs; ++v) credits_[p][v] = depth(v);  // downstream buffers are empty
  for (auto& o : worm_owner_) o.fill(-1);
  credit_returns_.set_capacity(kPorts * slots);
  if (all_port_) more_sources_ = std::make_unique<std::array<InjectionChannel, 3>>();
}

Port RouterCore::route_of(const Flit& f) const {
  const Coord to = coords_[f.dest];
  switch (f.base) {
    case WormBase::High: return snake_port(mesh_, coord_, to, Subnetwork::High);
    case WormBase::Low: return snake_port(mesh_, coord_, to, Subnetwork::Low);
    default: return next_port(coord_, to, f.route);
  }
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

void RouterCore::check_channel(int channel, const Flit& f) const {
  if (channel < 0 || channel >= channels())
    throw std::logic_error("injection channel " + std::to_string(channel) + " does not exist");
  if (channel != 0 && f.sync)
    throw std::logic_error("a sync message on injection channel " + std::to_string(channel) +
                           " (channels 1-3 carry worms only)");
}

void RouterCore::inject(const Flit& f, std::uint64_t cycle, int channel) {
  check_channel(channel, f);
  source(channel).push(f, cycle);
}

std::uint64_t RouterCore::receive_at(int i, const Flit& f, std::uint64_t arrival) {
  Buffered b;
  b.flit = f;
  if (f.sync) {
    // The CAM is looked up in the arrival cycle (docs/microarchitecture.md), and the
    // upstream router calls us earlier, when it sends: registers may still change in
    // between. The owner runs us in `arrival`, where step() classifies the flit (an
    // injected one right after the injection).
    b.out = kUnrouted;
    b.ready = arrival;
    unrouted_ |= queue_mask(i, f.vc());
  } else {
    classify(b, i, arrival);  // worms need no lookup
    if (f.mcast) classify_worm(b, i);
  }
  in_[i][f.vc()].push(b);
  nonempty_ |= queue_mask(i, f.vc());
  return b.ready;
}

void RouterCore::classify_worm(Buffered& b, int i) {
  // Flits of one worm arrive in order on one input VC, so the head's decision holds for
  // the flits behind it until the tail.
  const Flit& f = b.flit;
  WormIn& w = worm_in_[i][worm_slot(f.vc())];
  const int eject = eject_output(i);
  if (f.head) {
    w = WormIn{};
    if (f.dest == id_) {
      b.out = static_cast<std::int8_t>(eject);  // the head of our copy
      if (f.more) {
        w.copy = true;
        w.promote_next = true;
      } else {
        w.out = static_cast<std::int8_t>(eject);  // the last destination takes it all
      }
    } else {
      w.out = b.out;
    }
  } else if (w.promote_next) {
    // Our address was stripped: the next address flit heads the worm from here on.
    if (!f.addr || f.dest == id_)
      throw std::logic_error("multidestination worm " + std::to_string(f.packet) +
                             ": no further destination after an absorbing router");
    w.out = b.out;  // routed by its own destination
    w.promote_next = false;
    b.promote = true;
    b.copy = static_cast<std::int8_t>(eject);
  } else {
    b.out = w.out;
    if (w.copy) b.copy = static_cast<std::int8_t>(eject);
  }
  if (f.tail) w = WormIn{};
}

void RouterCore::classify(Buffered& b, int input, std::uint64_t arrival) const {
  const Flit& f = b.flit;
  std::uint32_t delay = timing_.trn;
  if (f.tree) {
    // Its outputs are claimed when the head is at the front (claim_tree_outputs). A head
    // addressed here is processed by the barrier unit's side of the router: t_rm.
    b.out = kTree;
    if (f.head && f.dest == id_) delay = timing_.trm;
  } else if (f.sync) {
    const int r = regs_.lookup(f.gid);
    if (f.dest == id_) {
      // Every sync message addressed to this router goes through the CAM (t_rm).
      delay = timing_.trm;
      const bool control = f.stype == SyncType::Setup || f.stype == SyncType::Teardown;
      const bool hardware = r >= 0 && regs_.at(r).member();
      // A miss goes on to the network interface: the group lives in node memory there.
      b.out = (control || hardware) ? kConsume : static_cast<std::int8_t>(eject_output(input));
    } else {
      if (r >= 0 && regs_.at(r).transit()) delay = timing_.trm;  // a CS path router
      b.out = static_cast<std::int8_t>(index(route_of(f)));
      // Without registers there is no CS entry to open or close.
      b.cs_update = regs_.size() > 0 &&
                    (f.stype == SyncType::Setup || f.stype == SyncType::Teardown);
    }
  } else if (!f.mcast || f.addr) {
    // A multidestination worm's data flits follow its head (classify_worm).
    Port p = route_of(f);
    // MP's forced first hop: taken by the head in the router it is injected into (the
    // quadrant's port, minimal and in the worm's subnetwork; docs/deadlock.md).
    if (f.head && f.first != Port::Local && p != Port::Local && injection_input(input)) p = f.first;
    b.out = static_cast<std::int8_t>(p == Port::Local ? eject_output(input) : index(p));
  }
  b.ready = arrival + delay - 1;
}

void RouterCore::claim_tree_outputs(std::uint64_t c, RouterLinks& links) {
  // A tree head claims, once it is ready at the front of its FIFO, the tree VC of every
  // output it needs, with room for the whole worm behind it (virtual cut-through: an
  // empty buffer); an output whose tree VC another input holds, or whose buffer is not,
  // loses its copy. A tree flit then never waits for anything but the crossbar, which
  // keeps tree worms out of every dependency cycle (docs/tree-multicast.md). One head
  // claims a cycle (one CAM lookup and one children read a cycle in hardware), round
  // robin over the inputs from the one after the last claimant; the others claim in
  // later cycles, against the outputs claimed by then.
  constexpr std::uint64_t kTreeQueues = [] {
    std::uint64_t m = 0;
    for (int i = 0; i < kMaxInputs; ++i) m |= queue_mask(i, kTreeVc);
    return m;
  }();
  if (!(nonempty_ & kTreeQueues)) return;  // the per-cycle cost without tree traffic
  const int n = inputs();
  for (int k = 0; k < n; ++k) {
    const int i = (claim_rr_ + k) % n;
    if (!(nonempty_ & queue_mask(i, kTreeVc))) continue;
    TreeIn& t = tree_in(i);
    if (t.claimed) continue;
    const Buffered& b = in_[i][kTreeVc].front();
    if (!b.flit.head || b.ready > c) continue;
    const Flit& f = b.flit;
    t = TreeIn{};
    t.claimed = true;
    unsigned want = 0;
    if (f.dest != id_) {
      want = 1u << index(route_of(f));
    } else {
      want = 1u << eject_output(i);
      // The CAM is looked up as the head claims (the registers as they are at the start
      // of the cycle); no member register: the NI alone gets the worm.
      const int r = regs_.lookup(f.gid);
      const BarrierRegister* reg = r >= 0 ? &regs_.at(r) : nullptr;
      if (reg && reg->member())
        for (const ChildLink& ch : reg->setup().children) {
          const int p = index(next_port(coord_, coords_[ch.node], ch.route));
          // A register listing this router among its children (not a BTM register) gets
          // no copy for it: the NI's copy is the worm as it came.
          if (p == index(Port::Local)) continue;
          // Two children behind one port (not a BTM register): the later one's copy.
          if ((want >> p) & 1u) links.tree_copy_dropped(id_, p, f.packet, c);
          want |= 1u << p;
          t.to_child = static_cast<std::uint16_t>(t.to_child | (1u << p));
          t.child[static_cast<std::size_t>(p)] = ch.node;
          t.child_route[static_cast<std::size_t>(p)] = ch.route;
        }
    }
    for (unsigned m = want; m; m &= m - 1) {
      const int o = __builtin_ctz(m);
      std::int8_t& owner = worm_owner_[static_cast<std::size_t>(o)][worm_slot(kTreeVc)];
      // Room for the whole worm: the buffer behind the output is empty (a tree worm is never
      // longer than it, and the RTL's head has no length field to compare with).
      const bool room = o == index(Port::Local) || o >= kPorts || credits_[o][kTreeVc] == tree_depth_;
      if (owner < 0 && room) {
        owner = static_cast<std::int8_t>(i);
        t.outputs = static_cast<std::uint16_t>(t.outputs | (1u << o));
      } else {
        links.tree_copy_dropped(id_, o, f.packet, c);
      }
    }
    claim_rr_ = static_cast<std::uint8_t>((i + 1) % n);
    return;
  }
}

Flit RouterCore::tree_copy(int i, int o, const Flit& f) const {
  const TreeIn& t = tree_in(i);
  Flit g = f;
  if ((t.to_child >> o) & 1u) {
    g.dest = t.child[static_cast<std::size_t>(o)];
    g.route = t.child_route[static_cast<std::size_t>(o)];
  }
  return g;
}

void RouterCore::classify_arrivals(std::uint64_t c) {
  if (unrouted_ == 0) return;
  // Every arrival of this cycle is looked up in the registers as they are at its start.
  for (std::uint64_t m = unrouted_; m; m &= m - 1) {
    const int bit = __builtin_ctzll(m);
    auto& q = in_[bit / kVcs][bit % kVcs];
    bool left = false;
    for (std::size_t k = 0; k < q.size(); ++k) {
      Buffered& b = q.at(k);
      if (b.out != kUnrouted) continue;
      if (b.ready > c) {
        left = true;  // arrives later
        continue;
      }
      classify(b, bit / kVcs, b.ready);
    }
    if (!left) unrouted_ &= ~(std::uint64_t{1} << bit);
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
  if (out != index(Port::Local) && out < kPorts) --credits_[out][f.vc()];
  links.flit_out(id_, out, f, cycle);
}

void RouterCore::pop_input(int i, int v, std::uint64_t c, RouterLinks& links) {
  auto& q = in_[i][v];
  q.pop();
  if (q.empty()) nonempty_ &= ~queue_mask(i, v);
  in_rr_[i] = static_cast<std::uint8_t>((v + 1) % kVcs);
  if (injection_input(i)) links.injection_pop(id_, i == 0 ? 0 : i - kPorts + 1, v, c);
  else links.credit_out(id_, i, v, c);
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
  // Each injection channel carries one flit per cycle into its input buffer.
  for (int ch = 0; ch < channels(); ++ch) {
    InjectionChannel& src = source(ch);
    if (src.empty() || src.front_cycle() > c) continue;
    const Flit& f = src.front();
    const int i = input_of_channel(ch);
    if (!in_[i][f.vc()].full()) {
      receive_at(i, f, c);
      src.pop();
      moved = true;
    }
  }
  classify_arrivals(c);

  // Stage 1, input arbitration: each input offers one VC whose head flit could move
  // (ready, credit available, worm VC free or already ours; a message for the barrier unit
  // from its arrival on), round robin over the VCs starting after the last one served.
  // A flit absorbed and forwarded asks for both of its outputs.
  constexpr std::int8_t kNone = -2;
  const int inputs = this->inputs();
  std::array<std::int8_t, kMaxInputs> want_vc{};
  std::array<std::uint16_t, kMaxOutputs> asked{};  // per output: inputs requesting it
  unsigned consume = 0;                             // inputs offering to the barrier unit
  unsigned dropping = 0;                            // inputs discarding a dropped tree worm's flit
  claim_tree_outputs(c, links);
  for (int i = 0; i < inputs; ++i) {
    want_vc[i] = kNone;
    if (((nonempty_ >> queue_bit(i, 0)) & ((1u << kVcs) - 1)) == 0) continue;
    for (int k = 0; k < kVcs; ++k) {
      const int v = (in_rr_[i] + k) % kVcs;
      const auto& q = in_[i][v];
      if (q.empty()) continue;
      const Buffered& b = q.front();
      if (b.out == kConsume || b.cs_update) {
        consume |= 1u << i;
      } else if (b.out == kTree) {
        // A tree flit asks for every output its head claimed, or, dropped, for none.
        const TreeIn& t = tree_in(i);
        if (b.ready > c || !t.claimed) continue;
        bool credit = true;
        for (unsigned m = t.outputs; m; m &= m - 1) credit = credit && has_credit(__builtin_ctz(m), v);
        if (!credit) continue;
        if (t.outputs == 0) dropping |= 1u << i;
        for (unsigned m = t.outputs; m; m &= m - 1)
          asked[__builtin_ctz(m)] = static_cast<std::uint16_t>(asked[__builtin_ctz(m)] | (1u << i));
      } else {
        if (b.ready > c || !has_credit(b.out, v)) continue;
        if (!may_use(b.out, v, b.flit.head || b.promote, i)) continue;
        if (b.copy >= 0 && !may_use(b.copy, v, b.flit.head, i)) continue;
        asked[b.out] = static_cast<std::uint16_t>(asked[b.out] | (1u << i));
        if (b.copy >= 0) asked[b.copy] = static_cast<std::uint16_t>(asked[b.copy] | (1u << i));
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
      head.out = static_cast<std::int8_t>(eject_output(i));  // on to the NI when ready
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

  // Stage 2, output arbitration: round robin over the inputs and the emitter (requester
  // `inputs`), starting after the last winner. The links to neighbours are arbitrated
  // first; a flit absorbed and forwarded then competes for its ejection output only if
  // it won its link, and leaves only if it wins both (a link it won alone stays idle and
  // keeps its pointer). Deciding the link first means two such flits never hold one
  // output each and wait for each other's.
  const int emitter = inputs;
  const auto front = [&](int i) -> const Buffered& { return in_[i][want_vc[i]].front(); };
  const auto is_link = [](int o) { return o != index(Port::Local) && o < kPorts; };
  std::array<int, kMaxOutputs> winner{};
  winner.fill(-1);
  // Every output requester i asks for: one, or two (absorb and forward), or a tree
  // flit's claimed set.
  const auto outputs_of = [&](int i) -> unsigned {
    const Buffered& b = front(i);
    if (b.out == kTree) return tree_in(i).outputs;
    return (1u << b.out) | (b.copy >= 0 ? 1u << b.copy : 0u);
  };
  constexpr unsigned kLinks = ((1u << kPorts) - 1) & ~1u;
  const auto won_all = [&](int i, unsigned outs) {
    for (unsigned m = outs; m; m &= m - 1)
      if (winner[__builtin_ctz(m)] != i) return false;
    return true;
  };
  const auto arbitrate = [&](int o) {
    unsigned req = asked[o];
    if (o < kPorts && offer[o] != -1) req |= 1u << emitter;
    if (!is_link(o))
      for (unsigned m = asked[o]; m; m &= m - 1) {
        const int i = __builtin_ctz(m);
        if (!won_all(i, outputs_of(i) & kLinks)) req &= ~(1u << i);
      }
    winner[o] = req ? first_from(req, out_rr_[o]) : -1;
  };
  for (int o = 0; o < outputs_; ++o)
    if (is_link(o)) arbitrate(o);
  for (int o = 0; o < outputs_; ++o)
    if (!is_link(o)) arbitrate(o);
  std::array<int, kMaxOutputs> granted = winner;
  for (int o = 0; o < outputs_; ++o) {
    const int w = winner[o];
    if (w >= 0 && w != emitter && !won_all(w, outputs_of(w))) granted[o] = -1;
  }
  winner = granted;
  std::vector<std::size_t> sent;  // emitter messages granted this cycle
  for (int o = 0; o < outputs_; ++o) {
    const int w = winner[o];
    if (w < 0) continue;
    if (w < emitter) {
      const int v = want_vc[w];
      const Buffered& b = front(w);
      const unsigned outs = outputs_of(w);
      Flit f = b.out == kTree ? tree_copy(w, o, b.flit) : b.flit;
      const bool last = o == 31 - __builtin_clz(outs);
      if (b.promote && o == b.out) f.head = true;
      if (is_worm_vc(v)) worm_owner_[o][worm_slot(v)] = f.tail ? -1 : static_cast<std::int8_t>(w);
      if (last) {
        if (f.tail && b.out == kTree) tree_in(w) = TreeIn{};
        pop_input(w, v, c, links);
      }
      send(o, f, c, links);
    } else if (offer[o] == -2) {
      send(o, emitter_.local_flit, c, links);
      emitter_.local = false;
    } else {
      sent.push_back(static_cast<std::size_t>(offer[o]));
      send(o, emitter_.children[sent.back()].first, c, links);
    }
    out_rr_[o] = static_cast<std::uint16_t>((w + 1) % (inputs + 1));
    moved = true;
  }
  // A dropped tree worm leaves its input one flit a cycle, through no output.
  for (unsigned m = dropping; m; m &= m - 1) {
    const int i = __builtin_ctz(m);
    if (front(i).flit.tail) tree_in(i) = TreeIn{};
    pop_input(i, want_vc[i], c, links);
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
  for (std::uint64_t m = nonempty_; m; m &= m - 1) {
    const int bit = __builtin_ctzll(m);
    const Buffered& head = in_[bit / kVcs][bit % kVcs].front();
    // The barrier unit takes its messages from their arrival on, not when they are ready.
    const std::uint64_t r = head.out == kConsume || head.cs_update ? c : head.ready;
    if (r <= c) return c + 1;
    next = std::min(next, r);
  }
  for (int ch = 0; ch < channels(); ++ch) {
    const InjectionChannel& src = source(ch);
    if (!src.empty()) next = std::min(next, std::max(c + 1, src.front_cycle()));
  }
  return next;
}

bool RouterCore::idle() const {
  if (pending_ > 0) return false;
  for (int ch = 0; ch < channels(); ++ch)
    if (!source(ch).empty()) return false;
  for (const auto& port : in_)
    for (const auto& q : port)
      if (!q.empty()) return false;
  return true;
}

bool RouterCore::holds_sync() const {
  // Bits input*kVcs+vc of nonempty_ for the sync VCs.
  constexpr std::uint64_t kSyncVcs = [] {
    std::uint64_t m = 0;
    for (int i = 0; i < kMaxInputs; ++i)
      for (int v = 0; v < kVcs; ++v)
        if (!is_worm_vc(v)) m |= queue_mask(i, v);
    return m;
  }();
  return (nonempty_ & kSyncVcs) != 0 || pending_ > 0 || source_.holds_sync();
}

void RouterCore::describe_stuck(std::vector<std::string>& out, const MeshShape& mesh) const {
  static const char* vc_name[kVcs] = {"worm", "sync-XY", "sync-YX", "snake-worm", "tree-worm"};
  const auto input_name = [](int i) {
    return i < kPorts ? std::string(port_name(port_at(i)))
                      : "injection channel " + std::to_string(i - kPorts + 1);
  };
  const auto output_name = [](int o) {
    return o < kPorts ? std::string(port_name(port_at(o)))
                      : "ejection channel of " + std::string(port_name(port_at(o - kPorts + 1)));
  };
  const auto where = [&](NodeId n) {
    const Coord k = mesh.coord(n);
    return "(" + std::to_string(k.x) + "," + std::to_string(k.y) + ")";
  };
  const std::string me = "router " + where(id_);
  for (int i = 0; i < inputs(); ++i)
    for (int v = 0; v < kVcs; ++v) {
      const auto& q = in_[i][v];
      if (q.empty()) continue;
      const Buffered& b = q.front();
      std::ostringstream s;
      s << me << " input " << input_name(i) << " " << vc_name[v] << ": " << q.size()
        << " flit(s), head " << (b.flit.sync ? "sync" : "packet " + std::to_string(b.flit.packet))
        << " to " << where(b.flit.dest);
      if (b.out == kUnrouted) {
        s << " arriving in cycle " << b.ready;
      } else if (b.out == kTree) {
        const TreeIn& t = tree_in(i);
        s << " (tree worm, gid " << int{b.flit.gid} << ")";
        if (!t.claimed) {
          s << " not yet claimed, ready in cycle " << b.ready;
        } else if (t.outputs == 0) {
          s << " dropped here";
        } else {
          s << " sending to";
          for (unsigned m = t.outputs; m; m &= m - 1) {
            const int o = __builtin_ctz(m);
            s << " " << output_name(o);
            if (o != index(Port::Local) && o < kPorts) s << " (credits " << credits_[o][v] << ")";
          }
        }
      } else if (b.out == kConsume) {
        s << " for the barrier unit";
      } else {
        s << " waiting for output " << output_name(b.out);
        if (b.copy >= 0) s << " and " << output_name(b.copy);
        s << " (";
        if (b.out < kPorts && b.out != index(Port::Local)) s << "credits " << credits_[b.out][v];
        if (is_worm_vc(v)) {
          const int owner = worm_owner_[b.out][worm_slot(v)];
          s << (b.out < kPorts && b.out != index(Port::Local) ? ", " : "")
            << (owner < 0 ? "worm VC free" : "worm VC held by input " + input_name(owner));
        }
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
  for (int ch = 0; ch < channels(); ++ch) {
    const InjectionChannel& src = source(ch);
    if (!src.empty())
      out.push_back(me + ": " + std::to_string(src.size()) + " flit(s) waiting at the NI" +
                    (all_port_ ? " (injection channel " + std::to_string(ch) + ")" : ""));
  }
}

}  // namespace meshsync
