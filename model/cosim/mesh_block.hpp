// The whole mesh as one Verilated block (rtl/meshsync_mesh.sv, Verilator C++ output, no
// SystemC): W x H routers and their Tp-cycle links in one model, driven and read at the
// boundary only (per node: injection, local_ready, ejection, register port, error, idle).
// Every configuration is its own Verilated class, hence the template.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include <verilated.h>

#include "rtl_ports.hpp"

namespace meshsync::rtl {

// A Verilated mesh configuration (use "mesh" in rtl/configurations.txt).
struct MeshParams {
  RtlParams router;  // mesh_w, mesh_h: the mesh's own size
  int tp = 5;
  int threads = 1;   // Verilator --threads it was built with
};

class MeshBlock {
 public:
  virtual ~MeshBlock() = default;
  virtual const MeshParams& params() const = 0;
  // Two clock edges with reset asserted, then released; the outputs show the empty mesh.
  virtual void reset() = 0;
  // Inputs presented in the current cycle (taken at its closing edge).
  virtual void inject(int node, int vc, std::uint32_t flit) = 0;
  virtual void write_register(int node, const RtlInputs& in) = 0;
  // Settles the outputs on the inputs presented so far (reg_ok is combinational on the
  // register port); the other outputs depend on the state only.
  virtual void settle() = 0;
  // The edge that ends the cycle; then the presented inputs are withdrawn and the outputs
  // show the next cycle.
  virtual void edge() = 0;

  virtual bool local_ready(int node, int vc) const = 0;
  virtual bool ejected(int node) const = 0;
  virtual int ejected_vc(int node) const = 0;
  virtual std::uint32_t ejected_flit(int node) const = 0;
  virtual bool any_ejected() const = 0;
  virtual bool reg_ok(int node) const = 0;
  virtual bool error(int node) const = 0;
  virtual bool any_error() const = 0;
  virtual bool all_idle() const = 0;
};

namespace detail {
// Verilator's port types: CData..QData for up to 64 bits, VlWide<N> (32-bit words) above.
template <typename T>
void set_field(T& w, int lo, int width, std::uint64_t v) {
  if constexpr (std::is_integral_v<T>) {
    const std::uint64_t mask = width >= 64 ? ~0ull : (1ull << width) - 1;
    w = static_cast<T>((static_cast<std::uint64_t>(w) & ~(mask << lo)) | ((v & mask) << lo));
  } else if (width == 32 && lo % 32 == 0) {
    w[static_cast<std::size_t>(lo / 32)] = static_cast<std::uint32_t>(v);
  } else {
    for (int i = 0; i < width; ++i) {
      const int b = lo + i;
      auto& word = w[static_cast<std::size_t>(b / 32)];
      const std::uint32_t bit = 1u << (b % 32);
      word = ((v >> i) & 1u) ? (word | bit) : (word & ~bit);
    }
  }
}
template <typename T>
std::uint64_t field(const T& w, int lo, int width) {
  if constexpr (std::is_integral_v<T>) {
    const std::uint64_t mask = width >= 64 ? ~0ull : (1ull << width) - 1;
    return (static_cast<std::uint64_t>(w) >> lo) & mask;
  } else if (width == 32 && lo % 32 == 0) {
    return w[static_cast<std::size_t>(lo / 32)];
  } else {
    std::uint64_t r = 0;
    for (int i = 0; i < width; ++i) {
      const int b = lo + i;
      r |= static_cast<std::uint64_t>((w[static_cast<std::size_t>(b / 32)] >> (b % 32)) & 1u) << i;
    }
    return r;
  }
}
template <typename T>
bool any_bit(const T& w, int bits) {
  if constexpr (std::is_integral_v<T>) {
    return w != 0;
  } else {
    for (int i = 0; i * 32 < bits; ++i)
      if (w[static_cast<std::size_t>(i)]) return true;
    return false;
  }
}
template <typename T>
bool all_bits(const T& w, int bits) {
  for (int lo = 0; lo < bits; lo += 32) {
    const int n = bits - lo < 32 ? bits - lo : 32;
    if (field(w, lo, n) != (n == 32 ? 0xffffffffull : (1ull << n) - 1)) return false;
  }
  return true;
}
inline int coord_width(int n) {
  int b = 1;
  while ((1 << b) < n) ++b;
  return n > 1 ? b : 1;
}
}  // namespace detail

template <class V>
class VerilatedMeshBlock final : public MeshBlock {
 public:
  explicit VerilatedMeshBlock(MeshParams p)
      : p_(std::move(p)), nodes_(p_.router.mesh_w * p_.router.mesh_h),
        xw_(detail::coord_width(p_.router.mesh_w)), yw_(detail::coord_width(p_.router.mesh_h)),
        cw_(detail::coord_width(p_.router.max_children() + 2)) {
    // Its own context: the thread pool of a --threads build is the model's alone.
    ctx_.threads(static_cast<unsigned>(p_.threads));
    m_ = std::make_unique<V>(&ctx_, "mesh");
  }

  const MeshParams& params() const override { return p_; }

  void reset() override {
    m_->rst_ni = 0;
    m_->clk_i = 0;
    m_->eval();
    for (int i = 0; i < 2; ++i) {
      m_->clk_i = 1;
      m_->eval();
      m_->clk_i = 0;
      m_->eval();
    }
    m_->rst_ni = 1;
    m_->eval();
  }

  void inject(int n, int vc, std::uint32_t flit) override {
    using detail::set_field;
    set_field(m_->inj_valid_i, n, 1, 1);
    const int bits = p_.router.vc_bits();
    set_field(m_->inj_vc_i, bits * n, bits, static_cast<std::uint64_t>(vc));
    set_field(m_->inj_flit_i, 32 * n, 32, flit);
    injected_.push_back(n);
  }

  void write_register(int n, const RtlInputs& in) override {
    using detail::set_field;
    const int mc = p_.router.max_children();
    set_field(m_->reg_op_i, 2 * n, 2, static_cast<std::uint64_t>(in.reg_op));
    set_field(m_->reg_gid_i, 8 * n, 8, in.reg_gid);
    set_field(m_->reg_parent_valid_i, n, 1, in.reg_parent_valid);
    set_field(m_->reg_parent_x_i, xw_ * n, xw_, static_cast<std::uint64_t>(in.reg_parent_x));
    set_field(m_->reg_parent_y_i, yw_ * n, yw_, static_cast<std::uint64_t>(in.reg_parent_y));
    set_field(m_->reg_route_i, n, 1, in.reg_route);
    set_field(m_->reg_slot_i, 4 * n, 4, in.reg_slot);
    set_field(m_->reg_transit_i, n, 1, in.reg_transit);
    set_field(m_->reg_num_children_i, cw_ * n, cw_, static_cast<std::uint64_t>(in.reg_num_children));
    for (int j = 0; j < mc; ++j) {
      set_field(m_->reg_child_x_i, (n * mc + j) * xw_, xw_, static_cast<std::uint64_t>(in.reg_child_x[j]));
      set_field(m_->reg_child_y_i, (n * mc + j) * yw_, yw_, static_cast<std::uint64_t>(in.reg_child_y[j]));
      set_field(m_->reg_child_route_i, n * mc + j, 1, in.reg_child_route[j]);
    }
    written_.push_back(n);
  }

  void settle() override { m_->eval(); }

  void edge() override {
    using detail::set_field;
    m_->clk_i = 1;
    m_->eval();
    for (int n : injected_) set_field(m_->inj_valid_i, n, 1, 0);
    for (int n : written_) set_field(m_->reg_op_i, 2 * n, 2, 0);
    injected_.clear();
    written_.clear();
    m_->clk_i = 0;
    m_->eval();
  }

  bool local_ready(int n, int vc) const override {
    const int vcs = p_.router.vcs();
    return vc < vcs && detail::field(m_->local_ready_o, vcs * n + vc, 1) != 0;
  }
  bool ejected(int n) const override { return detail::field(m_->ej_valid_o, n, 1) != 0; }
  int ejected_vc(int n) const override {
    const int bits = p_.router.vc_bits();
    return static_cast<int>(detail::field(m_->ej_vc_o, bits * n, bits));
  }
  std::uint32_t ejected_flit(int n) const override {
    return static_cast<std::uint32_t>(detail::field(m_->ej_flit_o, 32 * n, 32));
  }
  bool any_ejected() const override { return detail::any_bit(m_->ej_valid_o, nodes_); }
  bool reg_ok(int n) const override { return detail::field(m_->reg_ok_o, n, 1) != 0; }
  bool error(int n) const override { return detail::field(m_->error_o, n, 1) != 0; }
  bool any_error() const override { return detail::any_bit(m_->error_o, nodes_); }
  bool all_idle() const override { return detail::all_bits(m_->idle_o, nodes_); }

 private:
  MeshParams p_;
  int nodes_, xw_, yw_, cw_;
  VerilatedContext ctx_;
  std::unique_ptr<V> m_;
  std::vector<int> injected_, written_;
};

}  // namespace meshsync::rtl
