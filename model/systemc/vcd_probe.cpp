#include "vcd_probe.hpp"

#include <algorithm>
#include <fstream>

namespace meshsync {

VcdProbe::VcdProbe(NetworkCore& net, const std::string& path) : net_(net) {
  std::string base = path;
  if (base.size() > 4 && base.compare(base.size() - 4, 4, ".vcd") == 0) base.resize(base.size() - 4);
  // SystemC does not report a file it cannot open; find out before handing it the name.
  if (!std::ofstream(base + ".vcd")) throw ConfigError("cannot write waveform file '" + base + ".vcd'");
  file_ = sc_core::sc_create_vcd_trace_file(base.c_str());
  // RTL routers (docs/cosim.md) put their outputs out at c + 1/2: a finer unit keeps them
  // (it must be a power of ten).
  if (net.has_external()) file_->set_time_unit(100, sc_core::SC_PS);
  else file_->set_time_unit(1, sc_core::SC_NS);
  const MeshShape& mesh = net.mesh();
  routers_.resize(static_cast<std::size_t>(mesh.nodes()));
  const unsigned coord_bits = 16;
  for (int n = 0; n < mesh.nodes(); ++n) {
    const Coord c = mesh.coord(static_cast<NodeId>(n));
    RouterTrace& rt = routers_[static_cast<std::size_t>(n)];
    rt.regs.resize(net.router(static_cast<NodeId>(n)).registers().size());
    const std::string r = "mesh.r_" + std::to_string(c.x) + "_" + std::to_string(c.y) + ".";
    for (Port p : kAllPorts) {
      PortTrace& pt = rt.out[index(p)];
      const std::string o = r + std::string(port_signal_name(p)) + "_out.";
      sc_core::sc_trace(file_, pt.valid, o + "valid");
      sc_core::sc_trace(file_, pt.type, o + "type", 4);
      sc_core::sc_trace(file_, pt.vc, o + "vc", 3);
      sc_core::sc_trace(file_, pt.dest_x, o + "dest_x", coord_bits);
      sc_core::sc_trace(file_, pt.dest_y, o + "dest_y", coord_bits);
      sc_core::sc_trace(file_, pt.gid, o + "gid", 8);
      static const char* vc_names[kVcs] = {"credits_worm", "credits_sync_xy", "credits_sync_yx",
                                            "credits_snake_worm", "credits_tree_worm"};
      for (int v = 0; v < kVcs; ++v) sc_core::sc_trace(file_, pt.credits[v], o + vc_names[v], 16);
    }
    for (std::size_t i = 0; i < rt.regs.size(); ++i) {
      RegisterTrace& bt = rt.regs[i];
      const std::string b = r + "breg" + std::to_string(i) + ".";
      sc_core::sc_trace(file_, bt.valid, b + "valid");
      sc_core::sc_trace(file_, bt.member, b + "member");
      sc_core::sc_trace(file_, bt.gid, b + "gid", 8);
      sc_core::sc_trace(file_, bt.arrived, b + "arrived", 8);
      sc_core::sc_trace(file_, bt.expected, b + "expected", 8);
    }
    refresh(static_cast<NodeId>(n), 0);
  }
  net_.set_probe(this);
}

VcdProbe::~VcdProbe() {
  net_.set_probe(nullptr);
  if (file_) sc_core::sc_close_vcd_trace_file(file_);
}

void VcdProbe::on_output(NodeId node, int port, const Flit& f, std::uint64_t cycle) {
  PortTrace& pt = routers_[node].out[static_cast<std::size_t>(port)];
  const Coord d = net_.mesh().coord(f.dest);
  pt.valid = true;
  pt.vc = static_cast<unsigned>(f.vc());
  pt.dest_x = static_cast<unsigned>(d.x);
  pt.dest_y = static_cast<unsigned>(d.y);
  pt.gid = f.sync ? f.gid : 0;
  if (f.sync) pt.type = SyncArrive + static_cast<unsigned>(f.stype);
  else if (f.head && f.tail) pt.type = WormSingle;
  else pt.type = f.head ? WormHead : f.tail ? WormTail : WormBody;
  pulsing_.emplace_back(node, port);
  pulse_cycle_ = cycle;
}

void VcdProbe::after_step(NodeId node, std::uint64_t cycle) { refresh(node, cycle); }

void VcdProbe::touch(NodeId node, std::uint64_t cycle) { touched_.emplace(cycle, node); }

void VcdProbe::refresh(NodeId node, std::uint64_t cycle) {
  RouterTrace& rt = routers_[node];
  const RouterCore& r = net_.router(node);
  for (Port p : kAllPorts)
    for (int v = 0; v < kVcs; ++v) rt.out[index(p)].credits[v] = r.credits_at(p, v, cycle);
  for (std::size_t i = 0; i < rt.regs.size(); ++i) {
    const BarrierRegister& b = r.registers().at(static_cast<int>(i));
    rt.regs[i] = RegisterTrace{b.valid(), b.member(), b.gid(), b.arrived(),
                               b.member() ? b.expected() : 0};
  }
}

std::uint64_t VcdProbe::next_cycle() const {
  std::uint64_t next = pulsing_.empty() ? kNever : pulse_cycle_ + 1;
  if (!touched_.empty()) next = std::min(next, touched_.top().first);
  return next;
}

void VcdProbe::begin_cycle(std::uint64_t cycle) {
  while (!touched_.empty() && touched_.top().first <= cycle) {
    refresh(touched_.top().second, cycle);
    touched_.pop();
  }
  if (cycle <= pulse_cycle_) return;
  for (const auto& [node, port] : pulsing_) {
    PortTrace& pt = routers_[node].out[static_cast<std::size_t>(port)];
    pt.valid = false;
    pt.type = Idle;
  }
  pulsing_.clear();
}

}  // namespace meshsync
