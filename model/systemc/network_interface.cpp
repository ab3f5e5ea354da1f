#include "network_interface.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "../core/network_core.hpp"  // kNever
#include "../core/packet.hpp"

namespace meshsync {

using sc_core::sc_time;

NetworkInterface::NetworkInterface(NodeId node, NiHost& system) : node_(node), system_(system) {}

void NetworkInterface::inject(const Flit& f, std::uint64_t cycle) { system_.inject(node_, f, cycle); }

void NetworkInterface::b_transport(tlm::tlm_generic_payload& trans, sc_time& delay) {
  // Loosely timed callers may hand us local time; we synchronise first so that every
  // start-up is counted from the simulated time of the call.
  if (delay != sc_core::SC_ZERO_TIME) {
    sc_core::wait(delay);
    delay = sc_core::SC_ZERO_TIME;
  }
  bool finished = false;
  sc_core::sc_event done;
  start(trans, [&] {
    finished = true;
    done.notify();
  });
  while (!finished) sc_core::wait(done);
}

tlm::tlm_sync_enum NetworkInterface::nb_transport_fw(tlm::tlm_generic_payload& trans,
                                                     tlm::tlm_phase& phase, sc_time& delay) {
  // Base protocol, target side: a request (BEGIN_REQ) is accepted and answered with
  // BEGIN_RESP on the backward path once the command has finished, or completed in the
  // return value if it finished at once.
  if (phase != tlm::BEGIN_REQ || !bw_) {
    trans.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
    return tlm::TLM_COMPLETED;
  }
  if (delay != sc_core::SC_ZERO_TIME) {
    // The request arrives later: at the first cycle boundary from then on.
    const double at = std::ceil((sc_core::sc_time_stamp() + delay) / NiHost::cycle_time());
    delay = sc_core::SC_ZERO_TIME;
    system_.at(static_cast<std::uint64_t>(at), [this, &trans] { start(trans, [this, &trans] { respond(trans); }); });
    return tlm::TLM_ACCEPTED;
  }
  // A command that finishes inside this call is answered by the return value; one that
  // finishes later, or inside a nested call (a callback of another command that this one
  // completed), on the backward path. A single flag for all calls let a nested call
  // report an outer command as finished at once after it had been answered backward:
  // the initiator completed it twice.
  tlm::tlm_generic_payload* const outer = starting_;
  bool* const outer_finished = finished_at_once_;
  bool finished = false;
  starting_ = &trans;
  finished_at_once_ = &finished;
  start(trans, [this, &trans] {
    if (starting_ == &trans) *finished_at_once_ = true;
    else respond(trans);
  });
  starting_ = outer;
  finished_at_once_ = outer_finished;
  return finished ? tlm::TLM_COMPLETED : tlm::TLM_ACCEPTED;
}

void NetworkInterface::respond(tlm::tlm_generic_payload& trans) {
  tlm::tlm_phase phase = tlm::BEGIN_RESP;
  sc_time delay = sc_core::SC_ZERO_TIME;
  bw_->nb_transport_bw(trans, phase, delay);
}

void NetworkInterface::start(tlm::tlm_generic_payload& trans, Done done) {
  unsigned char* data = trans.get_data_ptr();
  trans.set_response_status(tlm::TLM_OK_RESPONSE);
  switch (static_cast<NiCommand>(trans.get_address())) {
    case NiCommand::Send: do_send(*reinterpret_cast<NiSend*>(data), std::move(done)); break;
    case NiCommand::Multicast:
      do_multicast(*reinterpret_cast<NiMulticast*>(data), std::move(done));
      break;
    case NiCommand::Receive: do_receive(*reinterpret_cast<NiReceive*>(data), std::move(done)); break;
    case NiCommand::ProgramBarrier:
      do_program(*reinterpret_cast<NiProgram*>(data), std::move(done));
      break;
    case NiCommand::FreeBarrier: do_free(*reinterpret_cast<NiGroup*>(data), std::move(done)); break;
    case NiCommand::Barrier: do_barrier(*reinterpret_cast<NiGroup*>(data), std::move(done)); break;
    case NiCommand::Reduce: do_reduce(*reinterpret_cast<NiReduce*>(data), std::move(done)); break;
    case NiCommand::TreeMulticast:
      do_tree_multicast(*reinterpret_cast<NiTreeMulticast*>(data), std::move(done));
      break;
    case NiCommand::ListenGroup:
      do_listen(*reinterpret_cast<NiListen*>(data));
      done();
      break;
    case NiCommand::CsPathSetup:
      do_cs_path(*reinterpret_cast<NiCsPath*>(data), SyncType::Setup, std::move(done));
      break;
    case NiCommand::CsPathTeardown:
      do_cs_path(*reinterpret_cast<NiCsPath*>(data), SyncType::Teardown, std::move(done));
      break;
    default:
      trans.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
      done();
      break;
  }
}

NetworkInterface::SendTimes NetworkInterface::send_times(const std::optional<SendCost>& cost) {
  const std::uint64_t now = system_.now_cycle();
  const std::uint32_t ts = system_.config().timing.ts;
  if (!cost) return {now + ts, now + ts};
  const std::uint64_t enters = std::max(now + std::uint64_t{cost->overhead} + cost->latency, next_send_entry_);
  next_send_entry_ = enters + cost->gap;
  return {now + cost->overhead, enters};
}

void NetworkInterface::do_send(NiSend& cmd, Done done) {
  const std::uint64_t now = system_.now_cycle();
  const SendTimes times = send_times(cmd.cost);
  const std::uint64_t start = times.enters;
  const auto length = static_cast<std::uint16_t>(1 + cmd.words.size());
  const std::uint64_t id = system_.new_packet_id();
  system_.scoreboard().expect(id, node_, cmd.dest, length, now, cmd.words);
  for (const Flit& f : make_worm(id, node_, cmd.dest, length, now, cmd.words)) inject(f, start);
  // The caller is busy for the start-up; the head enters the router as it returns (with
  // a SendCost, after the overhead and the latency).
  system_.at(times.returns, std::move(done));
}

void NetworkInterface::do_multicast(NiMulticast& cmd, Done done) {
  if (cmd.worms.empty() || cmd.data_flits < 1 || cmd.words.size() > cmd.data_flits)
    throw std::logic_error("multicast step needs a worm and at least as many data flits as words");
  system_.config().require_path_worms("a path-based multicast");
  const std::uint64_t now = system_.now_cycle();
  const std::uint64_t start = now + system_.config().timing.ts;
  const auto channels = static_cast<int>(system_.config().router.ni_ports);
  cmd.packets.clear();
  // One start-up for the whole step: every worm is due as the caller returns; worms that
  // share an injection channel (one-port) follow each other through it.
  for (std::size_t i = 0; i < cmd.worms.size(); ++i) {
    const NiWorm& w = cmd.worms[i];
    const std::uint16_t data = w.data_flits != 0 ? w.data_flits : cmd.data_flits;
    const std::vector<std::uint32_t> words(cmd.words.begin(), cmd.words.begin() + std::min<std::size_t>(data, cmd.words.size()));
    const std::uint64_t id = system_.new_packet_id();
    const auto flits = make_multicast_worm(id, node_, w.dests, w.base, w.first_hop, data, now, words);
    system_.scoreboard().expect_multicast(id, node_, w.dests, static_cast<std::uint16_t>(flits.size()), now, words);
    const int channel = static_cast<int>(i) % channels;
    for (const Flit& f : flits) system_.inject(node_, f, start, channel);
    cmd.packets.push_back(id);
  }
  system_.at(start, std::move(done));
}

void NetworkInterface::do_tree_multicast(NiTreeMulticast& cmd, Done done) {
  const std::uint64_t now = system_.now_cycle();
  const SendTimes times = send_times(cmd.cost);
  const std::uint64_t start = times.enters;
  const auto length = static_cast<std::uint16_t>(1 + cmd.data_flits);
  if (cmd.words.size() > cmd.data_flits) throw std::logic_error("tree multicast: more words than data flits");
  system_.config().require_tree_vc(length, "a tree multicast");
  cmd.packet = system_.new_packet_id();
  system_.scoreboard().expect_tree(cmd.packet, node_, cmd.members, length, now, cmd.words);
  for (const Flit& f : make_tree_worm(cmd.packet, node_, cmd.member, cmd.gid, length, now, cmd.words))
    inject(f, start);
  system_.at(times.returns, std::move(done));
}

void NetworkInterface::do_listen(const NiListen& cmd) {
  if (cmd.open) {
    listening_.insert(cmd.gid);
    return;
  }
  listening_.erase(cmd.gid);
  if (!mail_) return;
  // Withdrawn buffers: copies not yet taken are dropped, and receives still waiting for
  // one end empty (NiReceive::tree unset).
  Mailbox& m = *mail_;
  m.inbox.erase(std::remove_if(m.inbox.begin(), m.inbox.end(),
                               [&](const NiReceive& r) { return r.tree == cmd.gid; }),
                m.inbox.end());
  std::vector<Done> withdrawn;
  for (auto w = m.waiting.begin(); w != m.waiting.end();) {
    if (w->cmd->match.kind == NiMatch::Kind::Tree && w->cmd->match.gid == cmd.gid) {
      w->cmd->tree.reset();
      w->cmd->words.clear();
      withdrawn.push_back(std::move(w->done));
      w = m.waiting.erase(w);
    } else {
      ++w;
    }
  }
  for (Done& d : withdrawn) d();
}

bool NetworkInterface::keep_datagram(std::uint8_t gid) {
  if (!listening_.count(gid)) {
    ++datagrams_.unposted;
    return false;
  }
  const double p = system_.datagram_loss();
  if (p > 0) {
    if (!loss_rng_) loss_rng_ = std::make_unique<Random>(system_.datagram_loss_seed() * 0x9E3779B97F4A7C15ull + node_);
    if (loss_rng_->bernoulli(p)) {
      ++datagrams_.lost;
      return false;
    }
  }
  ++datagrams_.kept;
  return true;
}

NetworkInterface::Mailbox& NetworkInterface::mailbox() {
  if (!mail_) mail_ = std::make_unique<Mailbox>();
  return *mail_;
}

void NetworkInterface::do_receive(NiReceive& cmd, Done done) {
  mailbox().waiting.push_back({&cmd, std::move(done)});
  try_receive();
}

void NetworkInterface::try_receive() {
  // The oldest delivered message that a waiting receive matches goes to the oldest such
  // receive, one at a time: `done` may issue the next receive (which calls this again),
  // so nothing is held across it.
  Mailbox& m = mailbox();
  const std::uint64_t now = system_.now_cycle();
  std::uint64_t later = kNever;  // the next cycle a matched message becomes due
  for (auto msg = m.inbox.begin(); msg != m.inbox.end(); ++msg) {
    const auto w = std::find_if(m.waiting.begin(), m.waiting.end(), [&](const Mailbox::Waiting& x) {
      return x.cmd->match.accepts(msg->src, msg->multicast, msg->tree);
    });
    if (w == m.waiting.end()) continue;
    if (msg->cycle > now) {
      later = std::min(later, msg->cycle);
      continue;
    }
    NiReceive& cmd = *w->cmd;
    const NiMatch match = cmd.match;
    cmd = std::move(*msg);
    cmd.match = match;
    Done done = std::move(w->done);
    m.inbox.erase(msg);
    m.waiting.erase(w);
    done();
    return try_receive();
  }
  if (later != kNever) system_.at(later, [this] { try_receive(); });
}

void NetworkInterface::do_program(NiProgram& cmd, Done done) {
  system_.program_register(node_, cmd.setup, [this, &cmd, done = std::move(done)](bool ok) {
    const std::uint8_t gid = cmd.setup.gid;
    cmd.in_hardware = ok;
    if (cmd.in_hardware) {
      if (!cmd.setup.parent) hardware_roots_.insert(gid);
    } else {
      soft_[gid].program(cmd.setup);
    }
    waits_[gid];
    done();
  });
}

void NetworkInterface::do_free(NiGroup& cmd, Done done) {
  system_.free_register(node_, cmd.gid, [this, &cmd, done = std::move(done)](bool) {
    soft_.erase(cmd.gid);
    hardware_roots_.erase(cmd.gid);
    waits_.erase(cmd.gid);
    done();
  });
}

void NetworkInterface::do_cs_path(const NiCsPath& cmd, SyncType type, Done done) {
  // A message like any other: the caller pays the start-up.
  const std::uint64_t ts = system_.config().timing.ts;
  const std::uint64_t start = system_.now_cycle() + ts;
  inject(make_sync(type, cmd.gid, node_, cmd.parent, Route::XY, kNoSlot), start);
  system_.at(start, std::move(done));
}

void NetworkInterface::do_barrier(NiGroup& cmd, Done done) {
  auto found = waits_.find(cmd.gid);
  if (found == waits_.end())
    throw std::logic_error("barrier on gid " + std::to_string(cmd.gid) +
                           " at a node that has not joined it");
  GroupWait& w = found->second;
  const std::uint64_t now = system_.now_cycle();
  auto soft = soft_.find(cmd.gid);
  if (soft != soft_.end()) {
    soft_arrive(soft->second, kLocalSlot, now);
  } else {
    inject(make_sync(SyncType::Arrive, cmd.gid, node_, node_, Route::XY, kLocalSlot),
           now + system_.config().timing.ts);
  }
  barrier_waiting_ = cmd.gid;
  w.waiting = &cmd;
  w.done = std::move(done);
  try_release(cmd.gid);
}

void NetworkInterface::do_reduce(NiReduce& cmd, Done done) {
  system_.config().require_reduction(cmd.desc.words(), "an in-network reduction");
  // The configuration's lanes hold the vector (above); an RTL router's are its own.
  // (Even an empty vector needs lanes: a router without them takes no reduction message.)
  if (const std::uint32_t lanes = system_.reduce_words(node_); lanes == 0 || cmd.desc.words() > lanes) {
    const Coord c = system_.mesh().coord(node_);
    throw ConfigError("an in-network reduction of " + std::to_string(cmd.desc.words()) +
                      " words needs lanes that hold them at every rank: the RTL router of node (" + std::to_string(c.x) +
                      "," + std::to_string(c.y) + ") has " +
                      (lanes == 0 ? std::string("no lanes") : std::to_string(lanes) + "-word lanes") +
                      " (ReduceWords of its configuration, rtl/configurations.txt; the RTL mesh block has none)");
  }
  if (cmd.words.size() != cmd.desc.words())
    throw std::logic_error("in-network reduction: " + std::to_string(cmd.words.size()) + " words for " +
                           cmd.desc.describe());
  auto found = waits_.find(cmd.gid);
  if (found == waits_.end())
    throw std::logic_error("reduction on gid " + std::to_string(cmd.gid) + " at a node that has not joined it");
  if (soft_.count(cmd.gid)) {
    const Coord c = system_.mesh().coord(node_);
    throw std::logic_error("in-network reduction on gid " + std::to_string(cmd.gid) + ": the router of node (" +
                           std::to_string(c.x) + "," + std::to_string(c.y) +
                           ") had no free barrier register, and node memory reduces nothing");
  }
  GroupWait& w = found->second;
  const Flit head = make_sync(SyncType::Arrive, cmd.gid, node_, node_, Route::XY, kLocalSlot);
  const std::uint64_t start = system_.now_cycle() + system_.config().timing.ts;
  for (const Flit& f : make_reduction_message(head, cmd.desc, cmd.words)) inject(f, start);
  barrier_waiting_ = cmd.gid;
  w.reducing = &cmd;
  w.done = std::move(done);
  try_release(cmd.gid);
}

void NetworkInterface::try_release(std::uint8_t gid) {
  auto it = waits_.find(gid);
  if (it == waits_.end()) return;
  GroupWait& w = it->second;
  if ((!w.waiting && !w.reducing) || w.releases.empty()) return;  // release_local calls again
  const std::uint64_t due = w.releases.front();
  if (due > system_.now_cycle()) {
    system_.at(due, [this, gid] { try_release(gid); });
    return;
  }
  if (w.waiting) w.waiting->release_cycle = due;
  if (w.reducing) {
    // A result reaches this NI before its release, or with it.
    NiReduce& r = *w.reducing;
    r.release_cycle = due;
    r.words.clear();
    r.result_cycle = 0;
    if (!w.results.empty()) {
      r.result_cycle = w.results.front().first;
      r.words = std::move(w.results.front().second);
      w.results.erase(w.results.begin());
    }
  }
  w.releases.erase(w.releases.begin());
  w.waiting = nullptr;
  w.reducing = nullptr;
  barrier_waiting_ = -1;
  Done done = std::move(w.done);
  done();
}

void NetworkInterface::release_local(std::uint8_t gid, std::uint64_t cycle) {
  auto it = waits_.find(gid);
  if (it == waits_.end()) return;  // the group was freed: nobody is waiting
  GroupWait& w = it->second;
  w.releases.push_back(cycle);
  if (w.waiting || w.reducing) system_.at(cycle, [this, gid] { try_release(gid); });
}

// The software fallback is never faster than the barrier unit it stands in for: each
// register operation in node memory takes trm, as the unit does, and every message the
// NI's software sends pays a start-up ts (docs/barrier-fallback.md).
void NetworkInterface::soft_arrive(BarrierRegister& reg, std::uint8_t slot, std::uint64_t cycle) {
  if (auto m = reg.on_arrive(slot, node_)) soft_emit(*m, cycle + system_.config().timing.trm);
}

void NetworkInterface::soft_emit(const Flit& m, std::uint64_t cycle) {
  const std::uint64_t ts = system_.config().timing.ts;
  if (m.dest == node_) {
    // Reduction complete at a root kept in software: one start-up, then distribution.
    soft_release(m.gid, cycle + ts, cycle + ts);
  } else {
    inject(m, cycle + ts);
  }
}

void NetworkInterface::soft_release(std::uint8_t gid, std::uint64_t local_at,
                                    std::uint64_t children_at) {
  auto soft = soft_.find(gid);
  if (soft == soft_.end()) return;
  for (const Flit& m : soft->second.on_release(node_)) {
    if (m.dest == node_) release_local(gid, local_at);
    else inject(m, children_at);  // one start-up; the channel sends them back to back
  }
}

void NetworkInterface::on_eject(const Flit& f, std::uint64_t cycle) {
  if (!f.sync) {
    Mailbox& mb = mailbox();
    Assembly& a = mb.assembling[f.packet];
    a.src = f.src;
    // A multicast copy starts with the addresses still ahead of it; they are routing
    // information, not the message.
    if (f.mcast ? !f.addr : !f.head) a.words.push_back(f.payload);
    if (f.tail) {
      NiReceive got{{}, a.src, std::move(a.words), cycle, f.packet, f.mcast, {}};
      mb.assembling.erase(f.packet);
      if (f.tree) {
        if (!keep_datagram(f.gid)) return;
        got.tree = f.gid;
      }
      mb.inbox.push_back(std::move(got));
      if (!mb.waiting.empty()) system_.at(cycle, [this] { try_receive(); });
    }
    return;
  }
  if (f.dest != node_) return;  // cannot happen: routers eject only at the destination
  if (f.head && f.tail) {
    on_sync(f, nullptr, cycle);
    return;
  }
  // A reduction message, whole at its tail. One sender's messages of a group reach us one
  // after the other (the Local output's VC is held from head to tail).
  const auto key = std::make_pair(f.src, f.gid);
  if (f.head) {
    sync_assembly_[key] = SyncAssembly{f, {}, {}, 1};
    return;
  }
  const auto it = sync_assembly_.find(key);
  if (it == sync_assembly_.end()) throw std::logic_error("a sync body flit with no head before it at an NI");
  SyncAssembly& a = it->second;
  if (a.pos == 1) {
    const auto d = ReductionDescriptor::unpack(f.payload);
    if (!d) throw std::logic_error("a reduction message at an NI with a descriptor that names no operation");
    a.desc = *d;
    a.words.assign(d->words(), 0);
  } else {
    store_half(a.words.data(), a.pos, f.payload);
  }
  ++a.pos;
  if (!f.tail) return;
  SyncAssembly whole = std::move(a);
  sync_assembly_.erase(it);
  on_sync(whole.head, &whole.words, cycle);
}

void NetworkInterface::on_sync(const Flit& f, std::vector<std::uint32_t>* words, std::uint64_t cycle) {
  auto soft = soft_.find(f.gid);
  if (words && soft != soft_.end())
    throw std::logic_error("a reduction message for gid " + std::to_string(f.gid) +
                           " reached a register kept in node memory, which reduces nothing");
  const auto keep_result = [&] {
    if (!words) return;
    auto w = waits_.find(f.gid);
    if (w != waits_.end()) w->second.results.emplace_back(cycle, std::move(*words));
  };
  if (f.stype == SyncType::Arrive) {
    if (soft != soft_.end()) {
      soft_arrive(soft->second, f.data, cycle);
    } else if (hardware_roots_.count(f.gid)) {
      // The root register finished the reduction (a reduce's result with it): the root's
      // start-up for distribution.
      keep_result();
      inject(make_sync(SyncType::Release, f.gid, node_, node_, Route::XY, 0), cycle + system_.config().timing.ts);
    }
  } else if (f.stype == SyncType::Release) {
    if (soft != soft_.end()) {
      // Processing (trm), then our own release; the children's also need a start-up.
      const Timing& t = system_.config().timing;
      soft_release(f.gid, cycle + t.trm, cycle + t.trm + t.ts);
    } else {
      keep_result();  // an allreduce's
      release_local(f.gid, cycle);
    }
  }
}

std::string NetworkInterface::waiting_for() const {
  const Coord c = system_.mesh().coord(node_);
  const std::string where = "node (" + std::to_string(c.x) + "," + std::to_string(c.y) + ")";
  if (barrier_waiting_ >= 0)
    return where + " waiting for the release of gid " + std::to_string(barrier_waiting_);
  if (mail_ && !mail_->waiting.empty()) {
    const NiMatch& m = mail_->waiting.front().cmd->match;
    std::string what = m.kind == NiMatch::Kind::Multicast ? " for a multicast copy"
                       : m.kind == NiMatch::Kind::Message ? " for a message"
                                                          : "";
    if (m.from) {
      const Coord f = system_.mesh().coord(*m.from);
      what += " from (" + std::to_string(f.x) + "," + std::to_string(f.y) + ")";
    }
    return where + " waiting in receive" + what;
  }
  return {};
}

}  // namespace meshsync
