// One Verilated meshsync_router (Verilator's C++ output, no SystemC) seen through its
// ports, whatever its parameters: every configuration is its own Verilated class
// (Vrouter_<name>), hence the template behind the interface. The single-router RTL tests
// (tb/rtl) and the mesh co-simulation (rtl_mesh.cpp) both drive routers through it; the
// port values and parameters are rtl_ports.hpp's.
//
// Plain C++ rather than Verilator --sc: the mesh calls a router's model when it is due,
// with no signals or delta cycles between, so the routers of a mesh and of the tests are
// driven by this one piece of code.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>

#include <verilated.h>

#include "coverage.hpp"
#include "rtl_ports.hpp"

class VerilatedFstC;

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
  // An RTL assertion (Verilator --assert) failed in this router; Verilator printed which.
  virtual bool assertion_failed() const = 0;
  // Adds the router's signals to `file` (a build with FST tracing; false otherwise).
  virtual bool trace(VerilatedFstC* file) = 0;
};

namespace detail {
template <class M, class = void>
struct traces_fst : std::false_type {};
template <class M>
struct traces_fst<M, std::void_t<decltype(std::declval<M&>().trace(std::declval<VerilatedFstC*>(), 0))>>
    : std::true_type {};

// Writes `width` bits of `v` at bit `lo` of a Verilated port: an integer, or a wide
// port's 32-bit words.
template <typename T>
void put_bits(T& port, int lo, int width, std::uint64_t v) {
  const std::uint64_t mask = width >= 64 ? ~0ull : (1ull << width) - 1;
  v &= mask;
  if constexpr (std::is_integral_v<T>) {
    port = static_cast<T>(port | static_cast<T>(v << lo));
  } else {
    for (int b = 0; b < width; ++b)
      if ((v >> b) & 1u) port[static_cast<std::size_t>((lo + b) / 32)] |= 1u << ((lo + b) % 32);
  }
}
// Reads `width` (<= 32) bits at bit `lo` of a Verilated port, an integer or a wide one.
template <typename T>
std::uint32_t get_bits(const T& port, int lo, int width) {
  std::uint64_t v = 0;
  if constexpr (std::is_integral_v<T>) {
    v = static_cast<std::uint64_t>(port) >> lo;
  } else {
    for (int b = 0; b < width; ++b)
      v |= static_cast<std::uint64_t>((port[static_cast<std::size_t>((lo + b) / 32)] >> ((lo + b) % 32)) & 1u) << b;
  }
  return static_cast<std::uint32_t>(v & ((1ull << width) - 1));
}
template <typename T>
void clear_bits(T& port) {
  if constexpr (std::is_integral_v<T>) {
    port = 0;
  } else {
    for (std::size_t w = 0; w < sizeof(T) / sizeof(port[0]); ++w) port[w] = 0;
  }
}
inline int coord_bits(int n) {
  int b = 1;
  while ((1 << b) < n) ++b;
  return b;
}
}  // namespace detail

template <class V>
class VerilatedRouter final : public RtlRouter {
 public:
  // Routers of one mesh share a context (one trace file, one time); a router alone has
  // its own. `name` is the instance's scope in waveforms.
  explicit VerilatedRouter(RtlParams p, VerilatedContext* shared = nullptr, const std::string& name = "")
      : params_(std::move(p)),
        own_(shared ? nullptr : std::make_unique<VerilatedContext>()),
        ctx_(shared ? shared : own_.get()),
        m_(std::make_unique<V>(ctx_, (name.empty() ? params_.name : name).c_str())) {
    ctx_->fatalOnError(false);  // a failed assertion is counted and reported, not fatal
  }
  ~VerilatedRouter() override {
    m_->final();
    // A shared context's owner writes its coverage (rtl_mesh.cpp).
    if (own_) write_coverage(*own_, params_.name);
  }

  const RtlParams& params() const override { return params_; }

  void reset(int x, int y) override {
    x_ = x;
    y_ = y;
    apply(RtlInputs{});
    m_->rst_ni = 0;
    run();
    clock();
    m_->clk_i = 0;
    run();
    clock();
    m_->clk_i = 0;
    m_->rst_ni = 1;
    run();
  }

  RtlOutputs eval(const RtlInputs& in) override {
    apply(in);
    run();
    using detail::get_bits;
    RtlOutputs o;
    const int vcs = params_.vcs(), vc_bits = params_.vc_bits();
    for (int p = 0; p < params_.outputs(); ++p) {
      o.out_valid[p] = (m_->out_valid_o >> p) & 1u;
      o.out_vc[p] = static_cast<std::uint8_t>(get_bits(m_->out_vc_o, vc_bits * p, vc_bits));
      o.out_flit[p] = m_->out_flit_o[p];
    }
    for (int p = 0; p < kPorts; ++p)
      for (int v = 0; v < vcs; ++v) o.credit_out[p][v] = get_bits(m_->credit_out_o, p * vcs + v, 1) != 0;
    for (int ch = 0; ch < params_.ni_ports(); ++ch)
      for (int v = 0; v < vcs; ++v) {
        o.local_ready[ch][v] = get_bits(m_->local_ready_o, ch * vcs + v, 1) != 0;
        o.injection_pop[ch][v] = get_bits(m_->inj_pop_o, ch * vcs + v, 1) != 0;
      }
    o.reg_ok = m_->reg_ok_o;
    o.error = m_->error_o;
    o.idle = m_->idle_o;
    return o;
  }

  // The falling edge is evaluated with the next cycle's inputs: the router has no logic on
  // it, and an evaluation of its own would cost as much as the rising one.
  // The clock stays high until then, so that a waveform dumped after clock() shows the
  // rising edge (docs/waveforms.md).
  void clock() override {
    m_->clk_i = 1;
    run();
  }
  bool assertion_failed() const override { return failed_; }

  bool trace(VerilatedFstC* file) override {
    if constexpr (detail::traces_fst<V>::value) {
      m_->trace(file, 99);
      return true;
    } else {
      (void)file;
      return false;
    }
  }

 private:
  // One evaluation; an assertion failing in it is this router's (the context's error
  // count is shared by a mesh's routers).
  void run() {
    const int before = ctx_->errorCount();
    m_->eval();
    if (ctx_->errorCount() != before) failed_ = true;
  }

  void apply(const RtlInputs& in) {
    using detail::put_bits;
    m_->clk_i = 0;
    m_->my_x_i = static_cast<std::uint32_t>(x_);
    m_->my_y_i = static_cast<std::uint32_t>(y_);
    std::uint32_t valid = 0;
    const int vcs = params_.vcs(), vc_bits = params_.vc_bits();
    detail::clear_bits(m_->in_vc_i);
    detail::clear_bits(m_->credit_in_i);
    for (int p = 0; p < params_.inputs(); ++p) {
      valid |= static_cast<std::uint32_t>(in.in_valid[p]) << p;
      put_bits(m_->in_vc_i, vc_bits * p, vc_bits, in.in_vc[p]);
      m_->in_flit_i[p] = in.in_flit[p];
    }
    for (int p = 0; p < kPorts; ++p)
      for (int v = 0; v < vcs; ++v) put_bits(m_->credit_in_i, p * vcs + v, 1, in.credit_in[p][v]);
    m_->in_valid_i = valid;
    m_->reg_op_i = static_cast<std::uint32_t>(in.reg_op);
    m_->reg_gid_i = in.reg_gid;
    m_->reg_parent_valid_i = in.reg_parent_valid;
    m_->reg_parent_x_i = static_cast<std::uint32_t>(in.reg_parent_x);
    m_->reg_parent_y_i = static_cast<std::uint32_t>(in.reg_parent_y);
    m_->reg_route_i = in.reg_route;
    m_->reg_slot_i = in.reg_slot;
    m_->reg_transit_i = in.reg_transit;
    m_->reg_num_children_i = static_cast<std::uint32_t>(in.reg_num_children);
    const int xw = detail::coord_bits(params_.mesh_w), yw = detail::coord_bits(params_.mesh_h);
    detail::clear_bits(m_->reg_child_x_i);
    detail::clear_bits(m_->reg_child_y_i);
    detail::clear_bits(m_->reg_child_route_i);
    for (int j = 0; j < params_.max_children(); ++j) {
      put_bits(m_->reg_child_x_i, j * xw, xw, static_cast<std::uint64_t>(in.reg_child_x[j]));
      put_bits(m_->reg_child_y_i, j * yw, yw, static_cast<std::uint64_t>(in.reg_child_y[j]));
      put_bits(m_->reg_child_route_i, j, 1, in.reg_child_route[j]);
    }
  }

  RtlParams params_;
  std::unique_ptr<VerilatedContext> own_;
  VerilatedContext* ctx_;
  std::unique_ptr<V> m_;
  bool failed_ = false;
  int x_ = 0;
  int y_ = 0;
};

}  // namespace meshsync::rtl
