// Routers at some mesh positions that are not the C++ core: the Verilated RTL of
// model/cosim, alone or beside a shadow core in lockstep. They keep the core's port
// contract (docs/microarchitecture.md); NetworkCore hands them what it would hand a
// RouterCore and steps all that are due in a cycle together, after the cores, so that a
// signal-level simulator can evaluate them in one pass.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "router/barrier_register_file.hpp"
#include "flit.hpp"
#include "router_core.hpp"

namespace meshsync {

class ExternalRouter {
 public:
  virtual ~ExternalRouter() = default;
  // Each of these returns the first cycle in which the router must be stepped for it
  // (a signal-level router sees an input in the cycle before it takes effect).
  virtual std::uint64_t inject(const Flit& f, std::uint64_t cycle, int channel) = 0;
  virtual std::uint64_t receive(Port in, const Flit& f, std::uint64_t arrival) = 0;
  virtual std::uint64_t return_credit(Port out, int vc, std::uint64_t cycle) = 0;
  // The software's register port in `cycle`: it acts at the edge that ends the cycle;
  // register_ok() has the outcome once the router was stepped in that cycle.
  virtual std::uint64_t program_register(const BarrierRegisterSetup& s, std::uint64_t cycle) = 0;
  virtual std::uint64_t free_register(std::uint8_t gid, std::uint64_t cycle) = 0;
  virtual bool register_ok() const = 0;
  // After a step in `cycle`: the next cycle with work, or kNever.
  virtual std::uint64_t next_wake(std::uint64_t cycle) const = 0;
  virtual void describe_stuck(std::vector<std::string>& out) const = 0;
  // Whether it carries tree worms (docs/tree-multicast.md): single RTL routers do, the
  // RTL mesh block's boundary does not.
  virtual bool carries_tree_worms() const { return true; }
  // Words of a vector its barrier registers reduce (RTL ReduceWords; 0: none, as at the
  // RTL mesh block's boundary, which carries no reduction messages).
  virtual std::uint32_t reduce_words() const { return 0; }
};

class ExternalRouters {
 public:
  virtual ~ExternalRouters() = default;
  // The router at `n`, or nullptr where the C++ core runs.
  virtual ExternalRouter* at(NodeId n) = 0;
  // One cycle of every router in `due`; their flits and credits go to `links`. Returns
  // true if any flit moved. Throws (e.g. a lockstep difference) to stop the simulation.
  virtual bool step(std::uint64_t cycle, const std::vector<NodeId>& due, RouterLinks& links) = 0;
};

}  // namespace meshsync
