#include "lockstep_check.hpp"

#include <sstream>
#include <stdexcept>

namespace meshsync::rtl {

namespace {

class CaptureLinks final : public RouterLinks {
 public:
  explicit CaptureLinks(ModelCycle& out) : out_(out) {}
  void flit_out(NodeId, int port, const Flit& f, std::uint64_t) override {
    if (out_.out[port]) throw std::logic_error("model granted two flits to one output");
    out_.out[port] = f;
  }
  void credit_out(NodeId, int port, int vc, std::uint64_t) override { out_.credit[port][vc] = true; }
  void injection_pop(NodeId, int channel, int vc, std::uint64_t) override { out_.injection_pop[channel][vc] = true; }

 private:
  ModelCycle& out_;
};

std::string describe_output(bool valid, int vc, std::uint32_t bits) {
  if (!valid) return "<none>";
  std::ostringstream s;
  s << "vc " << vc << " " << describe_flit(bits);
  return s.str();
}

}  // namespace

int ModelCycle::flits() const {
  int n = 0;
  for (const auto& f : out) n += f.has_value();
  return n;
}

int ModelCycle::credits() const {
  int n = 0;
  for (const auto& port : credit)
    for (bool c : port) n += c;
  return n;
}

ModelCycle step_core(RouterCore& core, std::uint64_t c) {
  ModelCycle m;
  m.idle_before = core.idle(c);
  CaptureLinks links(m);
  try {
    core.step(c, links);
  } catch (const std::logic_error& e) {
    m.error = true;
    m.error_text = e.what();
  }
  return m;
}

ModelPorts model_ports(const RouterCore& core, RegOp op, bool reg_ok, const NetworkConfig& cfg) {
  ModelPorts p;
  p.reg_op = op;
  p.reg_ok = reg_ok;
  for (int ch = 0; ch < static_cast<int>(cfg.router.ni_ports); ++ch)
    for (int v = 0; v < cfg.router.vcs(); ++v) p.local_fits[ch][v] = core.buffered_injected(ch, v) < cfg.router.depth(v);
  return p;
}

std::string compare_cycle(const ModelCycle& m, const ModelPorts& p, const RtlOutputs& r,
                          const MeshShape& mesh) {
  // When the core threw, the rest of its cycle did not run: only the error output counts.
  if (m.error || r.error) {
    if (m.error == r.error) return {};
    return std::string("error: expected ") + std::to_string(m.error) +
           (m.error ? " (" + m.error_text + ")" : std::string()) + ", actual " + std::to_string(r.error);
  }
  for (int o = 0; o < kRtlOutputs; ++o) {
    const auto& f = m.out[o];
    const bool mv = f.has_value();
    const int mvc = mv ? f->vc() : 0;
    const std::uint32_t mbits = mv ? encode_flit(*f, mesh) : 0;
    if (mv != r.out_valid[o] || (mv && (mvc != r.out_vc[o] || mbits != r.out_flit[o])))
      return std::string("port ") + output_label(o) + ": expected " + describe_output(mv, mvc, mbits) +
             ", actual " + describe_output(r.out_valid[o], r.out_vc[o], r.out_flit[o]);
  }
  for (int o = 0; o < kPorts; ++o)
    for (int v = 0; v < kRtlVcs; ++v)
      if (m.credit[o][v] != r.credit_out[o][v])
        return std::string("port ") + port_label(o) + ": credit out VC " + std::to_string(v) +
               ": expected " + std::to_string(m.credit[o][v]) + ", actual " +
               std::to_string(r.credit_out[o][v]);
  for (int ch = 0; ch < kMaxNiChannels; ++ch)
    for (int v = 0; v < kRtlVcs; ++v)
      if (m.injection_pop[ch][v] != r.injection_pop[ch][v])
        return "injection channel " + std::to_string(ch) + ": inj_pop VC " + std::to_string(v) +
               ": expected " + std::to_string(m.injection_pop[ch][v]) + ", actual " +
               std::to_string(r.injection_pop[ch][v]);
  if (p.reg_op != RegOp::None && p.reg_ok != r.reg_ok)
    return std::string("reg_ok (") + (p.reg_op == RegOp::Program ? "program" : "free") +
           "): expected " + std::to_string(p.reg_ok) + ", actual " + std::to_string(r.reg_ok);
  for (int ch = 0; ch < kMaxNiChannels; ++ch)
    for (int v = 0; v < kRtlVcs; ++v)
      if (p.local_fits[ch][v] != r.local_ready[ch][v])
        return "injection channel " + std::to_string(ch) + ": local_ready VC " + std::to_string(v) +
               ": expected " + std::to_string(p.local_fits[ch][v]) + ", actual " +
               std::to_string(r.local_ready[ch][v]);
  if (m.idle_before != r.idle)
    return "idle: expected " + std::to_string(m.idle_before) + ", actual " + std::to_string(r.idle);
  return {};
}

}  // namespace meshsync::rtl
