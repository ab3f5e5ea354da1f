// A node's network interface: the only door between the node's software and the
// network. Software reaches it through the TLM-2.0 forward transport interface, blocking
// (b_transport, for a software thread) or non-blocking (nb_transport_fw with the base
// protocol's BEGIN_REQ / BEGIN_RESP, for software written as callbacks, which needs no
// thread of its own); it charges the start-up t_s, turns messages into flits, and holds
// barrier registers in node memory for groups whose router had no free register (the
// software fallback, docs/barrier-fallback.md).
//
// It is a plain object, not a module with a socket: a 1024x1024 mesh cannot elaborate a
// million modules and sockets, and MeshSystem creates an interface only when its node's
// software or a flit first reaches it.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <unordered_map>
#include <vector>

#include <systemc>
#include <tlm>

#include "../core/router/barrier_register_file.hpp"
#include "../core/random.hpp"
#include "ni_host.hpp"
#include "ni_protocol.hpp"

namespace meshsync {

class NetworkInterface : private tlm::tlm_fw_transport_if<> {
 public:
  NetworkInterface(NodeId node, NiHost& system);

  // The target side of the node's transport; `initiator` receives the responses of
  // non-blocking transport (BEGIN_RESP on its nb_transport_bw).
  tlm::tlm_fw_transport_if<>& bind(tlm::tlm_bw_transport_if<>& initiator) {
    bw_ = &initiator;
    return *this;
  }

  // A flit leaving the router's Local output, delivered in `cycle`.
  void on_eject(const Flit& f, std::uint64_t cycle);

  // Whether software is waiting here for something (for end-of-run checks).
  std::string waiting_for() const;
  std::size_t software_groups() const { return soft_.size(); }
  // Tree multicast copies that reached this NI: kept (a receive was posted for the group),
  // dropped for want of one, dropped by the configured extra loss.
  struct DatagramCounts {
    std::uint64_t kept = 0, unposted = 0, lost = 0;
  };
  const DatagramCounts& datagrams() const { return datagrams_; }
  // Releases of `gid` that reached this node with no barrier call left to take them (a
  // release delivered twice would free the member's next barrier early).
  std::size_t unclaimed_releases(std::uint8_t gid) const {
    const auto w = waits_.find(gid);
    return w == waits_.end() ? 0 : w->second.releases.size();
  }

 private:
  using Done = std::function<void()>;
  void b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) override;
  tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& trans, tlm::tlm_phase& phase,
                                     sc_core::sc_time& delay) override;
  bool get_direct_mem_ptr(tlm::tlm_generic_payload&, tlm::tlm_dmi&) override { return false; }
  unsigned int transport_dbg(tlm::tlm_generic_payload&) override { return 0; }

  // Every command, once: starts it in the current cycle and calls `done` when it has
  // finished (at once, or later from the simulation's own processes). Both transports
  // are wrappers around it, so a command has one behaviour and one timing.
  void start(tlm::tlm_generic_payload& trans, Done done);
  void respond(tlm::tlm_generic_payload& trans);
  // When a send's caller is free again and when its head enters the router.
  struct SendTimes {
    std::uint64_t returns, enters;
  };
  SendTimes send_times(const std::optional<SendCost>& cost);
  void do_send(NiSend& cmd, Done done);
  void do_multicast(NiMulticast& cmd, Done done);
  void do_tree_multicast(NiTreeMulticast& cmd, Done done);
  void do_listen(const NiListen& cmd);
  // A tree copy's tail is here: keep it (true), or drop it (no receive posted, or lost).
  bool keep_datagram(std::uint8_t gid);
  void do_receive(NiReceive& cmd, Done done);
  void do_program(NiProgram& cmd, Done done);
  void do_free(NiGroup& cmd, Done done);
  void do_barrier(NiGroup& cmd, Done done);
  void do_reduce(NiReduce& cmd, Done done);
  // A sync message for this node, whole (a reduction message's vector assembled).
  void on_sync(const Flit& head, std::vector<std::uint32_t>* words, std::uint64_t cycle);
  void do_cs_path(const NiCsPath& cmd, SyncType type, Done done);
  // Hand the waiting command what it waits for once it is due (its cycle has come).
  void try_receive();
  void try_release(std::uint8_t gid);

  // Software fallback: apply the register's rules in node memory, each forwarded
  // message paying one start-up.
  void soft_arrive(BarrierRegister& reg, std::uint8_t slot, std::uint64_t cycle);
  void soft_emit(const Flit& m, std::uint64_t cycle);
  void soft_release(std::uint8_t gid, std::uint64_t local_at, std::uint64_t children_at);
  void release_local(std::uint8_t gid, std::uint64_t cycle);
  void inject(const Flit& f, std::uint64_t cycle);

  struct GroupWait {
    std::vector<std::uint64_t> releases;  // cycles of releases not yet taken, one per epoch
    // Results of in-network reductions not yet taken (cycle, words), one per epoch that
    // brought one here.
    std::vector<std::pair<std::uint64_t, std::vector<std::uint32_t>>> results;
    NiGroup* waiting = nullptr;           // the barrier command waiting for its release
    NiReduce* reducing = nullptr;         // ... or the reduction command
    Done done;
  };
  // A reduction message arriving from the router, per (sender, group): its flits so far.
  struct SyncAssembly {
    Flit head;
    ReductionDescriptor desc;
    std::vector<std::uint32_t> words;
    std::uint32_t pos = 1;
  };
  struct Assembly {
    NodeId src = 0;
    std::vector<std::uint32_t> words;
  };
  // Ordinary messages: only nodes that receive one pay for this.
  struct Mailbox {
    std::unordered_map<std::uint64_t, Assembly> assembling;
    std::deque<NiReceive> inbox;  // delivered, not yet taken, in delivery order
    struct Waiting {
      NiReceive* cmd;
      Done done;
    };
    std::vector<Waiting> waiting;  // receive commands, in the order they were issued
  };
  Mailbox& mailbox();

  NodeId node_;
  NiHost& system_;
  tlm::tlm_bw_transport_if<>* bw_ = nullptr;
  // The innermost nb_transport_fw in progress, and where it notes that its command
  // finished before it returned. Software started by one command's completion may call
  // in again (a receive's callback sends), so each call keeps its own flag on its stack
  // and restores the outer call's on return.
  tlm::tlm_generic_payload* starting_ = nullptr;
  bool* finished_at_once_ = nullptr;
  std::map<std::uint8_t, BarrierRegister> soft_;  // registers kept in node memory
  // SendCost::gap: the earliest cycle the next send's head may enter the router.
  std::uint64_t next_send_entry_ = 0;
  std::set<std::uint8_t> hardware_roots_;         // groups whose root register is ours
  std::set<std::uint8_t> listening_;              // groups with receives posted (NiListen)
  DatagramCounts datagrams_;
  // The extra loss's draws, made on first use: an engine is 2.5 KB, and a wafer-scale
  // mesh has a million interfaces.
  std::unique_ptr<Random> loss_rng_;
  std::map<std::uint8_t, GroupWait> waits_;
  std::map<std::pair<NodeId, std::uint8_t>, SyncAssembly> sync_assembly_;
  std::unique_ptr<Mailbox> mail_;
  int barrier_waiting_ = -1;
};

}  // namespace meshsync
