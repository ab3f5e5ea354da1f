// The mesh's waveform for GTKWave (docs/waveforms.md): a clock and a cycle counter, and
// per router the flit leaving each output port, decoded (kind, VC, source, destination,
// group, packet, destinations left), its credits and its barrier registers. Model and RTL
// routers alike: both hand their output flits to the mesh (NetworkCore), which is where
// this probe sees them, so one run's model and RTL routers carry the same names.
#pragma once

#include <cstdint>
#include <deque>
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
  // router and port; TRACE.flit_kind.txt, TRACE.vc.txt and TRACE.node.txt name the flit
  // kinds, the VCs and the nodes ("x,y").
  const std::string& save_path() const { return save_path_; }
  // Every file written beside the trace: the save file and the filters.
  const std::vector<std::string>& companion_files() const { return companions_; }
  std::size_t signals() const { return vars_.size(); }

  void on_output(NodeId node, int port, const Flit& f, std::uint64_t cycle) override;
  void on_inject(NodeId node, const Flit& f, std::uint64_t cycle) override;
  void after_step(NodeId node, std::uint64_t cycle) override;
  void touch(NodeId node, std::uint64_t cycle) override;
  void on_credit(NodeId node, int port, int vc, std::uint64_t due) override;
  std::uint64_t next_cycle() const override;
  void begin_cycle(std::uint64_t cycle) override;

 private:
  // The fields of one output port, then (model routers) its credits per VC.
  enum PortField : unsigned { Kind, Vc, Src, Dest, Gid, Packet, DestsLeft, kPortFields };
  enum RegisterField : unsigned { RegValid, RegMember, RegGid, RegArrived, RegExpected, kRegisterFields };
  struct Signal {
    WaveFile::Var var;
    std::uint64_t now = 0;    // the value as of the cycle being recorded
    std::uint64_t shown = 0;  // the value the file shows
    bool dirty = false;
  };
  struct Traced {
    std::uint32_t ports = 0;      // first Signal of its ports' fields
    std::uint32_t credits = 0;    // first credit Signal (kPorts x kVcs), model routers
    std::uint32_t registers = 0;  // first register Signal
    std::uint32_t num_registers = 0;
    bool model = false;
    bool registers_shown = false;  // a register was valid when last looked at
  };
  // A credit on its way back to a traced router's counter (its Signal).
  struct CreditReturn {
    std::uint64_t due;
    std::uint32_t signal;
  };
  std::uint32_t declare(const std::string& name, unsigned bits);
  // declare(), and a row for the save file in `rows` (scope `prefix`), shown through
  // filter file `filter` (0 flit kinds, 1 VCs, 2 nodes) when not -1.
  std::uint32_t declare_row(std::vector<SaveRow>& rows, const std::string& prefix, const std::string& name,
                            unsigned bits, SaveRow::Format format, int filter = -1);
  void set(std::uint32_t s, std::uint64_t value);
  // The barrier registers' signals from the router's registers.
  void show_registers(NodeId node, bool always);
  // Writes cycles [written_until_, end): the clock, and in the cycle of the buffered
  // changes those changes.
  void advance(std::uint64_t end);
  bool in_window(std::uint64_t c) const { return c >= from_ && c <= to_; }

  NetworkCore& net_;
  std::string path_;
  std::string save_path_;
  std::vector<std::string> companions_;
  std::unique_ptr<WaveFile> file_;
  std::uint64_t from_, to_;
  std::vector<Signal> vars_;
  std::vector<std::uint32_t> dirty_;
  std::vector<std::int32_t> traced_index_;  // per node: index into traced_, -1 untraced
  std::vector<Traced> traced_;
  std::uint32_t clk_ = 0, cycle_ = 0;
  int vcs_ = kVcs;            // VC numbers in use: a port's credit rows
  unsigned coord_bits_ = 1;  // a node shows as its x and y side by side: x << coord_bits_ | y
  std::uint64_t written_until_ = 0;  // cycles before it are in the file (or skipped)
  bool window_open_ = false;         // the full state was written at the window's start
  std::vector<std::pair<NodeId, int>> pulsing_;  // outputs valid in the last recorded cycle
  // Address flits per multidestination worm, counted as the NI injects it.
  std::unordered_map<std::uint64_t, std::uint32_t> path_destinations_;
  // Register writes by software, in the cycle they show.
  std::priority_queue<std::pair<std::uint64_t, NodeId>, std::vector<std::pair<std::uint64_t, NodeId>>,
                      std::greater<>>
      touched_;
  // Credits returning, by due cycle. The counters are followed rather than read back
  // after each step (a third of tracing's cost when they were): a flit sent takes one,
  // a return gives it back when it is due.
  std::deque<CreditReturn> credit_returns_;
};

}  // namespace meshsync
