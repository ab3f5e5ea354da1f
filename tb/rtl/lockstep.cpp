#include "lockstep.hpp"

#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <stdexcept>

namespace meshsync::rtl {

Lockstep::Lockstep(std::unique_ptr<RtlRouter> rtl, Coord where)
    : rtl_(std::move(rtl)), where_(where) {
  const RtlParams& p = rtl_->params();
  mesh_ = MeshShape{p.mesh_w, p.mesh_h};
  for (int n = 0; n < mesh_.nodes(); ++n) coords_.push_back(mesh_.coord(static_cast<NodeId>(n)));
  cfg_ = network_config(p);
  model_ = std::make_unique<RouterCore>(mesh_.id(where_), where_, cfg_, coords_.data());
  rtl_->reset(where_.x, where_.y);
  trace_ = std::getenv("MESHSYNC_LOCKSTEP_TRACE") != nullptr;
}

const ModelCycle& Lockstep::step_model() {
  // Notes idle() before step(c) pops anything: the state at the start of cycle c.
  model_cycle_ = step_core(*model_, cycle_);
  stepped_ = true;
  return model_cycle_;
}

bool Lockstep::fail(const std::string& what) {
  if (mismatch_.empty()) {
    std::ostringstream s;
    s << "cycle " << cycle_ << " " << what;
    mismatch_ = s.str();
  }
  return false;
}

bool Lockstep::apply(const Stimulus& s) {
  if (!stepped_) throw std::logic_error("Lockstep::apply without step_model");
  stepped_ = false;

  // The RTL's cycle.
  RtlInputs in;
  for (int p = 0; p < inputs(); ++p) {
    if (!s.in[p]) continue;
    in.in_valid[p] = true;
    in.in_vc[p] = static_cast<std::uint8_t>(s.in[p]->vc());
    in.in_flit[p] = encode_flit(*s.in[p], mesh_);
  }
  in.credit_in = s.credit;
  if (s.reg.op == RegOp::Program) {
    set_program(in, s.reg.setup, mesh_, params().max_children());
  } else if (s.reg.op == RegOp::Free) {
    in.reg_op = RegOp::Free;
    in.reg_gid = s.reg.gid;
  }
  rtl_out_ = rtl_->eval(in);
  if (trace_) trace(s, in);

  // The model's software command, after its step: what NetworkCore::program_register and
  // free_register do between two router steps.
  model_reg_ok_ = false;
  if (s.reg.op == RegOp::Program) model_reg_ok_ = model_->program_register(s.reg.setup);
  else if (s.reg.op == RegOp::Free) model_reg_ok_ = model_->free_register(s.reg.gid);

  // The model classifies a flit as it arrives and refuses a malformed one (a
  // multidestination worm's stray flit) then, where the RTL raises error_o on the flit it
  // is presented with: in the same cycle, so the arrivals go first when only the RTL
  // reports an error (the outputs are not compared in an error cycle).
  bool ok = true;
  const bool arrivals_first = rtl_out_.error && !model_cycle_.error;
  if (arrivals_first) ok = receive_arrivals(s);

  // Compare cycle c (local_ready against the Local buffer after the step and the command).
  const std::string diff =
      compare_cycle(model_cycle_, model_ports(*model_, s.reg.op, model_reg_ok_, cfg_), rtl_out_, mesh_);
  ok = (diff.empty() || fail(diff)) && ok;
  if (model_cycle_.error && violation_.empty()) violation_ = model_cycle_.error_text;
  if (ok && !model_cycle_.error) {
    flits_compared_ += static_cast<std::uint64_t>(model_cycle_.flits());
    credits_compared_ += static_cast<std::uint64_t>(model_cycle_.credits());
    if (model_cycle_.idle_before) ++idle_cycles_;
  }

  // The clock edge: arrivals and credits take effect for cycle c + 1.
  if (!arrivals_first) ok = receive_arrivals(s) && ok;
  for (int p = 0; p < kPorts; ++p)
    for (int v = 0; v < kRtlVcs; ++v)
      if (s.credit[p][v]) model_->return_credit(port_at(p), v, cycle_ + 1);
  rtl_->clock();
  // An assertion says more than the output difference the same bug makes in this cycle.
  if (rtl_->assertion_failed() && mismatch_.find("RTL assertion") == std::string::npos) {
    mismatch_ = "cycle " + std::to_string(cycle_) +
                " RTL assertion failed (Verilator's message above names it)";
    ok = false;
  }
  ++cycle_;
  return ok;
}

// The stimulus' flits into the model's input buffers (arrival c + 1). A flit the model
// refuses as it arrives is the model's error of cycle c.
bool Lockstep::receive_arrivals(const Stimulus& s) {
  bool ok = true;
  try {
    for (int p = 0; p < inputs(); ++p) {
      if (!s.in[p]) continue;
      const int vc = s.in[p]->vc();
      if (buffered(p, vc) >= depth(vc))
        ok = fail(std::string("stimulus error: flit into full input ") + port_label(p) + " VC " +
                  std::to_string(vc));
      else if (p < kPorts)
        model_->receive(port_at(p), *s.in[p], cycle_ + 1);
      else
        model_->receive_injected(p - kPorts + 1, *s.in[p], cycle_ + 1);
    }
  } catch (const std::logic_error& e) {
    if (!rtl_out_.error) return fail(std::string("the model refused an arrival the RTL took: ") + e.what());
    model_cycle_.error = true;
    model_cycle_.error_text = e.what();
  }
  return ok;
}

std::size_t Lockstep::buffered(int i, int vc) const {
  return i < kPorts ? model_->buffered(port_at(i), vc) : model_->buffered_injected(i - kPorts + 1, vc);
}

// MESHSYNC_LOCKSTEP_TRACE=1: every cycle's stimulus and outputs on stderr.
void Lockstep::trace(const Stimulus& s, const RtlInputs& in) const {
  const auto c = static_cast<unsigned long long>(cycle_);
  const ModelCycle& m = model_cycle_;
  for (int p = 0; p < inputs(); ++p)
    if (s.in[p])
      std::fprintf(stderr, "%llu in  %-8s vc %d %s\n", c, port_label(p), s.in[p]->vc(),
                   describe_flit(in.in_flit[p]).c_str());
  for (int o = 0; o < kRtlOutputs; ++o)
    if (m.out[o])
      std::fprintf(stderr, "%llu out %-8s vc %d %s\n", c, output_label(o), m.out[o]->vc(),
                   describe_flit(encode_flit(*m.out[o], mesh_)).c_str());
  for (int p = 0; p < kPorts; ++p) {
    for (int v = 0; v < kRtlVcs; ++v) {
      if (s.credit[p][v]) std::fprintf(stderr, "%llu credit in %s vc %d\n", c, port_label(p), v);
      if (m.credit[p][v]) std::fprintf(stderr, "%llu credit out %s vc %d\n", c, port_label(p), v);
    }
  }
  if (s.reg.op != RegOp::None)
    std::fprintf(stderr, "%llu reg %s gid %d\n", c, s.reg.op == RegOp::Program ? "program" : "free",
                 s.reg.op == RegOp::Program ? s.reg.setup.gid : s.reg.gid);
}

}  // namespace meshsync::rtl
