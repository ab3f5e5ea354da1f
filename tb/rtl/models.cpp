// The Verilated configurations of this binary: those with use "test" in
// rtl/configurations.txt (the generated table), and the deliberately broken router.
#include <stdexcept>

#include "Vrouter_broken.h"
#include "rtl_models.hpp"
#include "rtl_mutants.hpp"
#include "rtl_router.hpp"

namespace meshsync::rtl {

RtlParams rtl_params(const std::string& name) {
#define MESHSYNC_PARAMS_OF(n, cls, params) \
  if (name == n) return parse_rtl_params(n, params);
  MESHSYNC_RTL_MODELS(MESHSYNC_PARAMS_OF)
#undef MESHSYNC_PARAMS_OF
  // The broken router is the default one with a faulty output arbiter, the mutants are
  // the default one with one bug each.
  if (name == "broken") return parse_rtl_params(name, "");
#define MESHSYNC_MUTANT_PARAMS(n, cls) \
  if (name == n) return parse_rtl_params(n, "");
  MESHSYNC_RTL_MUTANTS(MESHSYNC_MUTANT_PARAMS)
#undef MESHSYNC_MUTANT_PARAMS
  throw std::invalid_argument("no RTL configuration named " + name);
}

std::unique_ptr<RtlRouter> make_rtl_router(const std::string& name) {
  const RtlParams p = rtl_params(name);
#define MESHSYNC_MAKE(n, cls, params) \
  if (name == n) return std::make_unique<VerilatedRouter<cls>>(p);
  MESHSYNC_RTL_MODELS(MESHSYNC_MAKE)
#undef MESHSYNC_MAKE
#define MESHSYNC_MAKE_MUTANT(n, cls) \
  if (name == n) return std::make_unique<VerilatedRouter<cls>>(p);
  MESHSYNC_RTL_MUTANTS(MESHSYNC_MAKE_MUTANT)
#undef MESHSYNC_MAKE_MUTANT
  // rtl_params has thrown for any other name.
  return std::make_unique<VerilatedRouter<Vrouter_broken>>(p);
}

}  // namespace meshsync::rtl
