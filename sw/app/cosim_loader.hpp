// Where the program gets RTL co-simulation: the module CMake builds beside it
// (meshsync_cosim_module, model/CMakeLists.txt), loaded the first time a run asks for RTL
// routers and built then, in the program's build tree, when it is missing or older than
// the program (docs/cosim.md, "How co-simulation gets built").
#pragma once

#include "../../model/cosim/cosim_module.hpp"

namespace meshsync {

// The module's entry point. ConfigError (one line) when this program was configured
// without co-simulation, or the module does not build or load.
rtl::AttachRtl load_cosim();

}  // namespace meshsync
