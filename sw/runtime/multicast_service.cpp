#include "multicast_service.hpp"

#include <algorithm>
#include <string>

namespace meshsync {

struct MulticastService::Active {
  MulticastRecord record;
  MulticastPlan plan;
  std::vector<std::uint32_t> words;  // what every destination must receive
  std::size_t open = 0;              // destinations still without it
  std::vector<std::uint64_t> packets;  // its worms so far
  std::map<NodeId, int> startups;      // paid on the chain that reached each node
  Done done;
};

namespace {

std::string where(const MeshShape& m, NodeId n) {
  return "(" + std::to_string(m.coord(n).x) + "," + std::to_string(m.coord(n).y) + ")";
}

}  // namespace

MulticastService::MulticastService(Machine& m, const MulticastSettings& s) : machine_(m), settings_(s) {}

void MulticastService::multicast(NodeId source, const std::vector<NodeId>& dests, Done done) {
  const NetworkConfig& cfg = machine_.mesh().config();
  auto a = std::make_shared<Active>();
  MulticastRecord& r = a->record;
  r.id = next_id_++;
  r.source = source;
  r.dests = dests;
  r.called = machine_.now();
  a->plan = plan_multicast(settings_.algorithm, cfg.mesh, source, dests, settings_.threshold, settings_.model.qg_routing);
  r.worms = a->plan.worms();
  r.hops = a->plan.hops();
  for (const auto& [node, cycle] :
       router_zero_load_arrivals(a->plan, cfg.worm_timing(), settings_.prep, settings_.data_flits, cfg.router.ni_ports,
                                 settings_.model.addresses))
    r.zero_load = std::max(r.zero_load, cycle);
  // Words that differ between multicasts and between flits, so that a copy delivered to
  // the wrong multicast or with a flit lost or repeated cannot match.
  for (std::uint16_t i = 0; i < settings_.data_flits; ++i)
    a->words.push_back(static_cast<std::uint32_t>(r.id * 0x9E3779B9u + i * 0x85EBCA6Bu));
  a->open = dests.size();
  a->done = std::move(done);
  active_[r.id] = a;
  submit(source, Job{a, steps_of(*a, source)});
}

std::vector<const MulticastStep*> MulticastService::steps_of(const Active& a, NodeId sender) const {
  std::vector<const MulticastStep*> out;
  for (const MulticastStep& s : a.plan.steps)
    if (s.sender == sender) out.push_back(&s);
  std::stable_sort(out.begin(), out.end(),
                   [](const MulticastStep* x, const MulticastStep* y) { return x->job_step < y->job_step; });
  return out;
}

void MulticastService::submit(NodeId node, Job job) {
  Cpu& cpu = cpus_[node];
  cpu.jobs.push_back(std::move(job));
  if (!cpu.busy) run_job(node);
}

void MulticastService::run_job(NodeId node) {
  Cpu& cpu = cpus_[node];
  cpu.busy = true;
  cpu.sending = true;
  // The preparation (dividing the destinations, building the copies) comes first; then
  // one start-up per step, the NI holding the CPU for it.
  machine_.mesh().at(machine_.now() + settings_.prep, [this, node] { send_step(node, 0); });
}

void MulticastService::send_step(NodeId node, std::size_t k) {
  const Job& job = cpus_[node].jobs.front();
  const MulticastStep& step = *job.steps[k];
  NiMulticast cmd;
  for (const Worm& w : step.worms) {
    const auto data = static_cast<std::uint16_t>(worm_data_flits(w, settings_.data_flits, settings_.model.addresses));
    cmd.worms.push_back(NiWorm{w.dests, w.base(), w.first_hop, data});
    for (NodeId d : w.dests) expect(d);
  }
  cmd.data_flits = settings_.data_flits;
  cmd.words = job.multicast->words;
  machine_.node(node).multicast(std::move(cmd), [this, node, k, &step, a = job.multicast](NiMulticast& sent) {
    // The (k+1)-th start-up of this node's job, after those that brought it the message.
    const auto before = a->startups.find(node);
    const int paid = (before == a->startups.end() ? 0 : before->second) + static_cast<int>(k) + 1;
    Cpu& cpu = cpus_[node];
    const bool hold = holds_sender();
    for (std::size_t i = 0; i < sent.packets.size(); ++i) {
      const Worm& w = step.worms[i];
      packets_[sent.packets[i]] =
          Sent{a, paid, worm_data_flits(w, settings_.data_flits, settings_.model.addresses), node, w.dests.back()};
      a->packets.push_back(sent.packets[i]);
    }
    if (hold) cpu.in_flight += sent.packets.size();
    if (k + 1 < cpu.jobs.front().steps.size()) {
      send_step(node, k + 1);
      return;
    }
    cpu.sending = false;
    if (cpu.in_flight == 0) finish_job(node);
  });
}

void MulticastService::finish_job(NodeId node) {
  Cpu& cpu = cpus_[node];
  cpu.jobs.pop_front();
  cpu.busy = false;
  if (!cpu.jobs.empty()) run_job(node);
}

void MulticastService::expect(NodeId node) {
  ++inboxes_[node].expected;
  arm(node);
}

// A node keeps one receive waiting while messages are on their way to it, and none
// otherwise, so that a finished run leaves no software blocked.
void MulticastService::arm(NodeId node) {
  Inbox& in = inboxes_[node];
  if (in.armed || in.expected == 0) return;
  in.armed = true;
  // Copies only: a broadcast's point-to-point packets to the same node are not ours.
  machine_.node(node).receive(
      [this, node](NiReceive& r) {
        Inbox& box = inboxes_[node];
        box.armed = false;
        --box.expected;
        on_receive(node, r);
        arm(node);
      },
      NiMatch{NiMatch::Kind::Multicast, std::nullopt});
}

void MulticastService::on_receive(NodeId node, const NiReceive& r) {
  const MeshShape& mesh = machine_.mesh().mesh();
  const auto found = packets_.find(r.packet);
  if (!r.multicast || found == packets_.end()) {
    errors_.push_back("node " + where(mesh, node) + " received packet " + std::to_string(r.packet) +
                      ", which no multicast sent");
    return;
  }
  const Sent sent = found->second;
  const std::shared_ptr<Active> a = sent.multicast;
  MulticastRecord& rec = a->record;
  a->startups[node] = sent.startups;
  rec.startups = std::max(rec.startups, sent.startups);
  // The worm's last copy: a sender that stays engaged until its worms are delivered is
  // free once the last of them is.
  if (holds_sender() && node == sent.last) {
    Cpu& cpu = cpus_[sent.sender];
    if (--cpu.in_flight == 0 && !cpu.sending) finish_job(sent.sender);
  }
  // Which node gets which copy, in which flit order, is the scoreboard's to check
  // (MeshSystem); here, that the message arrived whole and once (a worm whose address
  // flits are within the message carries what fits of its words).
  if (r.words.size() != sent.data_flits ||
      !std::equal(r.words.begin(), r.words.end(), a->words.begin()))
    errors_.push_back("multicast " + std::to_string(rec.id) + ": the copy at " + where(mesh, node) +
                      " differs from the message sent");
  if (!rec.arrivals.emplace(node, r.cycle).second) {
    errors_.push_back("multicast " + std::to_string(rec.id) + ": " + where(mesh, node) + " received it twice");
    return;
  }
  // QG: a representative forwards to its group once it has the whole message.
  std::vector<const MulticastStep*> steps = steps_of(*a, node);
  if (!steps.empty()) submit(node, Job{a, std::move(steps)});
  if (--a->open > 0) return;
  for (const auto& [n, cycle] : rec.arrivals) rec.finished = std::max(rec.finished, cycle);
  // Every worm has reached its last destination: no copy of this multicast is left.
  active_.erase(rec.id);
  for (std::uint64_t p : a->packets) packets_.erase(p);
  a->done(rec);
}

}  // namespace meshsync
