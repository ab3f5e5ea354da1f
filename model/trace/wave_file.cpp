#include "wave_file.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>

#include <gtkwave/fstapi.h>

#include "../core/errors.hpp"
#include "../core/output_files.hpp"

namespace meshsync {

namespace {

// Value text as both formats take it: binary digits, most significant first.
void binary(std::uint64_t value, unsigned bits, char* out) {
  for (unsigned i = 0; i < bits; ++i) out[i] = ((value >> (bits - 1 - i)) & 1u) ? '1' : '0';
  out[bits] = '\0';
}

class FstFile final : public WaveFile {
 public:
  // `temporary`: where fstapi writes; `path`: the name the file takes (output_files).
  FstFile(const std::string& path, const std::string& temporary)
      : path_(path), temporary_(temporary), ctx_(fstWriterCreate(temporary.c_str(), 1)) {
    if (!ctx_) throw ConfigError("cannot write '" + path + "': the FST writer could not start");
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
    // default at 128 MB or at the end, where nothing overlaps it. Here a block is written
    // beside the simulation every 128 Ki changes: a chain then stays within a couple of
    // megabytes, in cache (8x8 uniform 0.1, 10,000 cycles, traced against untraced, one
    // interleaved run: 2^14 5.0x, 2^16 3.4x, 2^17 3.3x, 2^20 3.8x; docs/waveforms.md).
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
    if (!ctx_) return;
    fstWriterClose(ctx_);
    ctx_ = nullptr;
    check_fst_written(path_, temporary_);
  }

 private:
  static constexpr std::size_t kBlockChanges = std::size_t{1} << 17;
  std::string path_, temporary_;
  void* ctx_;
  std::size_t pending_ = 0;  // changes since the last block was written
  std::vector<fstHandle> handles_;
  std::vector<unsigned> bits_;
};

class VcdFile final : public WaveFile {
 public:
  VcdFile(const std::string& path, const std::string& temporary) : path_(path), out_(std::fopen(temporary.c_str(), "wb")) {
    if (!out_) throw ConfigError("cannot write '" + path + "': " + std::strerror(errno));
    put("$date meshsync $end\n$timescale 100ps $end\n");
  }
  ~VcdFile() override { close(); }

  void push_scope(const std::string& name) override { put("$scope module " + name + " $end\n"); }
  void pop_scope() override { put("$upscope $end\n"); }
  Var add_var(const std::string& name, unsigned bits) override {
    const Var v = static_cast<Var>(ids_.size());
    ids_.push_back(identifier(v));
    bits_.push_back(bits);
    put("$var wire " + std::to_string(bits) + ' ' + ids_.back() + ' ' + name);
    if (bits > 1) put(" [" + std::to_string(bits - 1) + ":0]");
    put(" $end\n");
    return v;
  }
  void time(std::uint64_t t) override {
    if (!started_) {
      put("$enddefinitions $end\n");
      started_ = true;
    }
    char buf[24];
    const int n = std::snprintf(buf, sizeof buf, "#%llu\n", static_cast<unsigned long long>(t));
    buffer_.append(buf, static_cast<std::size_t>(n));
    spill();
  }
  void change(Var v, std::uint64_t value) override {
    // Text is most of a VCD's cost: built in a buffer of our own, a change at a time.
    const unsigned bits = bits_[v];
    if (bits == 1) {
      buffer_.push_back(value & 1u ? '1' : '0');
    } else {
      char buf[66];
      binary(value, bits, buf);
      // Leading zeros may go (VCD extends with the leftmost digit, here 0).
      const char* digits = buf;
      while (digits[0] == '0' && digits[1] != '\0') ++digits;
      buffer_.push_back('b');
      buffer_.append(digits);
      buffer_.push_back(' ');
    }
    buffer_.append(ids_[v]);
    buffer_.push_back('\n');
    spill();
  }
  void close() override {
    if (!out_) return;
    spill(0);
    if (std::fclose(out_) != 0) fail();
    out_ = nullptr;
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
  void put(const std::string& text) {
    buffer_ += text;
    spill();
  }
  // Hands the buffer to the file once it holds `at_least` bytes.
  void spill(std::size_t at_least = std::size_t{1} << 20) {
    if (buffer_.size() < at_least || !out_) return;
    if (!failed_ && std::fwrite(buffer_.data(), 1, buffer_.size(), out_) != buffer_.size()) fail();
    buffer_.clear();
  }
  // The first failed write is reported when the run ends (output_files); the rest of the
  // run writes nothing more.
  void fail() {
    if (!failed_) output_files::failed(path_, std::strerror(errno));
    failed_ = true;
  }
  std::string path_;
  std::FILE* out_;
  bool failed_ = false;
  std::string buffer_;
  std::vector<std::string> ids_;
  std::vector<unsigned> bits_;
  bool started_ = false;
};

}  // namespace

WaveFormat wave_format_of(const std::string& path) {
  return path.size() >= 4 && path.compare(path.size() - 4, 4, ".vcd") == 0 ? WaveFormat::Vcd : WaveFormat::Fst;
}

std::unique_ptr<WaveFile> open_wave_file(const std::string& path, WaveFormat format) {
  // begin() creates the temporary, so an unwritable place is refused here (fstapi opens
  // the file late and reports nothing).
  const std::string temporary = output_files::begin(path);
  if (format == WaveFormat::Vcd) return std::make_unique<VcdFile>(path, temporary);
  return std::make_unique<FstFile>(path, temporary);
}

void check_fst_written(const std::string& path, const std::string& temporary) {
  void* reader = fstReaderOpen(temporary.c_str());
  if (reader != nullptr) {
    fstReaderClose(reader);
    return;
  }
  output_files::failed(path, "the FST file is incomplete after writing (is the file system full?)");
}

}  // namespace meshsync
