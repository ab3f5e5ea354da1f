// One Verilated meshsync_router (Verilator --sc output: an sc_module with sc_in/sc_out
// ports) with a signal bound to every port, driven and read as RtlInputs/RtlOutputs.
// Every configuration is its own Verilated class, hence the template.
#pragma once

#include <cstdint>
#include <memory>
#include <type_traits>

// Verilator's SystemC runtime expects SystemC's names in the global namespace.
#include <systemc.h>
#include <verilated.h>
#include <verilated_fst_sc.h>

#include "rtl_ports.hpp"

namespace meshsync::rtl {

class ScRouter {
 public:
  virtual ~ScRouter() = default;
  virtual const RtlParams& params() const = 0;
  virtual void set_position(int x, int y) = 0;
  virtual void set_reset(bool active) = 0;
  virtual void set_clock(bool high) = 0;
  // Writes the inputs; the outputs follow once the signals settled (two delta cycles).
  virtual void present(const RtlInputs& in) = 0;
  virtual RtlOutputs outputs() const = 0;
  virtual void trace(VerilatedFstSc* file) = 0;
};

namespace detail {
template <typename T>
void put_bits(T& w, int lo, int width, std::uint64_t v) {
  if constexpr (std::is_same_v<T, bool>) {
    w = v & 1u;
  } else if constexpr (std::is_integral_v<T>) {
    const std::uint64_t mask = width >= 64 ? ~0ull : (1ull << width) - 1;
    w = static_cast<T>(w | static_cast<T>((v & mask) << lo));
  } else if (width == 32 && lo % 32 == 0) {
    w.set_word(lo / 32, static_cast<sc_dt::sc_digit>(v));  // flits: whole words, fast
  } else {
    w.range(lo + width - 1, lo) = v;
  }
}
template <typename T>
std::uint64_t get_bits(const T& w, int lo, int width) {
  if constexpr (std::is_same_v<T, bool>) {
    return w ? 1u : 0u;
  } else if constexpr (std::is_integral_v<T>) {
    const std::uint64_t mask = width >= 64 ? ~0ull : (1ull << width) - 1;
    return (static_cast<std::uint64_t>(w) >> lo) & mask;
  } else if (width == 32 && lo % 32 == 0) {
    return w.get_word(lo / 32);
  } else {
    return w.range(lo + width - 1, lo).to_uint64();
  }
}
inline int coord_bits(int n) {
  int b = 1;
  while ((1 << b) < n) ++b;
  return b;
}
}  // namespace detail

template <class V>
class VerilatedScRouter final : public ScRouter {
  // Written by the reset thread first, then by the mesh's clock thread.
  template <typename Port>
  using Signal = sc_core::sc_signal<typename std::remove_reference_t<Port>::data_type,
                                    sc_core::SC_MANY_WRITERS>;
  template <typename Port>
  using Value = typename std::remove_reference_t<Port>::data_type;

 public:
  VerilatedScRouter(const char* name, RtlParams p) : params_(std::move(p)), m_(name) {
    m_.clk_i(clk_);
    m_.rst_ni(rst_n_);
    m_.my_x_i(my_x_);
    m_.my_y_i(my_y_);
    m_.in_valid_i(in_valid_);
    m_.in_vc_i(in_vc_);
    m_.in_flit_i(in_flit_);
    m_.local_ready_o(local_ready_);
    m_.out_valid_o(out_valid_);
    m_.out_vc_o(out_vc_);
    m_.out_flit_o(out_flit_);
    m_.credit_out_o(credit_out_);
    m_.credit_in_i(credit_in_);
    m_.reg_op_i(reg_op_);
    m_.reg_gid_i(reg_gid_);
    m_.reg_parent_valid_i(reg_parent_valid_);
    m_.reg_parent_x_i(reg_parent_x_);
    m_.reg_parent_y_i(reg_parent_y_);
    m_.reg_route_i(reg_route_);
    m_.reg_slot_i(reg_slot_);
    m_.reg_transit_i(reg_transit_);
    m_.reg_num_children_i(reg_num_children_);
    m_.reg_child_x_i(reg_child_x_);
    m_.reg_child_y_i(reg_child_y_);
    m_.reg_child_route_i(reg_child_route_);
    m_.reg_ok_o(reg_ok_);
    m_.error_o(error_);
    m_.idle_o(idle_);
  }

  const RtlParams& params() const override { return params_; }
  void set_position(int x, int y) override {
    my_x_.write(static_cast<Value<decltype(m_.my_x_i)>>(x));
    my_y_.write(static_cast<Value<decltype(m_.my_y_i)>>(y));
  }
  void set_reset(bool active) override { rst_n_.write(!active); }
  void set_clock(bool high) override { clk_.write(high); }

  void present(const RtlInputs& in) override {
    using detail::put_bits;
    Value<decltype(m_.in_valid_i)> valid{};
    Value<decltype(m_.in_vc_i)> vc{};
    Value<decltype(m_.in_flit_i)> flit{};
    Value<decltype(m_.credit_in_i)> credit{};
    for (int p = 0; p < kPorts; ++p) {
      put_bits(valid, p, 1, in.in_valid[p]);
      put_bits(vc, 2 * p, 2, in.in_vc[p]);
      put_bits(flit, 32 * p, 32, in.in_flit[p]);
      for (int v = 0; v < kRtlVcs; ++v) put_bits(credit, p * kRtlVcs + v, 1, in.credit_in[p][v]);
    }
    in_valid_.write(valid);
    in_vc_.write(vc);
    in_flit_.write(flit);
    credit_in_.write(credit);
    reg_op_.write(static_cast<Value<decltype(m_.reg_op_i)>>(in.reg_op));
    reg_gid_.write(in.reg_gid);
    reg_parent_valid_.write(in.reg_parent_valid);
    reg_parent_x_.write(static_cast<Value<decltype(m_.reg_parent_x_i)>>(in.reg_parent_x));
    reg_parent_y_.write(static_cast<Value<decltype(m_.reg_parent_y_i)>>(in.reg_parent_y));
    reg_route_.write(in.reg_route);
    reg_slot_.write(in.reg_slot);
    reg_transit_.write(in.reg_transit);
    reg_num_children_.write(static_cast<Value<decltype(m_.reg_num_children_i)>>(in.reg_num_children));
    const int xw = detail::coord_bits(params_.mesh_w), yw = detail::coord_bits(params_.mesh_h);
    Value<decltype(m_.reg_child_x_i)> cx{};
    Value<decltype(m_.reg_child_y_i)> cy{};
    Value<decltype(m_.reg_child_route_i)> cr{};
    for (int j = 0; j < params_.max_children; ++j) {
      put_bits(cx, j * xw, xw, static_cast<std::uint64_t>(in.reg_child_x[j]));
      put_bits(cy, j * yw, yw, static_cast<std::uint64_t>(in.reg_child_y[j]));
      put_bits(cr, j, 1, in.reg_child_route[j]);
    }
    reg_child_x_.write(cx);
    reg_child_y_.write(cy);
    reg_child_route_.write(cr);
    clk_.write(false);
  }

  RtlOutputs outputs() const override {
    using detail::get_bits;
    RtlOutputs o;
    const auto valid = out_valid_.read();
    const auto vc = out_vc_.read();
    const auto flit = out_flit_.read();
    const auto credit = credit_out_.read();
    const auto ready = local_ready_.read();
    for (int p = 0; p < kPorts; ++p) {
      o.out_valid[p] = get_bits(valid, p, 1);
      o.out_vc[p] = static_cast<std::uint8_t>(get_bits(vc, 2 * p, 2));
      o.out_flit[p] = static_cast<std::uint32_t>(get_bits(flit, 32 * p, 32));
      for (int v = 0; v < kRtlVcs; ++v) o.credit_out[p][v] = get_bits(credit, p * kRtlVcs + v, 1);
    }
    for (int v = 0; v < kRtlVcs; ++v) o.local_ready[v] = get_bits(ready, v, 1);
    o.reg_ok = reg_ok_.read();
    o.error = error_.read();
    o.idle = idle_.read();
    return o;
  }

  void trace(VerilatedFstSc* file) override { m_.trace(file, 99); }

 private:
  RtlParams params_;
  V m_;
  sc_core::sc_signal<bool, sc_core::SC_MANY_WRITERS> clk_;
  sc_core::sc_signal<bool, sc_core::SC_MANY_WRITERS> rst_n_;
  Signal<decltype(m_.my_x_i)> my_x_;
  Signal<decltype(m_.my_y_i)> my_y_;
  Signal<decltype(m_.in_valid_i)> in_valid_;
  Signal<decltype(m_.in_vc_i)> in_vc_;
  Signal<decltype(m_.in_flit_i)> in_flit_;
  Signal<decltype(m_.local_ready_o)> local_ready_;
  Signal<decltype(m_.out_valid_o)> out_valid_;
  Signal<decltype(m_.out_vc_o)> out_vc_;
  Signal<decltype(m_.out_flit_o)> out_flit_;
  Signal<decltype(m_.credit_out_o)> credit_out_;
  Signal<decltype(m_.credit_in_i)> credit_in_;
  Signal<decltype(m_.reg_op_i)> reg_op_;
  Signal<decltype(m_.reg_gid_i)> reg_gid_;
  Signal<decltype(m_.reg_parent_valid_i)> reg_parent_valid_;
  Signal<decltype(m_.reg_parent_x_i)> reg_parent_x_;
  Signal<decltype(m_.reg_parent_y_i)> reg_parent_y_;
  Signal<decltype(m_.reg_route_i)> reg_route_;
  Signal<decltype(m_.reg_slot_i)> reg_slot_;
  Signal<decltype(m_.reg_transit_i)> reg_transit_;
  Signal<decltype(m_.reg_num_children_i)> reg_num_children_;
  Signal<decltype(m_.reg_child_x_i)> reg_child_x_;
  Signal<decltype(m_.reg_child_y_i)> reg_child_y_;
  Signal<decltype(m_.reg_child_route_i)> reg_child_route_;
  Signal<decltype(m_.reg_ok_o)> reg_ok_;
  Signal<decltype(m_.error_o)> error_;
  Signal<decltype(m_.idle_o)> idle_;
};

}  // namespace meshsync::rtl
