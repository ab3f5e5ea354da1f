// A waveform file for GTKWave, written as the simulation runs: scopes, variables (bit
// vectors up to 64 bits) and value
// changes in time order. Two formats behind one interface: FST (compressed, GTKWave's
// own; written with the fstapi library that ships with Verilator and GTKWave) and VCD
// (plain text, for any tool).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace meshsync {

enum class WaveFormat : std::uint8_t { Fst, Vcd };

class WaveFile {
 public:
  using Var = std::uint32_t;
  virtual ~WaveFile() = default;

  // Declarations, before the first time().
  virtual void push_scope(const std::string& name) = 0;
  virtual void pop_scope() = 0;
  // Enumerations (flit kinds, VCs) are plain vectors: GTKWave shows their names through
  // the translate filters beside the trace (gtkw_save.hpp), for FST and VCD alike
  // (GTKWave 3.3 shows neither an FST enumeration table's names nor a filter on a
  // variable that has one).
  virtual Var add_var(const std::string& name, unsigned bits) = 0;

  // Values: time() never goes back; change() sets a variable at the current time.
  virtual void time(std::uint64_t t) = 0;
  virtual void change(Var v, std::uint64_t value) = 0;
  // Flushes and closes; the destructor does it too.
  virtual void close() = 0;
};

// Time unit of every file: 100 ps, so a 1 ns cycle has room for its clock's falling edge.
inline constexpr int kWaveTimescaleExponent = -10;

// Opens `path` for writing, under its temporary name until the run ends
// (core/output_files.hpp); throws ConfigError (one line, naming the path) when it cannot
// be written. A write that fails later is reported when the run ends.
std::unique_ptr<WaveFile> open_wave_file(const std::string& path, WaveFormat format);

// After an FST writer closed `temporary` (the file that takes the name `path`,
// core/output_files.hpp): fstapi checks none of its writes, so the file is read back
// (fstapi's reader opens it), and one cut short by a full disk is reported as a failed
// write of `path`.
void check_fst_written(const std::string& path, const std::string& temporary);

// The format a file name asks for: ".vcd" gives VCD, anything else FST.
WaveFormat wave_format_of(const std::string& path);

}  // namespace meshsync
