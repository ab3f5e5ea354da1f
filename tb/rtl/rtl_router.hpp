// The Verilated meshsync_router seen through its ports, whatever its parameters: every
// configuration is its own Verilated class (Vrouter_<name>), the benches use this
// interface. The port values (RtlInputs, RtlOutputs) and the parameters (RtlParams) are
// the mesh co-simulation's (model/cosim/rtl_ports.hpp).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>

#include <verilated.h>

#include "model/cosim/rtl_ports.hpp"

namespace meshsync::rtl {

class RtlRouter {
 public:
  virtual ~RtlRouter() = default;
  virtual const RtlParams& params() const = 0;
  // Synchronous reset (two clock edges) at coordinates (x, y).
  virtual void reset(int x, int y) = 0;
  // Presents `in` and evaluates the combinational outputs of the current cycle.
  virtual RtlOutputs eval(const RtlInputs& in) = 0;
  // The clock edge that ends the current cycle.
  virtual void clock() = 0;
  // An RTL assertion (Verilator --assert) has failed; Verilator printed which.
  virtual bool assertion_failed() const = 0;
};

template <class V>
class VerilatedRouter final : public RtlRouter {
 public:
  explicit VerilatedRouter(RtlParams p)
      : params_(std::move(p)), ctx_(std::make_unique<VerilatedContext>()),
        m_(std::make_unique<V>(ctx_.get(), params_.name.c_str())) {
    ctx_->fatalOnError(false);  // a failed assertion is counted and reported, not fatal
  }
  ~VerilatedRouter() override { m_->final(); }

  const RtlParams& params() const override { return params_; }

  void reset(int x, int y) override {
    x_ = x;
    y_ = y;
    apply(RtlInputs{});
    m_->rst_ni = 0;
    m_->clk_i = 0;
    m_->eval();
    clock();
    clock();
    m_->rst_ni = 1;
    m_->eval();
  }

  RtlOutputs eval(const RtlInputs& in) override {
    apply(in);
    m_->eval();
    RtlOutputs o;
    for (int p = 0; p < kPorts; ++p) {
      o.out_valid[p] = (m_->out_valid_o >> p) & 1u;
      o.out_vc[p] = static_cast<std::uint8_t>((m_->out_vc_o >> (2 * p)) & 3u);
      o.out_flit[p] = m_->out_flit_o[p];
      for (int v = 0; v < kRtlVcs; ++v) o.credit_out[p][v] = (m_->credit_out_o >> (p * kRtlVcs + v)) & 1u;
    }
    for (int v = 0; v < kRtlVcs; ++v) o.local_ready[v] = (m_->local_ready_o >> v) & 1u;
    o.reg_ok = m_->reg_ok_o;
    o.error = m_->error_o;
    o.idle = m_->idle_o;
    return o;
  }

  void clock() override {
    m_->clk_i = 1;
    m_->eval();
    m_->clk_i = 0;
    m_->eval();
  }
  bool assertion_failed() const override { return ctx_->errorCount() > 0; }

 private:
  void apply(const RtlInputs& in) {
    m_->my_x_i = static_cast<std::uint32_t>(x_);
    m_->my_y_i = static_cast<std::uint32_t>(y_);
    std::uint32_t valid = 0, vc = 0, credit = 0;
    for (int p = 0; p < kPorts; ++p) {
      valid |= static_cast<std::uint32_t>(in.in_valid[p]) << p;
      vc |= static_cast<std::uint32_t>(in.in_vc[p] & 3u) << (2 * p);
      m_->in_flit_i[p] = in.in_flit[p];
      for (int v = 0; v < kRtlVcs; ++v)
        credit |= static_cast<std::uint32_t>(in.credit_in[p][v]) << (p * kRtlVcs + v);
    }
    m_->in_valid_i = valid;
    m_->in_vc_i = vc;
    m_->credit_in_i = credit;
    m_->reg_op_i = static_cast<std::uint32_t>(in.reg_op);
    m_->reg_gid_i = in.reg_gid;
    m_->reg_parent_valid_i = in.reg_parent_valid;
    m_->reg_parent_x_i = static_cast<std::uint32_t>(in.reg_parent_x);
    m_->reg_parent_y_i = static_cast<std::uint32_t>(in.reg_parent_y);
    m_->reg_route_i = in.reg_route;
    m_->reg_slot_i = in.reg_slot;
    m_->reg_transit_i = in.reg_transit;
    m_->reg_num_children_i = static_cast<std::uint32_t>(in.reg_num_children);
    const int xw = bits(params_.mesh_w), yw = bits(params_.mesh_h);
    std::uint64_t cx = 0, cy = 0, cr = 0;
    for (int j = 0; j < params_.max_children; ++j) {
      cx |= static_cast<std::uint64_t>(in.reg_child_x[j]) << (j * xw);
      cy |= static_cast<std::uint64_t>(in.reg_child_y[j]) << (j * yw);
      cr |= static_cast<std::uint64_t>(in.reg_child_route[j]) << j;
    }
    m_->reg_child_x_i = static_cast<std::remove_reference_t<decltype(m_->reg_child_x_i)>>(cx);
    m_->reg_child_y_i = static_cast<std::remove_reference_t<decltype(m_->reg_child_y_i)>>(cy);
    m_->reg_child_route_i = static_cast<std::remove_reference_t<decltype(m_->reg_child_route_i)>>(cr);
  }
  static int bits(int n) {
    int b = 1;
    while ((1 << b) < n) ++b;
    return b;
  }

  RtlParams params_;
  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<V> m_;
  int x_ = 0;
  int y_ = 0;
};

// The configurations this test binary was built with (models.cpp).
std::unique_ptr<RtlRouter> make_rtl_router(const std::string& name);
RtlParams rtl_params(const std::string& name);

}  // namespace meshsync::rtl
