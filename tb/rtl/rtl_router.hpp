// The Verilated routers of the single-router RTL tests, by configuration name; the
// interface they are driven through is the mesh co-simulation's
// (model/cosim/verilated_router.hpp).
#pragma once

#include <memory>
#include <string>

#include "model/cosim/verilated_router.hpp"

namespace meshsync::rtl {

// The configurations this test binary was built with (models.cpp).
std::unique_ptr<RtlRouter> make_rtl_router(const std::string& name);
RtlParams rtl_params(const std::string& name);

}  // namespace meshsync::rtl
