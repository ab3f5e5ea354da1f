#include "cosim_attach.hpp"

#include <fmt/format.h>

#include "../../model/core/flit_format.hpp"
#include "../collective/member_spec.hpp"
#include "cosim_loader.hpp"
#include "run_output.hpp"

namespace meshsync {

using nlohmann::json;

namespace {

Cosim attach_rtl(Machine& m, const NetworkOptions& o, std::uint64_t seed) {
  Cosim c;
  if (o.rtl.empty() && o.lockstep.empty()) {
    if (o.threads > 1) throw ConfigError("--threads evaluates RTL routers: give --rtl or --lockstep");
    return c;
  }
  // The model addresses any mesh it simulates; the RTL routers only what the 32-bit
  // hardware flit's destination fields can name.
  const MeshShape& mesh = o.config.mesh;
  if (mesh.width > flit_format::kMaxMeshSide || mesh.height > flit_format::kMaxMeshSide)
    throw ConfigError(fmt::format(
        "--rtl and --lockstep need a mesh of at most {0}x{0} (the RTL flit's {1}-bit destination "
        "fields), got {2}x{3}; the model alone simulates it without them",
        flit_format::kMaxMeshSide, flit_format::kDestX.width, mesh.width, mesh.height));
  // The co-simulation hands an RTL router its inputs a cycle after they were sent.
  if (o.config.timing.tp == 0)
    throw ConfigError("--rtl and --lockstep need tp of at least 1 (an RTL router takes its inputs a cycle after "
                      "they leave the neighbour); tp 0 is the model's alone");
  rtl::CosimRequest r;
  if (o.rtl == "mesh" || o.lockstep == "mesh") {
    // The whole mesh as one Verilated block: it has no positions to mix with the model's.
    if ((!o.rtl.empty() && o.rtl != "mesh") || (!o.lockstep.empty() && o.lockstep != "mesh"))
      throw ConfigError("--rtl mesh and --lockstep mesh take the whole mesh: give no other positions");
    if (o.threads > 1)
      throw ConfigError("--threads is for RTL routers as sites (--rtl all); the mesh block's threads are set when it "
                        "is built (-DMESHSYNC_MESH_THREADS, docs/performance.md)");
    if (!o.trace.empty())
      throw ConfigError("--trace is not available with the mesh block (--rtl mesh, --lockstep mesh): use --rtl "
                        "all, whose routers it shows");
    r.block = true;
    r.block_lockstep = o.lockstep == "mesh";
  } else {
    // Positions as --members reads them, and the option named in the message.
    const auto positions = [&](const std::string& option, const std::string& text) {
      try {
        return parse_members(text, mesh, seed);
      } catch (const ConfigError& e) {
        throw ConfigError(option + " takes all, mesh, random:N or x,y;x,y;... (got '" + text + "'): " + e.what());
      }
    };
    if (!o.rtl.empty()) r.rtl = positions("--rtl", o.rtl);
    if (!o.lockstep.empty()) r.lockstep = positions("--lockstep", o.lockstep);
    // The Verilated signals beside the decoded trace (docs/waveforms.md).
    if (!o.trace.empty()) r.trace = rtl_trace_path(o.trace);
    r.threads = o.threads;
  }
  // The request is checked before the module is loaded, which may mean building it.
  c.run.reset(load_cosim()(m.mesh().core(), r));
  c.rtl = c.run->routers();
  c.lockstep = c.run->lockstep();
  c.config = c.run->config();
  return c;
}

}  // namespace

Cosim attach_network(Machine& m, const NetworkOptions& o, std::uint64_t seed, TraceSession& trace,
                     const MemoryUse& use) {
  // Here, before the first cycle: the routers are allocated as traffic reaches them.
  if (o.memory_check) check_memory(o.config, use);
  Cosim c = attach_rtl(m, o, seed);
  trace.attach(m);
  return c;
}

void to_json(json& j, const Cosim& c) {
  j = json{{"routers", c.rtl}, {"lockstep", c.lockstep}, {"config", c.config},
           {"router_cycles_compared", cycles_compared(c)}};
}

// Router-cycles the lockstep compared. A difference stops the run, so a run that gets
// to report them had none.
std::uint64_t cycles_compared(const Cosim& c) {
  return c.run ? c.run->cycles_compared() : 0;
}

void print_cosim(const Cosim& c) {
  if (c.rtl == 0) return;
  const std::string checked =
      c.lockstep ? fmt::format("{} router-cycles compared, no difference", cycles_compared(c))
                 : "not compared with the model (add --lockstep)";
  if (c.run->block()) {
    fmt::print("RTL mesh: one Verilated block of {} routers (configuration {}){}: {}\n", c.rtl,
               c.config, c.lockstep ? ", in lockstep with the model at its boundary" : "", checked);
    return;
  }
  fmt::print("RTL routers: {} (configuration {}), {} in lockstep with the model: {}\n", c.rtl,
             c.config, c.lockstep, checked);
}

// print_json_result with the RTL routers that took part.
void print_json(json j, const NetworkConfig& cfg, const Cosim& cosim, double wall,
                const std::vector<std::string_view>& leave_out) {
  if (cosim.rtl) j["rtl"] = cosim;
  print_json_result(std::move(j), cfg, wall, leave_out);
}

}  // namespace meshsync
