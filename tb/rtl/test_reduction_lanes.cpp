// The reduction lanes (rtl/meshsync_reduction_lanes.sv) against an array of words, cycle by
// cycle: every read port gives the word or half-word the array holds at the start of the
// cycle, and at the edge the half-word writes take effect in input order, then the fold's.
// Built with 3 registers of 3 words a lane, so that random indices also name a register,
// a lane and a word that do not exist (writes go nowhere, reads give 0), and with a write
// port per input, the general case (the contract's router has one).
#include <catch2/catch.hpp>

#include <array>
#include <cstdint>
#include <random>

#include "Vreduction_lanes.h"
#include "model/cosim/coverage.hpp"

namespace {

constexpr unsigned kRegs = 3, kLanes = 5, kWords = 3, kPorts = 5;
constexpr unsigned kRegW = 2, kHalfW = 3;  // as the module derives them

// A field of a Verilated port of up to 64 bits, or of a wide one (VlWide).
template <class T>
void put(T& port, unsigned lsb, unsigned width, std::uint64_t v) {
  const T mask = static_cast<T>(((std::uint64_t{1} << width) - 1) << lsb);
  port = static_cast<T>((port & ~mask) | ((static_cast<T>(v) << lsb) & mask));
}
template <std::size_t N>
void put(VlWide<N>& port, unsigned lsb, unsigned width, std::uint64_t v) {
  for (unsigned b = 0; b < width; ++b) {
    const unsigned bit = lsb + b;
    const std::uint32_t m = 1u << (bit % 32);
    port[bit / 32] = (v >> b) & 1 ? port[bit / 32] | m : port[bit / 32] & ~m;
  }
}
template <std::size_t N>
std::uint64_t get(const VlWide<N>& port, unsigned lsb, unsigned width) {
  std::uint64_t v = 0;
  for (unsigned b = 0; b < width; ++b) v |= std::uint64_t{(port[(lsb + b) / 32] >> ((lsb + b) % 32)) & 1} << b;
  return v;
}

struct Reference {
  std::array<std::array<std::array<std::uint32_t, kWords>, kLanes>, kRegs> words{};
  std::uint32_t word(unsigned r, unsigned l, unsigned w) const {
    return r < kRegs && l < kLanes && w < kWords ? words[r][l][w] : 0;
  }
  void write_half(unsigned r, unsigned l, unsigned half, std::uint16_t v) {
    const unsigned w = half / 2;
    if (r >= kRegs || l >= kLanes || w >= kWords) return;
    std::uint32_t& x = words[r][l][w];
    x = half % 2 ? (x & 0xffffu) | std::uint32_t{v} << 16 : (x & 0xffff0000u) | v;
  }
};

}  // namespace

TEST_CASE("reduction lanes: reads and writes as an array of words, every port in every cycle", "[rtl][reduction]") {
  VerilatedContext ctx;
  Vreduction_lanes lanes{&ctx};
  Reference ref;
  std::mt19937_64 rng(24);
  lanes.clk_i = 0;
  // Fill every word first (the flops start unknown), through the half-word ports.
  for (unsigned r = 0; r < kRegs; ++r)
    for (unsigned l = 0; l < kLanes; ++l)
      for (unsigned half = 0; half < 2 * kWords; ++half) {
        lanes.hw_valid_i = 1;
        lanes.fold_valid_i = 0;
        put(lanes.hw_reg_i, 0, kRegW, r);
        put(lanes.hw_lane_i, 0, 3, l);
        put(lanes.hw_half_i, 0, kHalfW, half);
        const auto v = static_cast<std::uint16_t>(rng());
        put(lanes.hw_data_i, 0, 16, v);
        ref.write_half(r, l, half, v);
        lanes.eval();
        lanes.clk_i = 1;
        lanes.eval();
        lanes.clk_i = 0;
        lanes.eval();
      }
  unsigned wrong = 0, folds = 0;
  for (int cycle = 0; cycle < 20000 && wrong < 5; ++cycle) {
    const unsigned reg = rng() % 4, la = rng() % 8, lb = rng() % 8, rw = rng() % 4;
    lanes.reg_i = static_cast<std::uint8_t>(reg);
    lanes.rd_lane_a_i = static_cast<std::uint8_t>(la);
    lanes.rd_lane_b_i = static_cast<std::uint8_t>(lb);
    lanes.rd_word_i = static_cast<std::uint8_t>(rw);
    std::array<unsigned, kPorts> st{};
    for (unsigned p = 0; p < kPorts; ++p) {
      st[p] = rng() % 8;
      put(lanes.st_half_i, p * kHalfW, kHalfW, st[p]);
    }
    // Writes: every input half the time, anywhere (collisions included), and the fold.
    std::array<bool, kPorts> valid{};
    std::array<unsigned, kPorts> wr{}, wl{}, wh{};
    std::array<std::uint16_t, kPorts> wd{};
    lanes.hw_valid_i = 0;
    for (unsigned p = 0; p < kPorts; ++p) {
      valid[p] = rng() % 2;
      wr[p] = rng() % 4;
      wl[p] = rng() % 8;
      wh[p] = rng() % 8;
      wd[p] = static_cast<std::uint16_t>(rng());
      put(lanes.hw_valid_i, p, 1, valid[p]);
      put(lanes.hw_reg_i, p * kRegW, kRegW, wr[p]);
      put(lanes.hw_lane_i, p * 3, 3, wl[p]);
      put(lanes.hw_half_i, p * kHalfW, kHalfW, wh[p]);
      put(lanes.hw_data_i, p * 16, 16, wd[p]);
    }
    const bool fold = rng() % 2, wide = rng() % 2;
    const unsigned fw = rng() % 4;
    const std::uint64_t fd = rng();
    lanes.fold_valid_i = fold;
    lanes.fold_wide_i = wide;
    lanes.fold_word_i = static_cast<std::uint8_t>(fw);
    lanes.fold_data_i = fd;
    lanes.eval();
    // Reads: the state at the start of the cycle.
    const auto element = [&](unsigned lane) {
      return std::uint64_t{ref.word(reg, lane, rw + 1)} << 32 | ref.word(reg, lane, rw);
    };
    if (lanes.rd_a_o != element(la) || lanes.rd_b_o != element(lb)) ++wrong;
    for (unsigned p = 0; p < kPorts; ++p) {
      const std::uint32_t w = ref.word(reg, 4, st[p] / 2);
      if (get(lanes.st_data_o, p * 16, 16) != (st[p] % 2 ? w >> 16 : w & 0xffffu)) ++wrong;
    }
    INFO("cycle " << cycle);
    CHECK(wrong == 0);
    // The edge: inputs in index order, then the fold into lane 4 of the emitter's register.
    for (unsigned p = 0; p < kPorts; ++p)
      if (valid[p]) ref.write_half(wr[p], wl[p], wh[p], wd[p]);
    if (fold && reg < kRegs) {
      folds += fw < kWords;
      if (fw < kWords) ref.words[reg][4][fw] = static_cast<std::uint32_t>(fd);
      if (wide && fw + 1 < kWords) ref.words[reg][4][fw + 1] = static_cast<std::uint32_t>(fd >> 32);
    }
    lanes.clk_i = 1;
    lanes.eval();
    lanes.clk_i = 0;
    lanes.eval();
  }
  CHECK(folds > 1000);
  meshsync::rtl::write_coverage(ctx, "reduction_lanes");
}
