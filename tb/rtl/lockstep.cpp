#include "lockstep.hpp"

#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <stdexcept>

namespace meshsync::rtl {

namespace {

const char* const kPortName[kPorts] = {"Local", "+X", "-X", "+Y", "-Y"};

class CaptureLinks final : public RouterLinks {
 public:
  explicit CaptureLinks(ModelOutputs& out) : out_(out) {}
  void flit_out(NodeId, int port, const Flit& f, std::uint64_t) override {
    if (out_.out[port]) throw std::logic_error("model granted two flits to one output");
    out_.out[port] = f;
  }
  void credit_out(NodeId, int port, int vc, std::uint64_t) override {
    out_.credit[port][vc] = true;
  }

 private:
  ModelOutputs& out_;
};

std::string describe_output(bool valid, int vc, std::uint32_t bits) {
  if (!valid) return "<none>";
  std::ostringstream s;
  s << "vc " << vc << " " << describe_flit(bits);
  return s.str();
}

}  // namespace

std::uint32_t encode_flit(const Flit& f, const MeshShape& mesh) {
  std::uint32_t b = (static_cast<std::uint32_t>(f.head) << 31) |
                    (static_cast<std::uint32_t>(f.tail) << 30);
  if (!f.head) return b | (f.payload & 0x3fffffffu);
  const Coord d = mesh.coord(f.dest);
  b |= static_cast<std::uint32_t>(f.sync) << 29;
  b |= static_cast<std::uint32_t>(f.route == Route::YX) << 28;
  b |= (static_cast<std::uint32_t>(f.stype) & 3u) << 26;
  b |= static_cast<std::uint32_t>(f.gid) << 18;
  b |= (static_cast<std::uint32_t>(f.data) & 15u) << 14;
  b |= (static_cast<std::uint32_t>(d.y) & 127u) << 7;
  b |= static_cast<std::uint32_t>(d.x) & 127u;
  return b;
}

std::string describe_flit(std::uint32_t b) {
  static const char* const type[4] = {"arrive", "release", "setup", "teardown"};
  std::ostringstream s;
  s << "0x" << std::hex << b << std::dec << " (";
  const bool head = b >> 31, tail = (b >> 30) & 1u;
  if (!head) {
    s << (tail ? "tail" : "body") << " payload 0x" << std::hex << (b & 0x3fffffffu) << std::dec;
  } else if ((b >> 29) & 1u) {
    s << "sync " << type[(b >> 26) & 3u] << " gid " << ((b >> 18) & 255u) << " data "
      << ((b >> 14) & 15u) << " dest (" << (b & 127u) << "," << ((b >> 7) & 127u) << ") R="
      << (((b >> 28) & 1u) ? "YX" : "XY");
  } else {
    s << (tail ? "head+tail" : "head") << " dest (" << (b & 127u) << "," << ((b >> 7) & 127u)
      << ")";
  }
  s << ")";
  return s.str();
}

Lockstep::Lockstep(std::unique_ptr<RtlRouter> rtl, Coord where)
    : rtl_(std::move(rtl)), where_(where) {
  const RtlParams& p = rtl_->params();
  mesh_ = MeshShape{p.mesh_w, p.mesh_h};
  for (int n = 0; n < mesh_.nodes(); ++n) coords_.push_back(mesh_.coord(static_cast<NodeId>(n)));
  cfg_.mesh = mesh_;
  cfg_.timing.trn = static_cast<std::uint32_t>(p.trn);
  cfg_.timing.trm = static_cast<std::uint32_t>(p.trm);
  cfg_.router.buffer_depth = static_cast<std::uint32_t>(p.buffer_depth);
  cfg_.router.sync_buffer_depth = static_cast<std::uint32_t>(p.sync_buffer_depth);
  cfg_.router.barrier_registers = static_cast<std::uint32_t>(p.num_regs);
  cfg_.router.max_children = static_cast<std::uint32_t>(p.max_children);
  model_ = std::make_unique<RouterCore>(mesh_.id(where_), where_, cfg_, coords_.data());
  rtl_->reset(where_.x, where_.y);
  trace_ = std::getenv("MESHSYNC_LOCKSTEP_TRACE") != nullptr;
}

const ModelOutputs& Lockstep::step_model() {
  model_out_ = ModelOutputs{};
  // The state at the start of cycle c, before step(c) pops anything.
  model_idle_ = model_->idle();
  CaptureLinks links(model_out_);
  try {
    model_->step(cycle_, links);
  } catch (const std::logic_error& e) {
    model_out_.error = true;
    model_out_.error_text = e.what();
  }
  stepped_ = true;
  return model_out_;
}

bool Lockstep::fail(const std::string& what) {
  if (mismatch_.empty()) {
    std::ostringstream s;
    s << "cycle " << cycle_ << " " << what;
    mismatch_ = s.str();
  }
  return false;
}

bool Lockstep::apply(const Stimulus& s) {
  if (!stepped_) throw std::logic_error("Lockstep::apply without step_model");
  stepped_ = false;

  // The RTL's cycle.
  RtlInputs in;
  for (int p = 0; p < kPorts; ++p) {
    if (!s.in[p]) continue;
    in.in_valid[p] = true;
    in.in_vc[p] = static_cast<std::uint8_t>(s.in[p]->vc());
    in.in_flit[p] = encode_flit(*s.in[p], mesh_);
  }
  in.credit_in = s.credit;
  in.reg_op = s.reg.op;
  if (s.reg.op == RegOp::Program) {
    const BarrierRegisterSetup& su = s.reg.setup;
    in.reg_gid = su.gid;
    in.reg_parent_valid = su.parent.has_value();
    if (su.parent) {
      in.reg_parent_x = mesh_.coord(*su.parent).x;
      in.reg_parent_y = mesh_.coord(*su.parent).y;
    }
    in.reg_route = su.parent_route == Route::YX;
    in.reg_slot = su.slot_at_parent;
    in.reg_transit = su.transit;
    // The port says "too many" with any count above MaxChildren.
    const int max = params().max_children;
    in.reg_num_children = std::min<int>(static_cast<int>(su.children.size()), max + 1);
    for (int j = 0; j < max && j < static_cast<int>(su.children.size()); ++j) {
      in.reg_child_x[j] = mesh_.coord(su.children[j].node).x;
      in.reg_child_y[j] = mesh_.coord(su.children[j].node).y;
      in.reg_child_route[j] = su.children[j].route == Route::YX;
    }
  } else if (s.reg.op == RegOp::Free) {
    in.reg_gid = s.reg.gid;
  }
  rtl_out_ = rtl_->eval(in);
  if (trace_) {
    // MESHSYNC_LOCKSTEP_TRACE=1: every cycle's stimulus and outputs on stderr.
    for (int p = 0; p < kPorts; ++p) {
      if (s.in[p])
        std::fprintf(stderr, "%llu in  %-5s vc %d %s\n", static_cast<unsigned long long>(cycle_),
                     kPortName[p], s.in[p]->vc(), describe_flit(in.in_flit[p]).c_str());
      if (model_out_.out[p])
        std::fprintf(stderr, "%llu out %-5s vc %d %s\n", static_cast<unsigned long long>(cycle_),
                     kPortName[p], model_out_.out[p]->vc(),
                     describe_flit(encode_flit(*model_out_.out[p], mesh_)).c_str());
      for (int v = 0; v < kVcs; ++v) {
        if (s.credit[p][v])
          std::fprintf(stderr, "%llu credit in %s vc %d\n", static_cast<unsigned long long>(cycle_),
                       kPortName[p], v);
        if (model_out_.credit[p][v])
          std::fprintf(stderr, "%llu credit out %s vc %d\n", static_cast<unsigned long long>(cycle_),
                       kPortName[p], v);
      }
    }
    if (s.reg.op != RegOp::None)
      std::fprintf(stderr, "%llu reg %s gid %d\n", static_cast<unsigned long long>(cycle_),
                   s.reg.op == RegOp::Program ? "program" : "free",
                   s.reg.op == RegOp::Program ? s.reg.setup.gid : s.reg.gid);
  }

  // The model's software command, after its step: NetworkCore::program_register and
  // free_register, which the NI calls between two router steps.
  model_reg_ok_ = false;
  BarrierRegisterFile& regs = model_->registers();
  if (s.reg.op == RegOp::Program) {
    const bool fits = s.reg.setup.children.size() <= cfg_.router.max_children;
    const int r = fits ? regs.find_or_allocate(s.reg.setup.gid) : -1;
    if (r >= 0) regs.at(r).program(s.reg.setup);
    model_reg_ok_ = r >= 0;
  } else if (s.reg.op == RegOp::Free) {
    const int r = regs.lookup(s.reg.gid);
    if (r >= 0 && regs.at(r).member()) {
      regs.at(r).unprogram();
      model_reg_ok_ = true;
    }
  }

  // Compare cycle c. When the model throws (protocol violation) the rest of its cycle did
  // not run: only the error output is compared then.
  bool ok = true;
  for (int p = 0; p < kPorts && ok && !model_out_.error; ++p) {
    const auto& m = model_out_.out[p];
    const bool mv = m.has_value();
    const int mvc = mv ? m->vc() : 0;
    const std::uint32_t mbits = mv ? encode_flit(*m, mesh_) : 0;
    const bool rv = rtl_out_.out_valid[p];
    if (mv != rv || (mv && (mvc != rtl_out_.out_vc[p] || mbits != rtl_out_.out_flit[p]))) {
      ok = fail(std::string("port ") + kPortName[p] + ": expected " +
                describe_output(mv, mvc, mbits) + ", actual " +
                describe_output(rv, rtl_out_.out_vc[p], rtl_out_.out_flit[p]));
    }
    if (mv) ++flits_compared_;
  }
  for (int p = 0; p < kPorts && ok && !model_out_.error; ++p)
    for (int v = 0; v < kVcs && ok; ++v) {
      if (model_out_.credit[p][v] != rtl_out_.credit_out[p][v])
        ok = fail(std::string("port ") + kPortName[p] + ": credit out VC " + std::to_string(v) +
                  ": expected " + std::to_string(model_out_.credit[p][v]) + ", actual " +
                  std::to_string(rtl_out_.credit_out[p][v]));
      if (model_out_.credit[p][v]) ++credits_compared_;
    }
  if (ok && !model_out_.error && s.reg.op != RegOp::None && model_reg_ok_ != rtl_out_.reg_ok)
    ok = fail(std::string("reg_ok (") + (s.reg.op == RegOp::Program ? "program" : "free") +
              " gid " + std::to_string(s.reg.op == RegOp::Program ? s.reg.setup.gid : s.reg.gid) +
              "): expected " + std::to_string(model_reg_ok_) + ", actual " +
              std::to_string(rtl_out_.reg_ok));
  for (int v = 0; v < kVcs && ok && !model_out_.error; ++v) {
    const bool fits = model_->buffered(Port::Local, v) < depth(v);
    if (fits != rtl_out_.local_ready[v])
      ok = fail("port Local: local_ready VC " + std::to_string(v) + ": expected " +
                std::to_string(fits) + ", actual " + std::to_string(rtl_out_.local_ready[v]));
  }
  // idle compares the state at the start of the cycle, which a throwing step(c) had not
  // touched yet: compared in every cycle.
  if (ok && model_idle_ != rtl_out_.idle)
    ok = fail(std::string("idle: expected ") + std::to_string(model_idle_) + ", actual " +
              std::to_string(rtl_out_.idle));
  if (ok && model_idle_) ++idle_cycles_;
  if (ok && model_out_.error != rtl_out_.error)
    ok = fail(std::string("error: expected ") + std::to_string(model_out_.error) +
              (model_out_.error ? " (" + model_out_.error_text + ")" : std::string()) +
              ", actual " + std::to_string(rtl_out_.error));

  // The clock edge: arrivals and credits take effect for cycle c + 1.
  for (int p = 0; p < kPorts; ++p) {
    if (!s.in[p]) continue;
    const int vc = s.in[p]->vc();
    if (model_->buffered(port_at(p), vc) >= depth(vc))
      ok = fail(std::string("stimulus error: flit into full input ") + kPortName[p] + " VC " +
                std::to_string(vc));
    else
      model_->receive(port_at(p), *s.in[p], cycle_ + 1);
  }
  for (int p = 0; p < kPorts; ++p)
    for (int v = 0; v < kVcs; ++v)
      if (s.credit[p][v]) model_->return_credit(port_at(p), v, cycle_ + 1);
  rtl_->clock();
  ++cycle_;
  return ok;
}

}  // namespace meshsync::rtl
