// Path-based multicast as the nodes' software runs it (Al-Dubai et al.; the timing
// reading of NOTES-multicast.md section 1): the source plans the multicast, pays the
// algorithm's preparation time and one start-up per message-passing step, each step a
// NiMulticast command of up to four worms; QG's representatives receive the whole
// step-1 message, then pay preparation and a start-up again for step 2.
//
// Each node's CPU serves its jobs (its own multicasts, QG forwarding) first come, first
// served, so a busy source delays the next multicast it is asked for: the paper's hot
// spot at the source. The software runs as callbacks (MeshSystem::at and the nodes'
// non-blocking commands), not as a thread per node, so any mesh size costs only the
// nodes that take part.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "../collective/path_multicast.hpp"
#include "machine.hpp"

namespace meshsync {

struct MulticastSettings {
  MulticastAlgorithm algorithm = MulticastAlgorithm::QG;
  std::uint64_t prep = 16;         // preparation time per job, cycles (paper_prep_cycles)
  std::uint16_t data_flits = 32;   // the message, in data flits (one word each)
  double threshold = 0.5;          // QG's T
  MulticastModel model;  // the paper's model, switch by switch (path_multicast.hpp)
};

// One multicast, from the call to the tail at its last destination.
struct MulticastRecord {
  std::uint64_t id = 0;  // calls are numbered from 0 in the order they were made
  NodeId source = 0;
  std::vector<NodeId> dests;                 // as called
  std::uint64_t called = 0;                  // cycle of the call
  std::map<NodeId, std::uint64_t> arrivals;  // destination -> cycle its NI had the whole message
  std::uint64_t finished = 0;                // the last of them
  int startups = 0;  // paid on the longest chain from the call to a destination
  std::size_t worms = 0;
  std::uint64_t hops = 0;       // links crossed by all worms
  std::uint64_t zero_load = 0;  // router_zero_load_arrivals: its last destination
  std::uint64_t latency() const { return finished - called; }
};

class MulticastService {
 public:
  using Done = std::function<void(const MulticastRecord&)>;
  MulticastService(Machine& m, const MulticastSettings& s);
  MulticastService(const MulticastService&) = delete;
  MulticastService& operator=(const MulticastService&) = delete;

  // The call at `source` in the current cycle (from a callback or a driver thread).
  // `dests` must pass check_multicast. `done` runs once every destination has received
  // the whole message, exactly once and unmodified (otherwise errors() says so).
  void multicast(NodeId source, const std::vector<NodeId>& dests, Done done);

  std::size_t in_progress() const { return active_.size(); }
  std::uint64_t calls() const { return next_id_; }
  // Wrong deliveries: a copy at a node that was not its destination, twice, or with
  // other words than were sent.
  const std::vector<std::string>& errors() const { return errors_; }

 private:
  struct Active;
  // A node's part of one multicast: the plan's steps it sends, in job-step order.
  struct Job {
    std::shared_ptr<Active> multicast;
    std::vector<const MulticastStep*> steps;
  };
  struct Cpu {
    std::deque<Job> jobs;  // waiting; the front one runs while `busy`
    bool busy = false;
    // SenderBusy::Delivery: the front job's worms not yet at their last destination
    // (its CPU is released when the last one arrives).
    std::size_t in_flight = 0;
    bool sending = false;  // the front job has steps left to send
  };
  struct Inbox {
    std::uint64_t expected = 0;  // messages sent towards this node and not yet received
    bool armed = false;          // a receive is waiting at the NI
  };

  std::vector<const MulticastStep*> steps_of(const Active& a, NodeId sender) const;
  void submit(NodeId node, Job job);
  void run_job(NodeId node);
  void send_step(NodeId node, std::size_t k);
  void expect(NodeId node);
  void arm(NodeId node);
  void on_receive(NodeId node, const NiReceive& r);
  void finish_job(NodeId node);
  // A sender's CPU stays engaged until its worms reach their last destinations.
  bool holds_sender() const { return settings_.model.sender_busy == SenderBusy::Delivery; }

  Machine& machine_;
  MulticastSettings settings_;
  std::uint64_t next_id_ = 0;
  std::unordered_map<std::uint64_t, std::shared_ptr<Active>> active_;   // by id
  struct Sent {  // a worm on its way
    std::shared_ptr<Active> multicast;
    int startups = 0;  // paid from the call until it left
    std::size_t data_flits = 0;  // the words each copy carries
    NodeId sender = 0, last = 0;  // last: the worm's last destination
  };
  std::unordered_map<std::uint64_t, Sent> packets_;  // by packet id
  std::unordered_map<NodeId, Cpu> cpus_;
  std::unordered_map<NodeId, Inbox> inboxes_;
  std::vector<std::string> errors_;
};

}  // namespace meshsync
