#include "wave_probe.hpp"

#include <algorithm>
#include <filesystem>

#include "../core/errors.hpp"
#include "flit_signals.hpp"

namespace meshsync {

namespace {

unsigned bits_for(std::uint64_t max_value) {
  unsigned b = 1;
  while (b < 64 && (max_value >> b) != 0) ++b;
  return b;
}

// A cycle is 1 ns: 10 time units, the clock high in the first half.
constexpr std::uint64_t kUnitsPerCycle = 10;

}  // namespace

WaveProbe::WaveProbe(NetworkCore& net, const WaveOptions& o)
    : net_(net), path_(o.path), file_(open_wave_file(o.path, wave_format_of(o.path))), from_(o.from), to_(o.to) {
  const MeshShape& mesh = net.mesh();
  coord_bits_ = bits_for(static_cast<std::uint64_t>(std::max(mesh.width, mesh.height) - 1));
  std::uint32_t deepest = 0;
  vcs_ = net.config().router.vcs();
  for (int v = 0; v < vcs_; ++v) deepest = std::max(deepest, net.config().router.depth(v));
  const unsigned credit_bits = bits_for(deepest);
  std::vector<NodeId> nodes = o.routers;
  if (nodes.empty())
    for (int n = 0; n < mesh.nodes(); ++n) nodes.push_back(static_cast<NodeId>(n));
  std::sort(nodes.begin(), nodes.end());
  nodes.erase(std::unique(nodes.begin(), nodes.end()), nodes.end());
  traced_index_.assign(static_cast<std::size_t>(mesh.nodes()), -1);

  // The files GTKWave reads beside the trace: TRACE.gtkw and the filters TRACE.flit_kind.txt,
  // TRACE.vc.txt, TRACE.node.txt.
  const std::string stem = std::filesystem::path(path_).replace_extension().string();
  save_path_ = stem + ".gtkw";
  const std::vector<std::string> filters{stem + ".flit_kind.txt", stem + ".vc.txt", stem + ".node.txt"};
  write_filter_file(filters[0], flit_kind_names());
  write_filter_file(filters[1], vc_names(vcs_));
  write_filter_file(filters[2], node_names(mesh, coord_bits_));
  companions_ = filters;
  companions_.push_back(save_path_);
  std::vector<SaveRow> top;
  std::vector<SaveGroup> groups;

  file_->push_scope("mesh");
  clk_ = declare_row(top, "mesh.", "clk", 1, SaveRow::Binary);
  cycle_ = declare_row(top, "mesh.", "cycle", 64, SaveRow::Decimal);
  for (const NodeId n : nodes) {
    const Coord c = mesh.coord(n);
    Traced t;
    // RTL routers show their ports only: their credits and registers are in the
    // Verilated trace beside this one (docs/waveforms.md).
    t.model = !net.is_external(n);
    const std::string router = "r_" + std::to_string(c.x) + "_" + std::to_string(c.y);
    // Big meshes open with their routers folded.
    SaveGroup rg{router, nodes.size() > 4, {}, {}};
    file_->push_scope(router);
    t.ports = static_cast<std::uint32_t>(vars_.size());
    for (Port p : kAllPorts) {
      const std::string port = std::string(port_signal_name(p)) + "_out";
      const std::string at = "mesh." + router + "." + port + ".";
      SaveGroup pg{port, false, {}, {}};
      file_->push_scope(port);
      declare_row(pg.rows, at, "kind", kFlitKindBits, SaveRow::Decimal, 0);
      declare_row(pg.rows, at, "vc", vc_bits(vcs_), SaveRow::Decimal, 1);
      declare_row(pg.rows, at, "src", 2 * coord_bits_, SaveRow::Decimal, 2);
      declare_row(pg.rows, at, "dest", 2 * coord_bits_, SaveRow::Decimal, 2);
      declare_row(pg.rows, at, "gid", 8, SaveRow::Decimal);
      declare_row(pg.rows, at, "packet", 32, SaveRow::Decimal);
      declare_row(pg.rows, at, "dests_left", 8, SaveRow::Decimal);
      file_->pop_scope();
      rg.groups.push_back(std::move(pg));
    }
    if (t.model) {
      t.credits = static_cast<std::uint32_t>(vars_.size());
      for (std::size_t p = 0; p < kAllPorts.size(); ++p) {
        const std::string port = std::string(port_signal_name(kAllPorts[p])) + "_out";
        const std::string at = "mesh." + router + "." + port + ".";
        // Not in the save file (a port's credits are five more rows): GTKWave's signal
        // tree has them.
        std::vector<SaveRow> unlisted;
        file_->push_scope(port);
        for (const std::string& v : vc_names(vcs_))
          declare_row(unlisted, at, "credits_" + v, credit_bits, SaveRow::Decimal);
        file_->pop_scope();
      }
      t.registers = static_cast<std::uint32_t>(vars_.size());
      t.num_registers = static_cast<std::uint32_t>(net.router(n).registers().size());
      for (std::uint32_t r = 0; r < t.num_registers; ++r) {
        const std::string reg = "breg" + std::to_string(r);
        const std::string at = "mesh." + router + "." + reg + ".";
        SaveGroup bg{reg, false, {}, {}};
        file_->push_scope(reg);
        declare_row(bg.rows, at, "valid", 1, SaveRow::Binary);
        declare_row(bg.rows, at, "member", 1, SaveRow::Binary);
        declare_row(bg.rows, at, "gid", 8, SaveRow::Decimal);
        declare_row(bg.rows, at, "arrived", 8, SaveRow::Decimal);
        declare_row(bg.rows, at, "expected", 8, SaveRow::Decimal);
        file_->pop_scope();
        rg.groups.push_back(std::move(bg));
      }
    }
    file_->pop_scope();
    groups.push_back(std::move(rg));
    traced_index_[n] = static_cast<std::int32_t>(traced_.size());
    traced_.push_back(t);
    if (t.model) {
      const RouterCore& r = net.router(n);
      std::uint32_t s = t.credits;
      for (Port p : kAllPorts)
        for (int v = 0; v < vcs_; ++v) set(s++, r.credits(p, v));
      show_registers(n, true);
    }
  }
  file_->pop_scope();
  write_save_file(save_path_, path_, filters, top, groups);
  for (Signal& s : vars_) s.dirty = false;
  dirty_.clear();
  net_.set_probe(this);
}

WaveProbe::~WaveProbe() { close(); }

std::uint32_t WaveProbe::declare_row(std::vector<SaveRow>& rows, const std::string& prefix, const std::string& name,
                                     unsigned bits, SaveRow::Format format, int filter) {
  rows.push_back(SaveRow{format, prefix + name + (bits > 1 ? "[" + std::to_string(bits - 1) + ":0]" : ""), filter});
  return declare(name, bits);
}

std::uint32_t WaveProbe::declare(const std::string& name, unsigned bits) {
  vars_.push_back(Signal{file_->add_var(name, bits)});
  return static_cast<std::uint32_t>(vars_.size() - 1);
}

void WaveProbe::set(std::uint32_t s, std::uint64_t value) {
  Signal& v = vars_[s];
  if (v.now == value) return;
  v.now = value;
  if (!v.dirty) {
    v.dirty = true;
    dirty_.push_back(s);
  }
}

void WaveProbe::on_inject(NodeId, const Flit& f, std::uint64_t) {
  if (f.mcast && f.addr) ++path_destinations_[f.packet];
}

void WaveProbe::on_output(NodeId node, int port, const Flit& f, std::uint64_t) {
  const std::int32_t t = traced_index_[node];
  if (t < 0) return;
  const std::uint32_t base = traced_[static_cast<std::size_t>(t)].ports + static_cast<std::uint32_t>(port) * kPortFields;
  const MeshShape& mesh = net_.mesh();
  set(base + Kind, static_cast<std::uint64_t>(flit_kind(f)));
  set(base + Vc, static_cast<std::uint64_t>(f.vc()));
  set(base + Src, node_value(mesh.coord(f.src), coord_bits_));
  set(base + Dest, node_value(mesh.coord(f.dest), coord_bits_));
  set(base + Gid, f.sync || f.tree ? f.gid : 0);
  set(base + Packet, f.packet & 0xffffffffu);
  // A multidestination worm's address flit j heads the worm to its last k - j
  // destinations (the routers before stripped j addresses); its data flits keep the
  // value their head set. A tree worm's destinations are the tree's, not the flit's: 0.
  if (f.mcast) {
    if (f.addr) {
      const auto it = path_destinations_.find(f.packet);
      const std::uint32_t k = it == path_destinations_.end() ? 0 : it->second;
      set(base + DestsLeft, k > f.seq ? k - f.seq : 0);
    }
  } else {
    set(base + DestsLeft, f.tree ? 0 : 1);
  }
  pulsing_.emplace_back(node, port);
  // A flit sent to a neighbour took a credit for its VC (every output but Local is a link:
  // nothing leaves through the mesh's edge).
  const Traced& tr = traced_[static_cast<std::size_t>(t)];
  if (tr.model && port != index(Port::Local)) {
    const std::uint32_t s = tr.credits + static_cast<std::uint32_t>(port * vcs_ + f.vc());
    set(s, vars_[s].now - 1);
  }
}

void WaveProbe::on_credit(NodeId node, int port, int vc, std::uint64_t due) {
  const std::int32_t t = traced_index_[node];
  if (t < 0 || !traced_[static_cast<std::size_t>(t)].model) return;
  const CreditReturn cr{due, traced_[static_cast<std::size_t>(t)].credits + static_cast<std::uint32_t>(port * vcs_ + vc)};
  // Returns come due in the order they were sent, but for links slowed at run time.
  if (credit_returns_.empty() || credit_returns_.back().due <= due) {
    credit_returns_.push_back(cr);
    return;
  }
  const auto at = std::upper_bound(credit_returns_.begin(), credit_returns_.end(), due,
                                   [](std::uint64_t d, const CreditReturn& r) { return d < r.due; });
  credit_returns_.insert(at, cr);
}

void WaveProbe::after_step(NodeId node, std::uint64_t) {
  const std::int32_t t = traced_index_[node];
  if (t >= 0 && traced_[static_cast<std::size_t>(t)].model) show_registers(node, false);
}

void WaveProbe::touch(NodeId node, std::uint64_t cycle) {
  const std::int32_t t = traced_index_[node];
  if (t >= 0 && traced_[static_cast<std::size_t>(t)].model) touched_.emplace(cycle, node);
}

void WaveProbe::show_registers(NodeId node, bool always) {
  Traced& t = traced_[static_cast<std::size_t>(traced_index_[node])];
  const RouterCore& r = net_.router(node);
  // A router's step changes its registers only when one is in use (a sync message finds
  // none otherwise), and most steps of a traced run are unicast traffic's.
  const bool in_use = r.registers().in_use() > 0;
  if (!always && !in_use && !t.registers_shown) return;
  t.registers_shown = in_use;
  std::uint32_t s = t.registers;
  for (std::uint32_t i = 0; i < t.num_registers; ++i) {
    const BarrierRegister& b = r.registers().at(static_cast<int>(i));
    set(s + RegValid, b.valid());
    set(s + RegMember, b.member());
    set(s + RegGid, b.gid());
    set(s + RegArrived, b.arrived());
    set(s + RegExpected, b.member() ? b.expected() : 0);
    s += kRegisterFields;
  }
}

std::uint64_t WaveProbe::next_cycle() const {
  std::uint64_t next = touched_.empty() ? kNever : touched_.top().first;
  if (!credit_returns_.empty()) next = std::min(next, credit_returns_.front().due);
  return next;
}

void WaveProbe::begin_cycle(std::uint64_t cycle) {
  advance(cycle);
  while (!credit_returns_.empty() && credit_returns_.front().due <= cycle) {
    const std::uint32_t s = credit_returns_.front().signal;
    set(s, vars_[s].now + 1);
    credit_returns_.pop_front();
  }
  while (!touched_.empty() && touched_.top().first <= cycle) {
    show_registers(touched_.top().second, true);
    touched_.pop();
  }
}

void WaveProbe::advance(std::uint64_t end) {
  if (!file_) return;
  for (std::uint64_t k = written_until_; k < end; ++k) {
    if (dirty_.empty() && pulsing_.empty()) {
      // Nothing changes before `end` but the clock, which is written in the window only.
      if (k > to_) break;
      if (k < from_) {
        k = from_;
        if (k >= end) break;
      }
    }
    if (in_window(k)) {
      file_->time(k * kUnitsPerCycle);
      if (!window_open_) {
        // The window's first cycle shows every signal, so that nothing starts unknown.
        for (Signal& v : vars_) {
          file_->change(v.var, v.now);
          v.shown = v.now;
        }
        window_open_ = true;
      } else {
        for (const std::uint32_t s : dirty_) {
          Signal& v = vars_[s];
          if (v.now != v.shown) file_->change(v.var, v.now);
          v.shown = v.now;
        }
      }
      file_->change(vars_[clk_].var, 1);
      file_->change(vars_[cycle_].var, k);
      file_->time(k * kUnitsPerCycle + kUnitsPerCycle / 2);
      file_->change(vars_[clk_].var, 0);
      vars_[clk_].shown = 0;
      vars_[cycle_].shown = vars_[cycle_].now = k;
    } else {
      for (const std::uint32_t s : dirty_) vars_[s].shown = vars_[s].now;
    }
    for (const std::uint32_t s : dirty_) vars_[s].dirty = false;
    dirty_.clear();
    // A flit is on its output for one cycle.
    for (const auto& [node, port] : pulsing_) {
      const std::uint32_t base =
          traced_[static_cast<std::size_t>(traced_index_[node])].ports + static_cast<std::uint32_t>(port) * kPortFields;
      set(base + Kind, static_cast<std::uint64_t>(FlitKind::Idle));
    }
    pulsing_.clear();
  }
  written_until_ = std::max(written_until_, end);
}

void WaveProbe::close() {
  if (!file_) return;
  if (net_.ran(0)) {
    const std::uint64_t end = net_.last_cycle() + 1;
    advance(end);
    // The last cycle gets its width.
    if (window_open_) file_->time(std::min(end, to_ == kNever ? end : to_ + 1) * kUnitsPerCycle);
  }
  file_->close();
  file_.reset();
  net_.set_probe(nullptr);
}

}  // namespace meshsync
