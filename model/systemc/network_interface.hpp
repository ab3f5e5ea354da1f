// A node's network interface: the only door between the node's software and the
// network. Software reaches it through a TLM-2.0 target socket; it charges the start-up
// t_s, turns messages into flits, and holds barrier registers in node memory for groups
// whose router had no free register (the software fallback, docs/barrier-fallback.md).
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <set>
#include <unordered_map>

#include <systemc>
#include <tlm>

#include "../core/barrier_register.hpp"
#include "ni_protocol.hpp"

namespace meshsync {

class MeshSystem;

class NetworkInterface : public sc_core::sc_module, private tlm::tlm_fw_transport_if<> {
 public:
  // A plain socket bound to ourselves: a 64x64 mesh has 4096 of them, and the
  // convenience sockets' extra internal objects cost more to elaborate than the
  // simulation of a barrier.
  tlm::tlm_target_socket<> socket;

  NetworkInterface(sc_core::sc_module_name name, NodeId node, MeshSystem& system);

  // A flit leaving the router's Local output, delivered in `cycle`.
  void on_eject(const Flit& f, std::uint64_t cycle);

  // Whether a process is blocked here waiting for something (for end-of-run checks).
  std::string waiting_for() const;
  std::size_t software_groups() const { return soft_.size(); }

 private:
  void b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) override;
  // Software talks to its NI with blocking transport only.
  tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& trans, tlm::tlm_phase&,
                                     sc_core::sc_time&) override;
  bool get_direct_mem_ptr(tlm::tlm_generic_payload&, tlm::tlm_dmi&) override { return false; }
  unsigned int transport_dbg(tlm::tlm_generic_payload&) override { return 0; }
  void do_send(NiSend& cmd);
  void do_receive(NiReceive& cmd);
  void do_program(NiProgram& cmd);
  void do_free(NiGroup& cmd);
  void do_barrier(NiGroup& cmd);
  void do_cs_path(const NiCsPath& cmd, SyncType type);

  // Software fallback: apply the register's rules in node memory, each forwarded
  // message paying one start-up.
  void soft_arrive(BarrierRegister& reg, std::uint8_t slot, std::uint64_t cycle);
  void soft_emit(const Flit& m, std::uint64_t cycle);
  void soft_release(std::uint8_t gid, std::uint64_t local_at, std::uint64_t children_at);
  void release_local(std::uint8_t gid, std::uint64_t cycle);
  void inject(const Flit& f, std::uint64_t cycle);

  struct GroupWait {
    std::deque<std::uint64_t> releases;  // cycles of releases not yet taken, one per epoch
    sc_core::sc_event released;
  };
  // Blocks the calling process until `due` is non-empty and its front is due, i.e. the
  // cycle it holds has come; an event may announce several future items.
  template <typename Queue, typename CycleOf>
  void wait_until_due(const Queue& due, sc_core::sc_event& announced, CycleOf cycle_of);
  struct Assembly {
    NodeId src = 0;
    std::vector<std::uint32_t> words;
  };

  NodeId node_;
  MeshSystem& system_;
  std::map<std::uint8_t, BarrierRegister> soft_;  // registers kept in node memory
  std::set<std::uint8_t> hardware_roots_;         // groups whose root register is ours
  std::map<std::uint8_t, GroupWait> waits_;
  std::unordered_map<std::uint64_t, Assembly> assembling_;
  std::deque<NiReceive> inbox_;
  sc_core::sc_event inbox_event_;
  bool receiving_ = false;
  int barrier_waiting_ = -1;
};

}  // namespace meshsync
