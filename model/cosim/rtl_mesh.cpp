#include "rtl_mesh.hpp"

#include <algorithm>
#include <array>
#include <deque>
#include <optional>
#include <sstream>

#include <verilated_fst_c.h>

#include "lockstep_check.hpp"
#include "model/core/injection_channel.hpp"
#include "model/core/output_files.hpp"
#include "model/systemc/mesh_system.hpp"
#include "model/trace/wave_file.hpp"

namespace meshsync::rtl {

namespace {

std::string where(const MeshShape& m, NodeId n) {
  const Coord c = m.coord(n);
  return "(" + std::to_string(c.x) + "," + std::to_string(c.y) + ")";
}
}  // namespace

// One RTL router in the mesh. Inputs wait here until the cycle before they take effect.
// The router's flits carry only hardware bits, so the site mirrors what each input
// buffer holds: a credit the router returns (inj_pop for the NI's injection channels)
// names the input that popped, and a flit leaving is matched to it to recover the
// model's packet fields (docs/rtl.md).
class RtlSite final : public ExternalRouter {
 public:
  RtlSite(NodeId id, NetworkCore& net, std::unique_ptr<RtlRouter> router, bool lockstep)
      : id_(id), net_(net), mesh_(net.mesh()), router_(std::move(router)),
        shadow_(lockstep ? &net.router(id) : nullptr),
        local_(static_cast<std::size_t>(router_->params().ni_ports())) {
    // The model beside the RTL has the RTL's lanes, so a vector longer than them is the
    // same violation in the same cycle in both.
    if (shadow_) shadow_->set_reduce_words(router_->params().router.reduce_words);
  }

  RtlRouter& router() { return *router_; }
  NodeId id() const { return id_; }
  std::uint32_t reduce_words() const override { return router_->params().router.reduce_words; }

  std::uint64_t inject(const Flit& f, std::uint64_t cycle, int channel) override {
    local_.at(static_cast<std::size_t>(channel)).push(f, cycle);
    return cycle > 0 ? cycle - 1 : 0;
  }
  std::uint64_t receive(Port in, const Flit& f, std::uint64_t arrival) override {
    auto pos = flits_.end();
    while (pos != flits_.begin() && std::prev(pos)->cycle > arrival - 1) --pos;
    flits_.insert(pos, {arrival - 1, index(in), f});
    return arrival - 1;
  }
  std::uint64_t return_credit(Port out, int vc, std::uint64_t cycle) override {
    auto pos = credits_.end();
    while (pos != credits_.begin() && std::prev(pos)->cycle > cycle - 1) --pos;
    credits_.insert(pos, {cycle - 1, index(out), vc});
    return cycle - 1;
  }
  std::uint64_t program_register(const BarrierRegisterSetup& s, std::uint64_t cycle) override {
    reg_ = RegWrite{cycle, RegOp::Program, s, s.gid};
    return cycle;
  }
  std::uint64_t free_register(std::uint8_t gid, std::uint64_t cycle) override {
    reg_ = RegWrite{cycle, RegOp::Free, {}, gid};
    return cycle;
  }
  bool register_ok() const override { return reg_ok_; }

  std::uint64_t next_wake(std::uint64_t c) const override {
    if (busy_) return c + 1;
    std::uint64_t next = kNever;
    if (!flits_.empty()) next = std::min(next, flits_.front().cycle);
    if (!credits_.empty()) next = std::min(next, credits_.front().cycle);
    for (const InjectionChannel& ch : local_)
      if (!ch.empty()) next = std::min(next, std::max(c + 1, ch.front_cycle() - 1));
    if (reg_) next = std::min(next, reg_->cycle);
    return std::max(next, c + 1);
  }
  void describe_stuck(std::vector<std::string>& out) const override {
    const std::string me = "RTL router " + where(mesh_, id_);
    const std::size_t before = out.size();
    for (int p = 0; p < inputs(); ++p)
      for (int v = 0; v < kRtlVcs; ++v)
        if (!inside_[p][v].empty())
          out.push_back(me + " input " + port_label(p) + " VC " + std::to_string(v) + ": " +
                        std::to_string(inside_[p][v].size()) + " flit(s), head " +
                        describe_flit(encode_flit(inside_[p][v].front(), mesh_)));
    if (!rtl_idle_ && out.size() == before) out.push_back(me + ": not idle (messages in its barrier unit)");
    for (std::size_t ch = 0; ch < local_.size(); ++ch)
      if (!local_[ch].empty())
        out.push_back(me + ": " + std::to_string(local_[ch].size()) + " flit(s) waiting at the NI" +
                      (local_.size() > 1 ? " (injection channel " + std::to_string(ch) + ")" : ""));
  }

  // Phase 0 of cycle c, on the simulation's thread: the core's cycle (lockstep).
  void step_shadow(std::uint64_t c) {
    if (shadow_) model_ = step_core(*shadow_, c);
  }

  // Phase 1: the inputs of the cycle. Phases 1 and 2 touch only this site and its router,
  // so the routers of a cycle run them on any thread (ParallelLoop).
  void begin(std::uint64_t c) {
    in_ = RtlInputs{};
    arriving_ = {};
    presented_ = false;
    while (!flits_.empty() && flits_.front().cycle <= c) {
      const PendingFlit& a = flits_.front();
      if (a.cycle < c || in_.in_valid[a.port])
        throw std::logic_error("co-simulation: an input missed its cycle at " + where(mesh_, id_));
      in_.in_valid[a.port] = true;
      in_.in_vc[a.port] = static_cast<std::uint8_t>(a.flit.vc());
      in_.in_flit[a.port] = encode_flit(a.flit, mesh_);
      arriving_[a.port] = a.flit;
      flits_.pop_front();
      presented_ = true;
    }
    while (!credits_.empty() && credits_.front().cycle <= c) {
      const PendingCredit& k = credits_.front();
      in_.credit_in[k.port][k.vc] = true;
      credits_.pop_front();
      presented_ = true;
    }
    op_ = RegOp::None;
    if (reg_ && reg_->cycle <= c) {
      op_ = reg_->op;
      if (op_ == RegOp::Program) set_program(in_, reg_->setup, mesh_, router_->params().max_children());
      else {
        in_.reg_op = RegOp::Free;
        in_.reg_gid = reg_->gid;
      }
      op_write_ = *reg_;
      reg_.reset();
      presented_ = true;
    }
    out_ = router_->eval(in_);
  }

  // Phase 2: each injection channel's next flit goes in when the router says it fits
  // (local_ready: combinational on that channel's buffer alone). With several unicast VCs
  // the NI allocates a worm's VC as RouterCore::inject_from_channels does: its head takes
  // one that fits (round robin per channel, or the one with most room), the flits behind
  // it follow.
  bool offer_local(std::uint64_t c) {
    bool offered = false;
    const RouterParams& rp = router_->params().router;
    const int lanes = static_cast<int>(rp.unicast_vcs);
    for (std::size_t ch = 0; ch < local_.size(); ++ch) {
      InjectionChannel& src = local_[ch];
      if (src.empty() || src.front_cycle() > c + 1) continue;
      const Flit& f = src.front();
      const int i = input_of_channel(static_cast<int>(ch));
      // The worm's unicast VC (lane 0 but for a unicast worm with several lanes).
      std::uint8_t lane = 0;
      if (f.allocates_vc() && lanes > 1) {
        if (f.head) {
          const auto room = [&](int l) {
            const int v = unicast_vc(l);
            return rp.depth(v) - inside_[i][v].size() + (out_.injection_pop[ch][v] ? 1 : 0);
          };
          const int pick = pick_lane(
              lanes, injection_next_[ch], rp.vc_allocation == 1, [&](int l) { return out_.local_ready[ch][unicast_vc(l)]; },
              room);
          if (pick < 0) continue;
          injection_lane_[ch] = static_cast<std::uint8_t>(pick);
          injection_next_[ch] = static_cast<std::uint8_t>((pick + 1) % lanes);
        }
        lane = injection_lane_[ch];
      }
      const int vc = f.allocates_vc() ? unicast_vc(lane) : f.vc();
      if (!out_.local_ready[ch][vc]) continue;
      Flit& in = arriving_[i].emplace(f);
      in.lane = lane;
      in_.in_valid[i] = true;
      in_.in_vc[i] = static_cast<std::uint8_t>(vc);
      in_.in_flit[i] = encode_flit(in, mesh_);
      src.pop();
      offered = true;
    }
    if (!offered) return false;
    presented_ = true;
    out_ = router_->eval(in_);
    return true;
  }

  // Phase 3: compare (lockstep), deliver the outputs, take the inputs into the mirror.
  bool finish(std::uint64_t c, RouterLinks& links) {
    const RtlOutputs& out = out_;
    if (shadow_) check(c, out);
    else if (out.error)
      stop("RTL router " + where(mesh_, id_) + " raised error_o in cycle " + std::to_string(c));
    if (op_ != RegOp::None) reg_ok_ = out.reg_ok;

    bool moved = false;
    std::array<std::optional<Flit>, kRtlInputs> popped;
    std::array<bool, kRtlInputs> promote{};
    const auto pop = [&](int p, int v) {
      auto& q = inside_[p][v];
      if (q.empty() || popped[p])
        throw LockstepError("RTL router " + where(mesh_, id_) + " popped input " + port_label(p) + " VC " +
                            std::to_string(v) + " in cycle " + std::to_string(c) + ": a flit it did not hold");
      popped[p] = q.front();
      q.pop_front();
      // The address flit behind a head absorbed here heads the forwarded worm; no other
      // flit may be taken for a head (two inputs may pop address flits with equal bits).
      const Flit& f = *popped[p];
      promote[p] = absorbing_[p][v] && f.addr;
      absorbing_[p][v] = f.head && f.mcast && f.more && f.dest == id_;
    };
    for (int p = 1; p < kPorts; ++p)
      for (int v = 0; v < kRtlVcs; ++v) {
        if (!out.credit_out[p][v]) continue;
        pop(p, v);
        links.credit_out(id_, p, v, c);
        moved = true;
      }
    for (std::size_t ch = 0; ch < local_.size(); ++ch)
      for (int v = 0; v < kRtlVcs; ++v)
        if (out.injection_pop[ch][v]) pop(input_of_channel(static_cast<int>(ch)), v);
    for (int o = 0; o < outputs(); ++o) {
      if (!out.out_valid[o]) continue;
      links.flit_out(id_, o, match(o, out, popped, promote, c), c);
      moved = true;
    }
    for (int p = 0; p < inputs(); ++p) {
      if (!arriving_[p]) continue;
      const Flit& f = *arriving_[p];
      inside_[p][f.vc()].push_back(f);
      if (!shadow_) continue;
      if (p < kPorts) shadow_->receive(port_at(p), f, c + 1);
      else shadow_->receive_injected(p - kPorts + 1, f, c + 1);
    }
    if (shadow_)
      for (int p = 0; p < kPorts; ++p)
        for (int v = 0; v < kRtlVcs; ++v)
          if (in_.credit_in[p][v]) shadow_->return_credit(port_at(p), v, c + 1);
    rtl_idle_ = out.idle;
    busy_ = !out.idle || presented_;
    return moved;
  }

 private:
  struct PendingFlit {
    std::uint64_t cycle;  // presented in this cycle, in the buffer from the next
    int port;
    Flit flit;
  };
  struct PendingCredit {
    std::uint64_t cycle;
    int port;
    int vc;
  };
  struct RegWrite {
    std::uint64_t cycle;
    RegOp op;
    BarrierRegisterSetup setup;
    std::uint8_t gid;
  };

  void check(std::uint64_t c, const RtlOutputs& out) {
    bool ok = false;
    if (op_ == RegOp::Program) ok = shadow_->program_register(op_write_.setup);
    else if (op_ == RegOp::Free) ok = shadow_->free_register(op_write_.gid);
    const ModelPorts ports = model_ports(*shadow_, op_, ok, net_.config());
    const std::string diff = compare_cycle(model_, ports, out, mesh_);
    if (!diff.empty())
      stop("lockstep: cycle " + std::to_string(c) + " router " + where(mesh_, id_) + " " + diff);
    // Both raised the error in this cycle: they agree, and the run stops as the model's
    // own run would (the core's cycle did not finish).
    if (model_.error)
      stop("lockstep: cycle " + std::to_string(c) + " router " + where(mesh_, id_) +
           ": protocol violation, raised by the model and by the RTL (error_o): " + model_.error_text);
  }

  // Ends the run. The router still takes the cycle's clock edge first, so that the cover
  // points of that cycle (an error's cause) are counted (scripts/coverage); nothing reads
  // its state afterwards.
  [[noreturn]] void stop(const std::string& why) {
    router_->clock();
    throw LockstepError(why);
  }

  int inputs() const { return router_->params().inputs(); }
  int outputs() const { return router_->params().outputs(); }

  // The model flit behind output `o`'s bits. A flit popped this cycle may leave twice
  // (absorbed and forwarded: on a link, as a head if it heads the forwarded worm, and to
  // its NI output), so a match does not use it up.
  Flit match(int o, const RtlOutputs& out, const std::array<std::optional<Flit>, kRtlInputs>& popped,
             const std::array<bool, kRtlInputs>& promote, std::uint64_t c) {
    const std::uint32_t bits = out.out_flit[o];
    const int vc = out.out_vc[o] % kRtlVcs;
    const bool head = flit_format::kHead.get(bits), tail = flit_format::kTail.get(bits);
    const auto as_sent = [&](int p) {
      Flit f = *popped[p];
      if (head && promote[p]) f.head = true;  // the forwarded worm's new head
      // A unicast worm goes on in the VC its head took here (VC allocation).
      if (f.allocates_vc() && is_unicast_vc(vc)) f.lane = static_cast<std::uint8_t>(unicast_lane(vc));
      // A tree head's copy to a child leaves readdressed to the child, with its route.
      if (head && f.tree && flit_format::kMcast.get(bits) && flit_format::kBase.get(bits) == flit_format::kBaseTree) {
        const Coord to{static_cast<int>(flit_format::kDestX.get(bits)), static_cast<int>(flit_format::kDestY.get(bits))};
        if (mesh_.contains(to)) f.dest = mesh_.id(to);
        f.route = flit_format::kRoute.get(bits) ? Route::YX : Route::XY;
      }
      return f;
    };
    const auto sends = [&](int p) {
      if (!popped[p]) return false;
      const Flit f = as_sent(p);
      return f.vc() == vc && encode_flit(f, mesh_) == bits;
    };
    // Flits after a head carry no address: they follow their head's input (every VC's
    // owner rule; a reduction message is a worm on a sync VC).
    // Several inputs may pop flits with the same bits in a cycle (two heads for this
    // node, say), so only the inputs that can use output `o` are candidates: with an
    // all-port NI a link input's flits for the NI leave on its own ejection output alone.
    const auto can_use = [&](int p) {
      if (router_->params().ni_ports() == 1 || (o != 0 && o < kPorts)) return true;
      return o == 0 ? ejection_output(p, router_->params().ni_ports()) == 0 : p == o - kPorts + 1;
    };
    std::optional<int> from;
    if (!head) {
      const int p = message_from_[o][vc];
      if (p == kFromEmitter) return emitted(o, vc, bits);
      if (p >= 0) from = p;
    } else {
      for (int p = 0; p < inputs() && !from; ++p)
        if (can_use(p) && sends(p)) from = p;
    }
    std::optional<Flit> f;
    if (from && popped[*from]) {
      f = as_sent(*from);
    } else if (is_sync_head(bits)) {
      // Made by the barrier unit; a reduction message's flits follow from there.
      const Flit f = decode_sync(bits, mesh_, id_);
      if (!tail) {
        message_from_[o][vc] = kFromEmitter;
        emitter_head_[o][vc] = f;
      }
      return f;
    }
    if (!f || encode_flit(*f, mesh_) != bits)
      throw LockstepError("RTL router " + where(mesh_, id_) + " sent " + describe_flit(bits) +
                          " on port " + output_label(o) + " in cycle " + std::to_string(c) +
                          ", a flit no input holds");
    message_from_[o][vc] = tail ? -1 : *from;
    return *f;
  }

  NodeId id_;
  NetworkCore& net_;
  const MeshShape& mesh_;
  std::unique_ptr<RtlRouter> router_;
  RouterCore* shadow_;
  std::deque<PendingFlit> flits_;
  std::deque<PendingCredit> credits_;
  std::vector<InjectionChannel> local_;  // per injection channel
  std::optional<RegWrite> reg_;
  RegWrite op_write_{};
  RegOp op_ = RegOp::None;
  bool reg_ok_ = false;
  std::array<std::array<std::deque<Flit>, kRtlVcs>, kRtlInputs> inside_;
  // A flit after the head of a reduction message the barrier unit made: the head's fields,
  // and the bits' payload.
  Flit emitted(int o, int vc, std::uint32_t bits) {
    Flit f = emitter_head_[o][vc];
    f.head = false;
    f.tail = flit_format::kTail.get(bits);
    f.payload = flit_format::kPayload.get(bits);
    f.seq = ++emitter_head_[o][vc].seq;
    if (f.tail) message_from_[o][vc] = -1;
    return f;
  }

  // Input holding each output's VCs (-1: none; kFromEmitter: the barrier unit's worm).
  static constexpr int kFromEmitter = -2;
  std::array<std::array<Flit, kRtlVcs>, kRtlOutputs> emitter_head_{};
  std::array<std::array<int, kRtlVcs>, kRtlOutputs> message_from_ = [] {
    std::array<std::array<int, kRtlVcs>, kRtlOutputs> a{};
    for (auto& o : a) o.fill(-1);
    return a;
  }();
  RtlInputs in_;
  RtlOutputs out_;  // the router's outputs for in_
  std::array<std::optional<Flit>, kRtlInputs> arriving_;
  // Per input and VC: the last flit popped was a multidestination head absorbed here
  // with more addresses behind it (the next address flit heads the forwarded worm).
  std::array<std::array<bool, kRtlVcs>, kRtlInputs> absorbing_{};
  // Per injection channel: the unicast VC (lane) of the worm now injected, and the lane
  // round robin starts from for the next head.
  std::array<std::uint8_t, kMaxNiChannels> injection_lane_{};
  std::array<std::uint8_t, kMaxNiChannels> injection_next_{};
  bool presented_ = false;
  bool busy_ = false;
  bool rtl_idle_ = true;
  ModelCycle model_;
};

RtlMesh::RtlMesh(sc_core::sc_module_name name, NetworkCore& net, const CosimOptions& opt)
    : sc_core::sc_module(name), net_(net), build_(&find_rtl_build(net.config(), opt.config)),
      ctx_(std::make_unique<VerilatedContext>()), trace_path_(opt.trace), pool_(opt.threads) {
  const MeshShape& m = net.mesh();
  std::vector<int> kind(static_cast<std::size_t>(m.nodes()), 0);  // 1 RTL, 2 lockstep
  for (NodeId n : opt.rtl) kind[n] = std::max(kind[n], 1);
  for (NodeId n : opt.lockstep) kind[n] = 2;
  if (!trace_path_.empty()) ctx_->traceEverOn(true);
  by_node_.assign(kind.size(), nullptr);
  for (int n = 0; n < m.nodes(); ++n) {
    if (!kind[n]) continue;
    const Coord c = m.coord(static_cast<NodeId>(n));
    // Scopes as the SystemC hierarchy would name them: rtl.r_X_Y.
    const std::string inst = std::string(this->name()) + ".r_" + std::to_string(c.x) + "_" + std::to_string(c.y);
    sites_.push_back(std::make_unique<RtlSite>(static_cast<NodeId>(n), net, build_->make(ctx_.get(), inst),
                                               kind[n] == 2));
    sites_.back()->router().reset(c.x, c.y);
    by_node_[n] = sites_.back().get();
  }
  net.set_external(this);
}

RtlMesh::~RtlMesh() {
  // The routers, which hold the counters, go after this body.
  write_coverage(*ctx_, "mesh-" + build_->params.name);
  if (!trace_) return;
  output_files::closed(trace_path_);
  close_trace();
}

void RtlMesh::close_trace() {
  if (!trace_) return;
  trace_->close();
  trace_.reset();
  check_fst_written(trace_path_, trace_temporary_);  // Verilator's FST writer is fstapi too
}

ExternalRouter* RtlMesh::at(NodeId n) { return by_node_[n]; }

void RtlMesh::start_of_simulation() {
  if (trace_path_.empty()) return;
  trace_ = std::make_unique<VerilatedFstC>();
  for (auto& s : sites_) s->router().trace(trace_.get());
  trace_->set_time_unit("1ps");
  trace_->set_time_resolution("1ps");
  // Commands that keep their co-simulation until the process exits never destroy this
  // mesh: the program's end closes the trace then.
  trace_temporary_ = output_files::begin(trace_path_, [this] { close_trace(); });
  trace_->open(trace_temporary_.c_str());
  dump(sc_core::sc_time_stamp());
}

void RtlMesh::dump(sc_core::sc_time t) {
  if (trace_) trace_->dump(static_cast<std::uint64_t>(t.to_seconds() * 1e12 + 0.5));
}

bool RtlMesh::step(std::uint64_t c, const std::vector<NodeId>& due, RouterLinks& links) {
  for (NodeId n : due) by_node_[n]->step_shadow(c);
  auto present = [&](std::size_t i) {
    RtlSite& s = *by_node_[due[i]];
    s.begin(c);
    s.offer_local(c);
  };
  pool_.run(due.size(), present);
  bool moved = false;
  for (NodeId n : due) moved |= by_node_[n]->finish(c, links);
  compared_ += due.size();
  // Waveforms show the cycle's values from now (c + 1/2) and the clock edge a quarter
  // cycle later; the routers compute it at once.
  const sc_core::sc_time now = sc_core::sc_time_stamp();
  dump(now);
  auto clock = [&](std::size_t i) { by_node_[due[i]]->router().clock(); };
  pool_.run(due.size(), clock);
  dump(now + MeshSystem::cycle_time() / 4);
  return moved;
}

}  // namespace meshsync::rtl
