// One RouterCore (the C++ model) and one Verilated meshsync_router driven with the same
// stimulus, compared at every cycle: the flits granted on every output (valid, VC and the
// hardware fields of the flit), the credits returned, reg_ok, the injection channel's
// ready, the error output and the idle output. The comparison is the mesh
// co-simulation's (model/cosim/lockstep_check.hpp): when either side reports an error,
// only the error output is compared in that cycle.
//
// A cycle c is two calls: step_model() notes the model's idle() (its state at the start
// of cycle c: the arrivals of c are in its buffers, the pops of c not yet done; that is
// what the RTL's idle_o shows in c) and runs the model's step(c) (the bench may look at
// its outputs and state to choose the stimulus), then apply(stimulus) presents the
// stimulus to the RTL, evaluates and compares cycle c, applies the software register
// command and the arrivals to the model as they take effect at the clock edge (receive
// with arrival c + 1, return_credit usable in c + 1), and clocks the RTL. (The model
// classifies a flit as it receives it and may refuse it then, a multidestination worm's
// stray flit, where the RTL raises error_o on the flit presented: when only the RTL
// reports an error in c, the arrivals go first, and a refusal is the model's error of c.)
// The bench never
// calls inject(): the NI's injection channels are inputs (Local, and an all-port router's
// inputs 5-7), fed through receive()/receive_injected(), so the model's source queues
// stay empty and idle() means "no flit in any input FIFO and no message in any outbox",
// exactly idle_o.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "model/core/router_core.hpp"
#include "model/cosim/lockstep_check.hpp"
#include "rtl_router.hpp"

namespace meshsync::rtl {

struct RegCommand {
  RegOp op = RegOp::None;
  BarrierRegisterSetup setup;  // Program
  std::uint8_t gid = 0;        // Free
};

struct Stimulus {
  std::array<std::optional<Flit>, kRtlInputs> in;  // arriving in the next cycle (inputs 5-7: all-port)
  std::array<std::array<bool, kRtlVcs>, kPorts> credit{};  // usable in the next cycle
  RegCommand reg;
};

class Lockstep {
 public:
  Lockstep(std::unique_ptr<RtlRouter> rtl, Coord where);

  std::uint64_t cycle() const { return cycle_; }
  const MeshShape& mesh() const { return mesh_; }
  const NetworkConfig& config() const { return cfg_; }
  Coord where() const { return where_; }
  NodeId self() const { return mesh_.id(where_); }
  RouterCore& model() { return *model_; }
  const RtlParams& params() const { return rtl_->params(); }
  std::uint32_t depth(int vc) const {
    return cfg_.router.depth(vc);
  }
  // Inputs of the router (5, or 8 with an all-port NI).
  int inputs() const { return params().inputs(); }
  // Flits buffered at input `i` (the RTL numbering), VC `vc`, in the model.
  std::size_t buffered(int i, int vc) const;

  // The model's cycle. Call exactly once before each apply().
  const ModelCycle& step_model();
  // The RTL's cycle with `s`; false at the first difference (see mismatch()).
  bool apply(const Stimulus& s);

  const std::string& mismatch() const { return mismatch_; }
  // The model's words for the first protocol violation it raised (empty before one).
  const std::string& violation() const { return violation_; }
  const RtlOutputs& rtl_outputs() const { return rtl_out_; }
  bool model_reg_ok() const { return model_reg_ok_; }
  std::uint64_t flits_compared() const { return flits_compared_; }
  std::uint64_t credits_compared() const { return credits_compared_; }
  // Cycles in which both said idle.
  std::uint64_t idle_cycles() const { return idle_cycles_; }

 private:
  bool fail(const std::string& what);
  bool receive_arrivals(const Stimulus& s);
  void trace(const Stimulus& s, const RtlInputs& in) const;

  std::unique_ptr<RtlRouter> rtl_;
  Coord where_;
  MeshShape mesh_;
  std::vector<Coord> coords_;
  NetworkConfig cfg_;
  std::unique_ptr<RouterCore> model_;
  std::uint64_t cycle_ = 0;
  bool stepped_ = false;
  ModelCycle model_cycle_;  // step_core(): outputs, idle() before step(cycle_), error
  RtlOutputs rtl_out_;
  bool model_reg_ok_ = false;
  std::string mismatch_;
  std::string violation_;
  std::uint64_t flits_compared_ = 0;
  std::uint64_t credits_compared_ = 0;
  std::uint64_t idle_cycles_ = 0;
  bool trace_ = false;
};

}  // namespace meshsync::rtl
