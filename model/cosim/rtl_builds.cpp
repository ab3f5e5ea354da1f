#include "rtl_builds.hpp"

#include "Vrouter_sc_default.h"

namespace meshsync::rtl {

namespace {
std::string describe(const RtlParams& p) {
  return p.name + " (buffer-depth " + std::to_string(p.buffer_depth) + ", sync-buffer-depth " +
         std::to_string(p.sync_buffer_depth) + ", barrier-registers " + std::to_string(p.num_regs) +
         ", max-children " + std::to_string(p.max_children) + ", trn " + std::to_string(p.trn) +
         ", trm " + std::to_string(p.trm) + ", mesh up to " + std::to_string(p.mesh_w) + "x" +
         std::to_string(p.mesh_h) + ")";
}

bool matches(const RtlParams& p, const NetworkConfig& c) {
  return static_cast<std::uint32_t>(p.buffer_depth) == c.router.buffer_depth &&
         static_cast<std::uint32_t>(p.sync_buffer_depth) == c.router.sync_buffer_depth &&
         static_cast<std::uint32_t>(p.num_regs) == c.router.barrier_registers &&
         static_cast<std::uint32_t>(p.max_children) == c.router.max_children &&
         static_cast<std::uint32_t>(p.trn) == c.timing.trn && static_cast<std::uint32_t>(p.trm) == c.timing.trm &&
         c.mesh.width <= p.mesh_w && c.mesh.height <= p.mesh_h;
}
}  // namespace

std::vector<RtlBuild>& rtl_builds() {
  // The default router of docs/rtl.md with 7-bit coordinates: any mesh the flit format
  // can address (128x128).
  static std::vector<RtlBuild> builds{
      RtlBuild{RtlParams{"default", 128, 128, 16, 4, 4, 8, 5, 30},
               [](const char* n) -> std::unique_ptr<ScRouter> {
                 return std::make_unique<VerilatedScRouter<Vrouter_sc_default>>(n, rtl_builds()[0].params);
               }}};
  return builds;
}

void add_rtl_build(RtlBuild b) { rtl_builds().push_back(std::move(b)); }

const RtlBuild& find_rtl_build(const NetworkConfig& cfg, const std::string& name) {
  std::string have;
  for (const RtlBuild& b : rtl_builds()) {
    if (name.empty() ? matches(b.params, cfg) : b.params.name == name) {
      if (!name.empty() && !matches(b.params, cfg))
        throw ConfigError("the RTL configuration " + describe(b.params) +
                          " does not match the run's router parameters");
      return b;
    }
    have += (have.empty() ? "" : "; ") + describe(b.params);
  }
  throw ConfigError("no Verilated RTL router matches this run (buffer-depth " +
                    std::to_string(cfg.router.buffer_depth) + ", sync-buffer-depth " +
                    std::to_string(cfg.router.sync_buffer_depth) + ", barrier-registers " +
                    std::to_string(cfg.router.barrier_registers) + ", max-children " +
                    std::to_string(cfg.router.max_children) + ", trn " + std::to_string(cfg.timing.trn) +
                    ", trm " + std::to_string(cfg.timing.trm) + ", mesh " + std::to_string(cfg.mesh.width) +
                    "x" + std::to_string(cfg.mesh.height) + "); built: " + have +
                    " (add a configuration in model/CMakeLists.txt)");
}

}  // namespace meshsync::rtl
