// Path-based multicast plans (Al-Dubai et al., with the readings of NOTES-multicast.md):
// which multidestination worms each message-passing step sends, in which delivery order
// and along which nodes. Pure functions of the mesh, the source and the destination set:
// the simulator and the analytic zero-load latency both read the same plan.
//   DP  dual-path: at most two worms, one per snake subnetwork (Lin and Ni)
//   MP  multi-path: DP split into the source's four quadrants, distinct first hops
//   CP  column-path: two XY worms per destination column, four per start-up
//   QG  qualified groups: the source reaches one representative per group, each
//       representative its group, both by the DP rule (at most two start-ups)
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "../../model/core/config.hpp"
#include "../../model/core/flit.hpp"
#include "../../model/core/geometry.hpp"
#include "qualified_groups.hpp"
#include "../../model/core/snake.hpp"

namespace meshsync {

enum class MulticastAlgorithm { DP, MP, CP, QG };
inline constexpr MulticastAlgorithm kAllMulticastAlgorithms[] = {
    MulticastAlgorithm::DP, MulticastAlgorithm::MP, MulticastAlgorithm::CP, MulticastAlgorithm::QG};
std::string algorithm_name(MulticastAlgorithm a);  // "dp", "mp", "cp", "qg"

// Where this project's model and the QG paper's differ, as switches (docs/multicast.md,
// "The paper's model, switch by switch"); the first value of each is the project's.
// A worm's address flits (one per destination) come on top of its data flits, or are
// part of the message's flits, as the paper's header costs nothing on top of its 32.
enum class AddressFlits { OnTop, Within };
// QG's base routing: the snake subnetworks (deadlock-free, NOTES-multicast.md section 4)
// or the paper's e-cube, XY between successive destinations (may deadlock).
enum class QgRouting { Snake, Ecube };
// A sender's CPU is free once its start-ups are paid, or "remains engaged until the
// completion" of its worms (every one at its last destination).
enum class SenderBusy { StartUps, Delivery };
inline constexpr AddressFlits kAllAddressFlits[] = {AddressFlits::OnTop, AddressFlits::Within};
inline constexpr QgRouting kAllQgRoutings[] = {QgRouting::Snake, QgRouting::Ecube};
inline constexpr SenderBusy kAllSenderBusy[] = {SenderBusy::StartUps, SenderBusy::Delivery};
std::string address_flits_name(AddressFlits a);  // "on-top", "within"
std::string qg_routing_name(QgRouting r);        // "snake", "e-cube"
std::string sender_busy_name(SenderBusy b);      // "startups", "delivery"
// The three software-side switches together, as the program and the service both take them.
struct MulticastModel {
  AddressFlits addresses = AddressFlits::OnTop;
  QgRouting qg_routing = QgRouting::Snake;
  SenderBusy sender_busy = SenderBusy::StartUps;
};

// The paper's injection (and ejection) channels per node: a step sends at most this many
// worms, one per channel.
inline constexpr std::size_t kInjectionChannels = 4;

// One multidestination worm. Its head carries `dests`; every node in `dests` takes a copy
// (absorb and forward) and the last one consumes it.
struct Worm {
  std::vector<NodeId> dests;  // delivery order
  std::vector<NodeId> path;   // every node after the sender, in order; ends at dests.back()
  std::vector<int> dest_hops; // hops from the sender to each of `dests`
  bool xy = false;            // base routing: XY (CP), else the snake subnetwork below
  Subnetwork subnetwork = Subnetwork::High;
  // MP: the port the worm must leave the sender by, carried in its head (Local: none, the
  // base routing decides). path.front() is the node behind it.
  Port first_hop = Port::Local;
  int hops() const { return static_cast<int>(path.size()); }
  WormBase base() const;  // the routers' name for its base routing
};

// One start-up at `sender`: up to kInjectionChannels worms leave together.
struct MulticastStep {
  NodeId sender = 0;
  int job_step = 0;      // j: this is the sender's (j+1)-th step for this multicast
  int startups = 1;      // start-ups from the multicast call until this step's worms leave
  std::vector<Worm> worms;
};

struct MulticastPlan {
  MulticastAlgorithm algorithm = MulticastAlgorithm::DP;
  NodeId source = 0;
  std::vector<MulticastStep> steps;  // a step's sender was reached by an earlier step
  QgPartition groups;                // QG only: the groups its steps serve

  // Start-ups on the longest chain to a destination: DP, MP 1; CP ceil(worms/4); QG <= 2.
  int startups() const;
  std::size_t worms() const;
  std::uint64_t hops() const;  // links crossed by all worms
};

// Throws ConfigError (one line) for an empty list, a node outside the mesh, a duplicate
// or the source among the destinations.
void check_multicast(const MeshShape& mesh, NodeId source, const std::vector<NodeId>& dests);

// DP's two worms from `sender` to `dests` (the rule QG also uses for both its steps).
std::vector<Worm> dual_path_worms(const MeshShape& mesh, NodeId sender, const std::vector<NodeId>& dests);

// The plan of one algorithm. QG uses `threshold` (T of Phase 3) and `qg_routing`: with
// e-cube its worms visit the DP rule's two lists in the same order, XY between them.
MulticastPlan plan_multicast(MulticastAlgorithm a, const MeshShape& mesh, NodeId source,
                             const std::vector<NodeId>& dests, double threshold = 0.5,
                             QgRouting qg_routing = QgRouting::Snake);

// The data flits of `w` for a message of `flits` flits: all of them on top of its address
// flits, or what its address flits leave (at least 1: check_worm_length).
std::uint64_t worm_data_flits(const Worm& w, std::uint64_t flits, AddressFlits a);
// Throws ConfigError when a message of `flits` flits with address flits within it cannot
// hold `destinations` of them and a data flit.
void check_worm_length(std::uint64_t flits, std::size_t destinations, AddressFlits a);

// The paper's timing model (NOTES-multicast.md section 1, reading): a step j of a node's
// job ends `prep + startup * (j + 1)` cycles after the node was reached (the source: at
// the call); a destination h hops along a worm has absorbed the tail `h * hop + flits`
// cycles after its step ended. Router delay is part of `hop`.
struct MulticastTiming {
  std::uint64_t startup = 33;
  std::uint64_t hop = 1;
  std::uint64_t flits = 32;
  std::uint64_t prep = 2;
};
// The preparation time of each algorithm in the paper: DP 2, MP 4, CP 8, QG 16 cycles.
std::uint64_t paper_prep_cycles(MulticastAlgorithm a);

// Zero-load arrival cycle of every destination, counted from the multicast call: the
// lower bound the simulator meets exactly where no two worms compete for a channel.
std::map<NodeId, std::uint64_t> zero_load_arrivals(const MulticastPlan& plan, const MulticastTiming& t);

// The same for this project's router (docs/multicast.md, "Zero-load latency"): a step
// ends `prep + ts * (j + 1)` cycles after its sender was reached, when its worms are due
// at the router. Worm i of a step takes injection channel i % ni_ports and enters the
// router at the step's end or, if later, once the flits of earlier worms on that channel
// (this step's or an earlier one's) have entered, one a cycle. A worm of k address and
// `data_flits` data flits that enters in cycle E delivers its tail at a destination h
// hops along it in cycle E + h * tp + (h + 1) * trn + (k + data_flits - 1), the unicast
// formula of k + data_flits flits (`flits` in all with AddressFlits::Within). Exact where
// no two worms compete for a link.
std::map<NodeId, std::uint64_t> router_zero_load_arrivals(const MulticastPlan& plan, const Timing& t,
                                                          std::uint64_t prep, std::uint64_t data_flits,
                                                          std::uint32_t ni_ports,
                                                          AddressFlits addresses = AddressFlits::OnTop);

}  // namespace meshsync
