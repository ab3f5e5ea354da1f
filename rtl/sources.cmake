# The router's Verilog sources, package first, one module per file: read by every
# Verilator build (tb/rtl, model/cosim). scripts/lint-rtl and scripts/synth list them too.
set(MESHSYNC_RTL_DIR ${CMAKE_CURRENT_LIST_DIR})
set(MESHSYNC_RTL_MODULES
  meshsync_rr_pick.sv
  meshsync_route.sv
  meshsync_input_buffer.sv
  meshsync_input_arbiter.sv
  meshsync_input_port.sv
  meshsync_output_arbiter.sv
  meshsync_credit_counters.sv
  meshsync_crossbar.sv
  meshsync_barrier_regfile.sv
  meshsync_barrier_unit.sv
  meshsync_barrier_outbox.sv
  meshsync_router.sv)
set(MESHSYNC_RTL_SOURCES ${MESHSYNC_RTL_DIR}/meshsync_pkg.sv)
foreach(m ${MESHSYNC_RTL_MODULES})
  list(APPEND MESHSYNC_RTL_SOURCES ${MESHSYNC_RTL_DIR}/${m})
endforeach()
