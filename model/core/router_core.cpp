#include "router_core.hpp"

#include <algorithm>
#include <sstream>
#include <stdexcept>

namespace meshsync {

RouterCore::RouterCore(NodeId id, Coord where, const NetworkConfig& cfg, const Coord* coords)
    : route_(id, where, cfg.mesh, coords, cfg.router.ni_ports > 1),
      timing_(cfg.timing),
      in_(route_.all_port() ? kMaxInputs : kPorts),
      tree_(cfg.router.tree_buffer_depth),
      barrier_(cfg.router),
      emitter_(cfg.router.barrier_registers) {
  for (InputUnit& i : in_) i.set_capacities(cfg.router, cfg.timing.trn);
  std::uint32_t slots = 0;
  for (int v = 0; v < kMaxVcs; ++v) slots += cfg.router.depth(v);
  for (OutputUnit& o : out_) o.set_unicast_vcs(cfg.router);
  for (int p = 0; p < kPorts; ++p)
    if (is_link_output(p)) out_[static_cast<std::size_t>(p)].connect_link(cfg.router);  // downstream buffers are empty
  unicast_vcs_ = static_cast<std::uint8_t>(cfg.router.unicast_vcs);
  most_credits_ = cfg.router.vc_allocation == 1;
  switch_.set_kind(static_cast<SwitchAllocator::Kind>(cfg.router.switch_allocator),
                   static_cast<int>(cfg.router.islip_iterations), route_.all_port() ? kMaxOutputs : kPorts);
  credit_returns_.set_capacity(kPorts * slots);
  if (route_.all_port()) more_sources_ = std::make_unique<std::array<InjectionChannel, 3>>();
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
  const std::uint64_t ready = input(i).accept(f, arrival, i, arrival_context());
  const auto bit = static_cast<std::uint16_t>(1u << i);
  busy_inputs_ |= bit;
  if (f.tree) tree_inputs_ |= bit;
  // The owner runs us in the arrival cycle, where step() looks the flit up (an injected
  // one right after the injection). A reduction message's body flits follow their head.
  if (f.sync && f.head) lookup_inputs_ |= bit;
  return ready;
}

RouterCore::CreditCounts RouterCore::credits_at(std::uint64_t cycle) const {
  CreditCounts n{};
  for (int p = 0; p < kPorts; ++p)
    for (int v = 0; v < vcs(); ++v) n[static_cast<std::size_t>(p * kMaxVcs + v)] = out_[static_cast<std::size_t>(p)].credits(v);
  for (std::size_t k = 0; k < credit_returns_.size(); ++k) {
    const CreditReturn& cr = credit_returns_.at(k);
    if (cr.cycle > cycle) break;
    ++n[static_cast<std::size_t>(cr.port * kMaxVcs + cr.vc)];
  }
  return n;
}

bool RouterCore::step(std::uint64_t c, RouterLinks& links) {
  apply_credit_returns(c);
  bool moved = inject_from_channels(c);
  look_up_arrivals(c);
  // Tree worms claim their outputs before input arbitration (docs/microarchitecture.md,
  // "Tree worms").
  if (tree_inputs_)
    tree_.claim(c, tree_inputs_, in_.data(), inputs(), route_, barrier_.registers(), out_, links);
  Requests r = arbitrate_inputs(c);
  if (r.barrier) {
    barrier_unit_takes(c, r, links);
    moved = true;
  }
  const EmitterOffer offer = emitter_.offer(c, route_, barrier_.registers(), barrier_.batches(), out_, inputs());
  if (offer.loaded >= 0) barrier_.loaded(offer.loaded);
  return traverse(c, r, offer, links) || moved || offer.folding;
}

void RouterCore::apply_credit_returns(std::uint64_t c) {
  while (!credit_returns_.empty() && credit_returns_.front().cycle <= c) {
    const CreditReturn& cr = credit_returns_.front();
    out_[cr.port].return_credit(cr.vc);
    credit_returns_.pop();
  }
}

bool RouterCore::inject_from_channels(std::uint64_t c) {
  // Each injection channel carries one flit per cycle into its input buffer.
  bool moved = false;
  for (int ch = 0; ch < channels(); ++ch) {
    InjectionChannel& src = source(ch);
    if (src.empty() || src.front_cycle() > c) continue;
    const Flit& f = src.front();
    const int i = input_of_channel(ch);
    if (!f.allocates_vc() || unicast_vcs_ == 1) {
      if (input(i).full(f.vc())) continue;
      receive_at(i, f, c);
    } else {
      // A unicast worm: its head takes a unicast VC with room (the NI's VC allocation),
      // its other flits follow into the same one.
      const auto k = static_cast<std::size_t>(ch);
      if (f.head) {
        const int lane = injection_lane(i, ch);
        if (lane < 0) continue;
        injection_lane_[k] = static_cast<std::uint8_t>(lane);
        injection_next_[k] = static_cast<std::uint8_t>((lane + 1) % unicast_vcs_);
      } else if (input(i).full(unicast_vc(injection_lane_[k]))) {
        continue;
      }
      Flit g = f;
      g.lane = injection_lane_[k];
      receive_at(i, g, c);
    }
    src.pop();
    moved = true;
  }
  return moved;
}

int RouterCore::injection_lane(int i, int ch) const {
  const InputUnit& in = input(i);
  return pick_lane(
      unicast_vcs_, injection_next_[static_cast<std::size_t>(ch)], most_credits_,
      [&](int l) { return !in.full(unicast_vc(l)); }, [&](int l) { return in.room(unicast_vc(l)); });
}

void RouterCore::look_up_arrivals(std::uint64_t c) {
  // Every arrival of this cycle is looked up in the registers as they are at its start.
  for (unsigned m = lookup_inputs_; m; m &= m - 1) {
    const int i = lowest_bit(m);
    input(i).classify_arrivals(c, i, arrival_context());
    if (!input(i).awaits_lookup()) lookup_inputs_ = static_cast<std::uint16_t>(lookup_inputs_ & ~(1u << i));
  }
}

namespace {

// Input `i` asks for `outputs` (every output of a flit that needs several at once, or one
// output per VC for a matching allocator): the per-output requester masks follow.
template <class Requests>
void ask(Requests& r, int i, unsigned outputs) {
  const auto k = static_cast<std::size_t>(i);
  r.wants[k] = static_cast<std::uint16_t>(r.wants[k] | outputs);
  for (unsigned o = outputs; o; o &= o - 1) {
    const auto out = static_cast<std::size_t>(lowest_bit(o));
    r.by_output[out] = static_cast<std::uint16_t>(r.by_output[out] | (1u << i));
  }
  r.asking |= outputs;
}

// Input `i`'s one request `q` (step 4): its VC, what it is for, the outputs it needs.
template <class Requests>
void take_request(Requests& r, int i, const InputRequest& q) {
  r.vc[static_cast<std::size_t>(i)] = q.vc;
  r.out_vc[static_cast<std::size_t>(i)] = q.out_vc;
  if (q.barrier) r.barrier |= 1u << i;
  if (q.drop) r.drop |= 1u << i;
  if (q.outputs & (q.outputs - 1)) r.several |= 1u << i;
  ask(r, i, q.outputs);
}

}  // namespace

RouterCore::Requests RouterCore::arbitrate_inputs(std::uint64_t c) const {
  Requests r;
  r.vc.fill(-1);
  const bool matching = switch_.kind() != SwitchAllocator::kSeparable;
  for (unsigned m = busy_inputs_; m; m &= m - 1) {
    const int i = lowest_bit(m);
    if (matching) {
      gather_requests(c, i, r);
      continue;
    }
    const InputRequest q = input(i).request(c, i, out_, tree_);
    if (q.vc >= 0) take_request(r, i, q);
  }
  return r;
}

void RouterCore::gather_requests(std::uint64_t c, int i, Requests& r) const {
  std::array<InputRequest, kMaxVcs> all;
  const int n = input(i).requests(c, i, out_, tree_, all);
  if (n == 0) return;
  const auto k = static_cast<std::size_t>(i);
  const auto special = [](const InputRequest& q) { return q.barrier || q.drop || (q.outputs & (q.outputs - 1)); };
  // A message for the barrier unit, a dropped tree flit or a flit for several outputs at
  // the input's round-robin turn is its one request, as in the separable allocator (they
  // keep the contract's order); otherwise every VC with a flit for one output offers it,
  // the first in round-robin order for each output.
  if (special(all[0])) {
    take_request(r, i, all[0]);
    return;
  }
  for (int j = 0; j < n; ++j) {
    const InputRequest& q = all[static_cast<std::size_t>(j)];
    if (special(q) || (r.wants[k] & q.outputs)) continue;
    const auto o = static_cast<std::size_t>(lowest_bit(q.outputs));
    r.vc_for[k][o] = q.vc;
    r.out_vc_for[k][o] = q.out_vc;
    ask(r, i, q.outputs);
  }
}

void RouterCore::barrier_unit_takes(std::uint64_t c, const Requests& r, RouterLinks& links) {
  // One flit a cycle, a message's head or one of a reduction message's body flits (one
  // lane write port: a port per input measured +25,000 cells at 4 words a lane,
  // docs/reduction-hardware.md); the unit never waits for the emitter, which is what
  // keeps sync messages out of any channel dependency (docs/deadlock.md).
  const int i = barrier_.pick(r.barrier);
  const int v = r.vc[static_cast<std::size_t>(i)];
  BufferedFlit& head = input(i).front(v);
  const bool cs = head.cs_update;
  if (barrier_.take(head, i, c, route_, emitter_)) {
    pop_input(i, v, c, links);
    return;
  }
  if (!cs) {  // on to the NI when ready
    head.out = static_cast<std::int8_t>(route_.eject_output(i));
    head.consume = false;
  }
  input(i).refresh_front(v);
}

bool RouterCore::traverse(std::uint64_t c, Requests& r, const EmitterOffer& offer, RouterLinks& links) {
  const int n = inputs();
  for (unsigned m = offer.ports; m; m &= m - 1) {
    const int o = lowest_bit(m);
    r.by_output[static_cast<std::size_t>(o)] = static_cast<std::uint16_t>(r.by_output[static_cast<std::size_t>(o)] | (1u << n));
  }
  r.asking |= offer.ports;
  std::array<std::int8_t, kMaxOutputs> grant;
  unsigned granted = 0;
  if (r.asking && switch_.kind() == SwitchAllocator::kSeparable) {
    granted = switch_.allocate(r.by_output, r.asking, r.wants, r.several, n, grant);
  } else if (r.asking) {
    granted = switch_.match(r.by_output, r.asking, r.wants, r.several, n, grant);
    // An input matched to one output sends the flit of the VC that asked for it.
    for (unsigned m = granted; m; m &= m - 1) {
      const int o = lowest_bit(m);
      const int w = grant[static_cast<std::size_t>(o)];
      if (w == n || (r.several & (1u << w))) continue;
      const auto k = static_cast<std::size_t>(w);
      r.vc[k] = r.vc_for[k][static_cast<std::size_t>(o)];
      r.out_vc[k] = r.out_vc_for[k][static_cast<std::size_t>(o)];
      r.wants[k] = static_cast<std::uint16_t>(1u << o);
    }
  }
  unsigned emitted = 0;
  for (unsigned m = granted; m; m &= m - 1) {
    const int o = lowest_bit(m);
    const int w = grant[static_cast<std::size_t>(o)];
    if (w == n) {
      emitted |= 1u << o;
      const Flit& f = emitter_.message(offer, o);
      out_[static_cast<std::size_t>(o)].pass(f.vc(), f.tail, n);
      send(o, f, c, links);
      continue;
    }
    const int v = r.vc[static_cast<std::size_t>(w)];
    const BufferedFlit& b = input(w).front(v);
    Flit f = Crossbar::from_input(o, b, b.tree ? tree_.child(w, o) : nullptr);
    // A unicast worm goes on in the VC its head took here (VC allocation); the others
    // keep theirs.
    const int ov = f.allocates_vc() ? r.out_vc[static_cast<std::size_t>(w)] : v;
    if (f.allocates_vc()) {
      f.lane = static_cast<std::uint8_t>(unicast_lane(ov));
      if (f.head) input(w).hold_out_vc(v, ov);
    }
    out_[static_cast<std::size_t>(o)].pass(ov, f.tail, w);
    // A flit with several outputs leaves its buffer with the last of them.
    if (o == highest_bit(r.wants[static_cast<std::size_t>(w)])) {
      if (f.tail && b.tree) tree_.release(w);
      pop_input(w, v, c, links);
    }
    send(o, f, c, links);
  }
  // A dropped tree worm leaves its input one flit a cycle, through no output.
  for (unsigned m = r.drop; m; m &= m - 1) {
    const int i = lowest_bit(m);
    const int v = r.vc[static_cast<std::size_t>(i)];
    if (input(i).front(v).flit.tail) tree_.release(i);
    pop_input(i, v, c, links);
  }
  if (emitter_.emitting()) emitter_.sent(offer, emitted, barrier_.registers());
  return granted != 0 || r.drop != 0;
}

void RouterCore::send(int out, const Flit& f, std::uint64_t cycle, RouterLinks& links) {
  out_[static_cast<std::size_t>(out)].take_credit(f.vc());
  links.flit_out(route_.id(), out, f, cycle);
}

void RouterCore::pop_input(int i, int v, std::uint64_t c, RouterLinks& links) {
  InputUnit& in = input(i);
  in.pop(v, c);
  const auto bit = static_cast<std::uint16_t>(1u << i);
  if (v == kTreeVc && in.size(kTreeVc) == 0) tree_inputs_ &= static_cast<std::uint16_t>(~bit);
  if (in.empty()) busy_inputs_ &= static_cast<std::uint16_t>(~bit);
  if (is_injection_input(i)) links.injection_pop(route_.id(), channel_of_input(i), v, c);
  else links.credit_out(route_.id(), i, v, c);
}

std::uint64_t RouterCore::next_wake(std::uint64_t c) const {
  std::uint64_t next = emitter_.next_wake(c, barrier_.batches());
  if (next == c + 1) return next;
  for (unsigned m = busy_inputs_; m; m &= m - 1) {
    const std::uint64_t r = input(lowest_bit(m)).earliest_front(c);
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
  if (!emitter_.idle() || busy_inputs_ != 0) return false;
  for (int ch = 0; ch < channels(); ++ch)
    if (!source(ch).empty()) return false;
  return true;
}

bool RouterCore::holds_sync() const {
  if (!emitter_.idle() || source_.holds_sync()) return true;
  for (unsigned m = busy_inputs_; m; m &= m - 1)
    if (input(lowest_bit(m)).holds_sync()) return true;
  return false;
}

void RouterCore::describe_stuck(std::vector<std::string>& out, const MeshShape& mesh) const {
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
  const std::string me = "router " + where(id());
  for (int i = 0; i < inputs(); ++i)
    for (int v = 0; v < vcs(); ++v) {
      if (input(i).size(v) == 0) continue;
      const BufferedFlit& b = input(i).front(v);
      std::ostringstream s;
      s << me << " input " << input_name(i) << " " << kVcNames[static_cast<std::size_t>(v)] << ": " << input(i).size(v)
        << " flit(s), head " << (b.flit.sync ? "sync" : "packet " + std::to_string(b.flit.packet))
        << " to " << where(b.flit.dest);
      if (b.lookup) {
        s << " arriving in cycle " << b.ready;
      } else if (b.tree) {
        s << " (tree worm, gid " << int{b.flit.gid} << ")";
        if (!tree_.claimed(i)) {
          s << " not yet claimed, ready in cycle " << b.ready;
        } else if (tree_.outputs(i) == 0) {
          s << " dropped here";
        } else {
          s << " sending to";
          for (unsigned m = tree_.outputs(i); m; m &= m - 1) {
            const int o = lowest_bit(m);
            s << " " << output_name(o);
            if (is_link_output(o)) s << " (credits " << out_[static_cast<std::size_t>(o)].credits(v) << ")";
          }
        }
      } else if (b.consume) {
        s << " for the barrier unit";
      } else {
        const OutputUnit& o = out_[static_cast<std::size_t>(b.out)];
        s << " waiting for output " << output_name(b.out);
        if (b.copy >= 0) s << " and " << output_name(b.copy);
        if (b.flit.allocates_vc() && b.flit.head && unicast_vcs_ > 1) {
          s << " (every unicast VC held or without a credit)";
          out.push_back(s.str());
          continue;
        }
        // A unicast worm's other flits go on in the output VC its head took.
        const int ov = b.flit.allocates_vc() && !b.flit.head ? input(i).out_vc(v) : v;
        s << " (";
        if (o.link()) s << "credits " << o.credits(ov);
        // A sync VC is held only by a reduction message (a sync worm) between its head and tail.
        const int owner = o.owner(ov);
        if (is_worm_vc(ov) || owner >= 0) {
          const std::string vc = is_worm_vc(ov) ? "worm VC" : "sync VC";
          s << (o.link() ? ", " : "")
            << (owner < 0            ? vc + " free"
                : owner == inputs() ? vc + " held by the barrier emitter"
                                     : vc + " held by input " + input_name(owner));
        }
        s << ")";
      }
      out.push_back(s.str());
    }
  emitter_.describe(me, out);
  for (int ch = 0; ch < channels(); ++ch) {
    const InjectionChannel& src = source(ch);
    if (!src.empty())
      out.push_back(me + ": " + std::to_string(src.size()) + " flit(s) waiting at the NI" +
                    (route_.all_port() ? " (injection channel " + std::to_string(ch) + ")" : ""));
  }
}

}  // namespace meshsync
