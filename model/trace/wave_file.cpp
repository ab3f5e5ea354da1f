#include "wave_file.hpp"

#include <cstdio>
#include <fstream>

#include <gtkwave/fstapi.h>

#include "../core/errors.hpp"

namespace meshsync {

namespace {

// Value text as both formats take it: binary digits, most significant first.
void binary(std::uint64_t value, unsigned bits, char* out) {
  for (unsigned i = 0; i < bits; ++i) out[i] = ((value >> (bits - 1 - i)) & 1u) ? '1' : '0';
  out[bits] = '\0';
}

class FstFile final : public WaveFile {
 public:
  explicit FstFile(const std::string& path) : ctx_(fstWriterCreate(path.c_str(), 1)) {
    if (!ctx_) throw ConfigError("cannot write waveform file '" + path + "'");
    fstWriterSetPackType(ctx_, FST_WR_PT_LZ4);
    fstWriterSetTimescale(ctx_, kWaveTimescaleExponent);
    // Blocks are written by a thread of fstapi's own while the simulation goes on.
    fstWriterSetParallelMode(ctx_, 1);
  }
  ~FstFile() override { close(); }

  void push_scope(const std::string& name) override {
    fstWriterSetScope(ctx_, FST_ST_VCD_MODULE, name.c_str(), nullptr);
  }
  void pop_scope() override { fstWriterSetUpscope(ctx_); }
  Var add_var(const std::string& name, unsigned bits) override {
    // A vector's range after a space, as Verilator names them: GTKWave lists kind[4:0]
    // for FST and VCD alike.
    const std::string full = bits > 1 ? name + " [" + std::to_string(bits - 1) + ":0]" : name;
    const fstHandle h = fstWriterCreateVar(ctx_, bits == 1 ? FST_VT_VCD_WIRE : FST_VT_VCD_REG, FST_VD_IMPLICIT,
                                           bits, full.c_str(), 0);
    handles_.push_back(h);
    bits_.push_back(bits);
    return static_cast<Var>(handles_.size() - 1);
  }
  void time(std::uint64_t t) override {
    // fstapi writes a block (walks each variable's chain of changes, compresses them) by
    // default at 128 MB or at the end, where nothing overlaps it: a third of a traced
    // run's time. A block every million changes is written beside the simulation.
    if (pending_ >= kBlockChanges) {
      fstWriterFlushContext(ctx_);
      pending_ = 0;
    }
    fstWriterEmitTimeChange(ctx_, t);
  }
  void change(Var v, std::uint64_t value) override {
    fstWriterEmitValueChange64(ctx_, handles_[v], bits_[v], value);
    ++pending_;
  }
  void close() override {
    if (ctx_) fstWriterClose(ctx_);
    ctx_ = nullptr;
  }

 private:
  static constexpr std::size_t kBlockChanges = std::size_t{1} << 20;
  void* ctx_;
  std::size_t pending_ = 0;  // changes since the last block was written
  std::vector<fstHandle> handles_;
  std::vector<unsigned> bits_;
};

class VcdFile final : public WaveFile {
 public:
  explicit VcdFile(const std::string& path) : out_(path) {
    if (!out_) throw ConfigError("cannot write waveform file '" + path + "'");
    out_ << "$date meshsync $end\n$timescale 100ps $end\n";
  }
  ~VcdFile() override { close(); }

  void push_scope(const std::string& name) override { out_ << "$scope module " << name << " $end\n"; }
  void pop_scope() override { out_ << "$upscope $end\n"; }
  Var add_var(const std::string& name, unsigned bits) override {
    const Var v = static_cast<Var>(ids_.size());
    ids_.push_back(identifier(v));
    bits_.push_back(bits);
    out_ << "$var wire " << bits << ' ' << ids_.back() << ' ' << name;
    if (bits > 1) out_ << " [" << bits - 1 << ":0]";
    out_ << " $end\n";
    return v;
  }
  void time(std::uint64_t t) override {
    if (!started_) {
      out_ << "$enddefinitions $end\n";
      started_ = true;
    }
    out_ << '#' << t << '\n';
  }
  void change(Var v, std::uint64_t value) override {
    const unsigned bits = bits_[v];
    if (bits == 1) {
      out_ << (value & 1u ? '1' : '0') << ids_[v] << '\n';
      return;
    }
    char buf[65];
    binary(value, bits, buf);
    // Leading zeros may go (VCD extends with the leftmost digit, here 0).
    const char* digits = buf;
    while (digits[0] == '0' && digits[1] != '\0') ++digits;
    out_ << 'b' << digits << ' ' << ids_[v] << '\n';
  }
  void close() override {
    if (out_.is_open()) out_.close();
  }

 private:
  // Short identifiers from the printable characters ! to ~, as VCD writers use.
  static std::string identifier(std::uint32_t n) {
    std::string s;
    do {
      s.push_back(static_cast<char>('!' + n % 94));
      n /= 94;
    } while (n > 0);
    return s;
  }
  std::ofstream out_;
  std::vector<std::string> ids_;
  std::vector<unsigned> bits_;
  bool started_ = false;
};

}  // namespace

WaveFormat wave_format_of(const std::string& path) {
  return path.size() >= 4 && path.compare(path.size() - 4, 4, ".vcd") == 0 ? WaveFormat::Vcd : WaveFormat::Fst;
}

std::unique_ptr<WaveFile> open_wave_file(const std::string& path, WaveFormat format) {
  // fstapi opens the file late and reports nothing: find out first.
  if (!std::ofstream(path)) throw ConfigError("cannot write waveform file '" + path + "'");
  if (format == WaveFormat::Vcd) return std::make_unique<VcdFile>(path);
  return std::make_unique<FstFile>(path);
}

}  // namespace meshsync
