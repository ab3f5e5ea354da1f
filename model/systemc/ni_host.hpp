// What a network interface needs of the mesh it sits in: the clock, the timing, a way to
// inject flits and to write its router's barrier registers, and the scoreboard that
// checks what it sends. MeshSystem owns the interfaces and implements this; the
// interface depends only on these few calls, so neither header includes the other.
#pragma once

#include <cstdint>
#include <functional>

#include <systemc>

#include "../core/router/barrier_register_file.hpp"
#include "../core/config.hpp"
#include "../core/flit.hpp"
#include "../core/packet.hpp"

namespace meshsync {

class NiHost {
 public:
  // One network clock period; the papers' nanoseconds are cycles at 1 GHz.
  static sc_core::sc_time cycle_time() { return sc_core::sc_time(1, sc_core::SC_NS); }

  virtual const NetworkConfig& config() const = 0;
  virtual const MeshShape& mesh() const = 0;
  virtual std::uint64_t now_cycle() const = 0;
  // `fn` runs at the start of `cycle` (>= now), in the order of cycle, then of the calls.
  virtual void at(std::uint64_t cycle, std::function<void()> fn) = 0;
  // Hands a flit to node's injection channel `channel` (0..ni_ports-1) at `cycle` (>= now).
  virtual void inject(NodeId node, const Flit& f, std::uint64_t cycle, int channel = 0) = 0;
  virtual std::uint64_t new_packet_id() = 0;
  virtual Scoreboard& scoreboard() = 0;
  // The node's register port: the write acts at the end of the cycle, `done` gets the
  // outcome in the next one. `s` must stay valid until then.
  virtual void program_register(NodeId node, const BarrierRegisterSetup& s, std::function<void(bool)> done) = 0;
  virtual void free_register(NodeId node, std::uint8_t gid, std::function<void(bool)> done) = 0;
  // Extra loss of tree multicast copies at the NIs: probability and the seed of the draws.
  virtual double datagram_loss() const = 0;
  virtual std::uint64_t datagram_loss_seed() const = 0;
  // Words of a vector node's router reduces: the configuration's, or an RTL router's own
  // (NetworkCore::reduce_words).
  virtual std::uint32_t reduce_words(NodeId node) const = 0;

 protected:
  ~NiHost() = default;
};

}  // namespace meshsync
