// The Verilated configurations of this binary (tb/rtl/CMakeLists.txt RTL_CONFIGS).
#include <stdexcept>

#include "Vrouter_broken.h"
#include "Vrouter_default.h"
#include "Vrouter_noregs.h"
#include "Vrouter_regs16.h"
#include "Vrouter_small.h"
#include "rtl_router.hpp"

namespace meshsync::rtl {

RtlParams rtl_params(const std::string& name) {
  RtlParams p;
  p.name = name;
  if (name == "default" || name == "broken") return p;
  if (name == "small") {
    p.buffer_depth = 4;
    p.sync_buffer_depth = 2;
    p.trn = 2;
    p.trm = 3;
    return p;
  }
  if (name == "noregs") {
    p.num_regs = 0;
    p.buffer_depth = 4;
    p.sync_buffer_depth = 2;
    p.trn = 1;
    p.trm = 2;
    return p;
  }
  if (name == "regs16") {
    p.num_regs = 16;
    p.trn = 3;
    p.trm = 12;
    p.mesh_w = 16;
    p.mesh_h = 16;
    return p;
  }
  throw std::invalid_argument("no RTL configuration named " + name);
}

std::unique_ptr<RtlRouter> make_rtl_router(const std::string& name) {
  const RtlParams p = rtl_params(name);
  if (name == "default") return std::make_unique<VerilatedRouter<Vrouter_default>>(p);
  if (name == "small") return std::make_unique<VerilatedRouter<Vrouter_small>>(p);
  if (name == "noregs") return std::make_unique<VerilatedRouter<Vrouter_noregs>>(p);
  if (name == "regs16") return std::make_unique<VerilatedRouter<Vrouter_regs16>>(p);
  if (name == "broken") return std::make_unique<VerilatedRouter<Vrouter_broken>>(p);
  throw std::invalid_argument("no RTL configuration named " + name);
}

}  // namespace meshsync::rtl
