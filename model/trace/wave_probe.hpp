// The mesh's waveform for GTKWave (docs/waveforms.md): a clock and a cycle counter, and
// per router the flit leaving each output port, decoded (kind, VC, source, destination,
// group, packet, destinations left), its credits and its barrier registers. Model and RTL
// routers alike: both hand their output flits to the mesh (NetworkCore), which is where
// this probe sees them, so one run's model and RTL routers carry the same names.
#pragma once

#include <cstdint>
#include <memory>
#include <queue>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "../core/network_core.hpp"
#include "gtkw_save.hpp"
#include "wave_file.hpp"

namespace meshsync {

struct WaveOptions {
  std::string path;                     // the trace; its format from the name (wave_format_of)
  std::vector<NodeId> routers;          // empty: every router
  std::uint64_t from = 0;               // the cycles written: [from, to]
  std::uint64_t to = kNever;
};

class WaveProbe : public NetworkProbe {
 public:
  // Declares every signal and attaches to `net`; before the simulation starts. Throws
  // ConfigError when the file cannot be written.
  WaveProbe(NetworkCore& net, const WaveOptions& o);
  ~WaveProbe() override;
  // Writes what is buffered up to the last cycle run, then closes the file (the
  // destructor does it too).
  void close();
  const std::string& path() const { return path_; }
  const NetworkCore& network() const { return net_; }
  // GTKWave's files beside the trace: TRACE.gtkw opens it with the signals grouped by
  // router and port, TRACE.flit_kind.txt and TRACE.vc.txt name the enumerations.
  const std::string& save_path() const { return save_path_; }
  std::size_t signals() const { return vars_.size(); }

  void on_output(NodeId node, int port, const Flit& f, std::uint64_t cycle) override;
  void on_inject(NodeId node, const Flit& f, std::uint64_t cycle) override;
  void after_step(NodeId node, std::uint64_t cycle) override;
  void touch(NodeId node, std::uint64_t cycle) override;
  std::uint64_t next_cycle() const override;
  void begin_cycle(std::uint64_t cycle) override;

 private:
  // The fields of one output port, then (model routers) its credits per VC.
  enum PortField : unsigned { Valid, Kind, Vc, SrcX, SrcY, DestX, DestY, Gid, Packet, DestsLeft, kPortFields };
  enum RegisterField : unsigned { RegValid, RegMember, RegGid, RegArrived, RegExpected, kRegisterFields };
  struct Signal {
    WaveFile::Var var;
    std::uint64_t now = 0;    // the value as of the cycle being recorded
    std::uint64_t shown = 0;  // the value the file shows
    bool dirty = false;
  };
  static RouterCore::CreditCounts filled(std::uint32_t v) {
    RouterCore::CreditCounts c;
    c.fill(v);
    return c;
  }
  struct Traced {
    std::uint32_t ports = 0;      // first Signal of its ports' fields
    std::uint32_t credits = 0;    // first credit Signal (kPorts x kVcs), model routers
    std::uint32_t registers = 0;  // first register Signal
    std::uint32_t num_registers = 0;
    bool model = false;
    // As last written; no counter holds ~0, so the first refresh writes them all.
    RouterCore::CreditCounts last_credits = filled(~std::uint32_t{0});
  };
  std::uint32_t declare(const std::string& name, unsigned bits);
  // declare(), and a row for the save file in `rows` (scope `prefix`), shown through
  // filter file `filter` (0 flit kinds, 1 VCs) when not -1.
  std::uint32_t declare_row(std::vector<SaveRow>& rows, const std::string& prefix, const std::string& name,
                            unsigned bits, SaveRow::Format format, int filter = -1);
  void set(std::uint32_t s, std::uint64_t value);
  void refresh(NodeId node, std::uint64_t cycle);
  // Writes cycles [written_until_, end): the clock, and in the cycle of the buffered
  // changes those changes.
  void advance(std::uint64_t end);
  bool in_window(std::uint64_t c) const { return c >= from_ && c <= to_; }

  NetworkCore& net_;
  std::string path_;
  std::string save_path_;
  std::unique_ptr<WaveFile> file_;
  std::uint64_t from_, to_;
  std::vector<Signal> vars_;
  std::vector<std::uint32_t> dirty_;
  std::vector<std::int32_t> traced_index_;  // per node: index into traced_, -1 untraced
  std::vector<Traced> traced_;
  std::uint32_t clk_ = 0, cycle_ = 0;
  std::uint64_t written_until_ = 0;  // cycles before it are in the file (or skipped)
  bool window_open_ = false;         // the full state was written at the window's start
  std::vector<std::pair<NodeId, int>> pulsing_;  // outputs valid in the last recorded cycle
  // Address flits per multidestination worm, counted as the NI injects it.
  std::unordered_map<std::uint64_t, std::uint32_t> path_destinations_;
  std::priority_queue<std::pair<std::uint64_t, NodeId>, std::vector<std::pair<std::uint64_t, NodeId>>,
                      std::greater<>>
      touched_;
};

}  // namespace meshsync
