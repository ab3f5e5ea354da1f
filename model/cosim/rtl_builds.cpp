#include "rtl_builds.hpp"

#include "rtl_cosim_models.hpp"  // generated from rtl/configurations.txt (use "cosim")

namespace meshsync::rtl {

namespace {
template <class Model>
RtlBuild make_build(const char* name, const char* verilog_params) {
  RtlParams p = parse_rtl_params(name, verilog_params);
  // Co-simulated routers address any mesh the flit format can (model/CMakeLists.txt).
  p.mesh_w = p.mesh_h = flit_format::kMaxMeshSide;
  return RtlBuild{p, [p](VerilatedContext* ctx, const std::string& instance) -> std::unique_ptr<RtlRouter> {
                    return std::make_unique<VerilatedRouter<Model>>(p, ctx, instance);
                  }};
}
}  // namespace

std::vector<RtlBuild>& rtl_builds() {
  static std::vector<RtlBuild> builds{
#define MESHSYNC_BUILD(n, cls, params) make_build<cls>(n, params),
      MESHSYNC_RTL_MODELS(MESHSYNC_BUILD)
#undef MESHSYNC_BUILD
  };
  return builds;
}

void add_rtl_build(RtlBuild b) { rtl_builds().push_back(std::move(b)); }

const RtlBuild& find_rtl_build(const NetworkConfig& cfg, const std::string& name) {
  require_rtl_features(cfg);
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
  const RtlParams run = router_params(cfg);
  throw ConfigError("no Verilated RTL router matches this run (" + describe_router(run, false) + ", mesh " +
                    std::to_string(cfg.mesh.width) + "x" + std::to_string(cfg.mesh.height) + "); built: " + have +
                    " (add a configuration with use cosim to rtl/configurations.txt)");
}

}  // namespace meshsync::rtl
