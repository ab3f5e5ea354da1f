#include "fault.hpp"

#include <algorithm>

#include "config.hpp"
#include "random.hpp"
#include "text_scan.hpp"

namespace meshsync {

namespace {

std::string where(Coord c) { return "(" + std::to_string(c.x) + "," + std::to_string(c.y) + ")"; }

Port parse_direction(const std::string& d, const std::string& spec) {
  for (Port p : kAllPorts)
    if (p != Port::Local && d == port_name(p)) return p;
  throw ConfigError("fault '" + spec + "': direction '" + d + "' is not one of +X -X +Y -Y");
}

}  // namespace

std::string Fault::place() const {
  if (kind == FaultKind::Router) return "router " + where(at);
  return "link " + where(at) + " " + std::string(port_name(port));
}

std::string Fault::text() const {
  const char* what = kind == FaultKind::Corrupt ? " corrupts one flit" : " stopped";
  return place() + what + " from cycle " + std::to_string(cycle);
}

Fault parse_fault(const std::string& spec, const MeshShape& mesh) {
  // kind:X,Y[,DIR]@CYCLE
  TextScan t(spec);
  std::string kind;
  for (const char* k : {"link", "router", "corrupt"})
    if (kind.empty() && t.take_word(k)) kind = k;
  std::optional<long long> x, y, cycle;
  std::string dir;
  bool ok = !kind.empty() && t.take(':') && (x = t.number(9)) && t.take(',') && (y = t.number(9));
  if (ok && t.take(',')) {
    const char sign = t.take_any("+-");
    const char axis = t.take_any("XY");
    ok = sign != 0 && axis != 0;
    dir = std::string{sign, axis};
  }
  ok = ok && t.take('@') && (cycle = t.number(18)) && t.done();
  if (!ok)
    throw ConfigError("malformed fault '" + spec +
                      "' (expected link:X,Y,DIR@CYCLE, router:X,Y@CYCLE or corrupt:X,Y,DIR@CYCLE)");
  Fault f;
  f.kind = kind == "router" ? FaultKind::Router : kind == "link" ? FaultKind::Link : FaultKind::Corrupt;
  f.at = {static_cast<int>(*x), static_cast<int>(*y)};
  f.cycle = static_cast<std::uint64_t>(*cycle);
  if (!mesh.contains(f.at))
    throw ConfigError("fault '" + spec + "': " + where(f.at) + " is outside the " + std::to_string(mesh.width) +
                      "x" + std::to_string(mesh.height) + " mesh");
  const bool has_dir = !dir.empty();
  if (f.kind == FaultKind::Router) {
    if (has_dir) throw ConfigError("fault '" + spec + "': a router fault takes no direction (router:X,Y@CYCLE)");
    return f;
  }
  if (!has_dir) throw ConfigError("fault '" + spec + "': a " + kind + " fault needs a direction (" + kind + ":X,Y,DIR@CYCLE)");
  f.port = parse_direction(dir, spec);
  if (!mesh.has_neighbor(f.at, f.port))
    throw ConfigError("fault '" + spec + "': router " + where(f.at) + " has no link " +
                      std::string(port_name(f.port)) + " (the mesh's edge)");
  return f;
}

void FaultInjector::add(const Fault& f) {
  faults_.push_back(f);
  done_.push_back(false);
  swallowed_.push_back(0);
}

void FaultInjector::hold(NodeId n) {
  if (std::find(held_.begin(), held_.end(), n) == held_.end()) held_.push_back(n);
}

bool FaultInjector::router_stopped(NodeId n, std::uint64_t cycle) {
  for (const Fault& f : faults_)
    if (f.kind == FaultKind::Router && cycle >= f.cycle && mesh_.id(f.at) == n) {
      hold(n);
      return true;
    }
  return false;
}

bool FaultInjector::cross(NodeId from, Port port, Flit& flit, std::uint64_t cycle) {
  for (std::size_t i = 0; i < faults_.size(); ++i) {
    const Fault& f = faults_[i];
    if (f.kind == FaultKind::Router || cycle < f.cycle || f.port != port || mesh_.id(f.at) != from) continue;
    if (f.kind == FaultKind::Link) {
      ++swallowed_[i];
      hold(from);
      return false;
    }
    if (done_[i] || flit.sync) continue;
    done_[i] = true;
    // The bit is drawn from the 30-bit payload field of the hardware flit
    // (flit_format::kPayload), by the run's seed.
    Random rng(seed_ ^ (0x9E3779B97F4A7C15ull * (i + 1)));
    const auto bit = static_cast<std::uint32_t>(rng.below(30));
    flit.payload ^= 1u << bit;
    corrupted_.push_back({flit.packet, flit.seq, bit, cycle, f});
  }
  return true;
}

std::vector<std::string> FaultInjector::report() const {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < faults_.size(); ++i) {
    std::string line = "fault injected: " + faults_[i].text();
    if (faults_[i].kind == FaultKind::Link) line += " (" + std::to_string(swallowed_[i]) + " flit(s) lost on it)";
    out.push_back(line);
  }
  for (const Corruption& c : corrupted_)
    out.push_back("fault injected: packet " + std::to_string(c.packet) + " flit " + std::to_string(c.seq) +
                  " had payload bit " + std::to_string(c.bit) + " flipped on " + c.fault.place() + " in cycle " + std::to_string(c.cycle));
  return out;
}

}  // namespace meshsync
