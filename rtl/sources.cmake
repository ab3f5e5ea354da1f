# The router's Verilog sources, package first, one module per file: read by every
# Verilator build (tb/rtl, model/cosim). scripts/lint-rtl and scripts/synth list them too.
set(MESHSYNC_RTL_DIR ${CMAKE_CURRENT_LIST_DIR})
set(MESHSYNC_RTL_MODULES
  meshsync_parameter_check.sv
  meshsync_rr_pick.sv
  meshsync_rr_arbiter.sv
  meshsync_route.sv
  meshsync_child_hops.sv
  meshsync_snake_route.sv
  meshsync_input_buffer.sv
  meshsync_input_port.sv
  meshsync_switch_allocator.sv
  meshsync_credit_counters.sv
  meshsync_vc_owners.sv
  meshsync_vc_allocator.sv
  meshsync_output_unit.sv
  meshsync_crossbar.sv
  meshsync_group_cam.sv
  meshsync_tree_claim.sv
  meshsync_reduction_float32.sv
  meshsync_reduction_alu.sv
  meshsync_reduction_lanes.sv
  meshsync_barrier_regfile.sv
  meshsync_barrier_unit.sv
  meshsync_emitter_read_mux.sv
  meshsync_barrier_emitter.sv
  meshsync_barrier.sv
  meshsync_router.sv)
set(MESHSYNC_RTL_SOURCES ${MESHSYNC_RTL_DIR}/meshsync_pkg.sv)
foreach(m ${MESHSYNC_RTL_MODULES})
  list(APPEND MESHSYNC_RTL_SOURCES ${MESHSYNC_RTL_DIR}/${m})
endforeach()
# The reduction ALU and lanes (issue 24), also tested and synthesized alone.
set(MESHSYNC_RTL_REDUCTION_SOURCES ${MESHSYNC_RTL_DIR}/meshsync_pkg.sv
  ${MESHSYNC_RTL_DIR}/meshsync_reduction_float32.sv ${MESHSYNC_RTL_DIR}/meshsync_reduction_alu.sv)
set(MESHSYNC_RTL_LANES_SOURCES ${MESHSYNC_RTL_DIR}/meshsync_pkg.sv ${MESHSYNC_RTL_DIR}/meshsync_reduction_lanes.sv)
# What the traced builds (co-simulation with --trace) leave out of their waveforms.
set(MESHSYNC_RTL_TRACE_CONFIG ${MESHSYNC_RTL_DIR}/meshsync_trace.vlt)
# The mesh top (W x H routers and their links, one Verilated block): the router's sources,
# its own two and the Verilator configuration that keeps the routers from being inlined.
set(MESHSYNC_RTL_MESH_SOURCES ${MESHSYNC_RTL_DIR}/meshsync_mesh.vlt ${MESHSYNC_RTL_SOURCES}
  ${MESHSYNC_RTL_DIR}/meshsync_link.sv
  ${MESHSYNC_RTL_DIR}/meshsync_mesh.sv)

# Writes `out`: rtl/`file` with the text `from` replaced by `to`. `from` must occur in the
# file exactly once, so a refactoring of the source cannot silently drop the change. The
# tests' mutants (tb/rtl/CMakeLists.txt) and the broken arbiter below are made this way at
# configure time; an edit of the source configures again, and `out` is rewritten only when
# its text changes (no Verilator rerun for nothing).
function(meshsync_rtl_edit out file from to)
  set(src ${MESHSYNC_RTL_DIR}/${file})
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${src})
  file(READ ${src} text)
  string(FIND "${text}" "${from}" at)
  string(FIND "${text}" "${from}" last REVERSE)
  if(at EQUAL -1 OR NOT at EQUAL last)
    message(FATAL_ERROR "'${from}' must occur once in rtl/${file}")
  endif()
  string(REPLACE "${from}" "${to}" text "${text}")
  set(old "")
  if(EXISTS ${out})
    file(READ ${out} old)
  endif()
  if(NOT old STREQUAL text)
    file(WRITE ${out} "${text}")
  endif()
endfunction()

# The deliberately broken router of the lockstep checkers' own tests (tb/rtl: Vrouter_broken;
# tb/cosim: Vrouter_cosim_broken, Vmesh_broken): its output arbiters' pointer skips input
# -X (requester 2) after a grant to +X (requester 1). `out` gets `sources` with
# rtl/meshsync_rr_arbiter.sv replaced by that copy (the one
# round-robin arbiter: the input arbiters and the barrier unit's pick get it too), made from it in the build tree.
function(meshsync_rtl_with_broken_arbiter out sources)
  set(file meshsync_rr_arbiter.sv)
  set(broken ${PROJECT_BINARY_DIR}/rtl-broken/${file})
  meshsync_rtl_edit(${broken} ${file} "rr_q <= rr_next;"
    "// DELIBERATELY BROKEN (rtl/sources.cmake): -X loses its turn after +X.\n      rr_q <= (gnt_idx_o == IdxW'(1)) ? IdxW'(3) : rr_next;")
  list(REMOVE_ITEM sources ${MESHSYNC_RTL_DIR}/${file})
  list(APPEND sources ${broken})
  set(${out} ${sources} PARENT_SCOPE)
endfunction()

# C++ optimisation of the Verilated code (verilate()'s OPT_SLOW/OPT_FAST). A model's
# "slow" half (construction, initial values, trace declarations) runs once, so it is
# compiled at -O0, as Verilator's own make flow leaves it unoptimised. The models only
# the tests run (tb/rtl, tb/cosim: short lockstep runs, the small mesh blocks) get -O1
# for the rest: compiling them dominated CI's time at -O3.
# Every verilate() call takes one of these three, so they also carry the include directory
# of rtl/meshsync_router_params.svh (Verilator 5.006 does not look beside the including
# file, as Yosys does).
set(MESHSYNC_VERILATE_OPT OPT_SLOW -O0 INCLUDE_DIRS ${MESHSYNC_RTL_DIR})
set(MESHSYNC_VERILATE_TEST_OPT OPT_SLOW -O0 OPT_FAST -O1 INCLUDE_DIRS ${MESHSYNC_RTL_DIR})
# The models that exist to fail (the mutants, the broken copies): each test runs one for a
# few hundred cycles until its assertion or the lockstep stops it (0.02-0.14 s), so all
# of it at -O0, 12 % less compilation than -O1 (a mutant: 12.1 s against 13.8 s on two
# cores) over the 16 of them.
set(MESHSYNC_VERILATE_FAIL_OPT OPT_SLOW -O0 OPT_FAST -O0 INCLUDE_DIRS ${MESHSYNC_RTL_DIR})

# Coverage of the RTL (scripts/coverage, docs/verification.md "Coverage"): the Verilator
# arguments of the router models of configurations with use "coverage". `line` (line
# blocks, branches and the COVER points) is every build's single-router test models, so
# that CI checks the merged counts of those tests; it costs about 30 s of compilation per
# model. `full` adds toggle coverage (five times the compilation) and the co-simulation's
# models (which the program runs too: counted, they run 3.6 times slower):
# scripts/coverage's own build. `off`: none. Each Verilated context writes its counts,
# before its models go, to $MESHSYNC_COVERAGE_DIR if set (model/cosim/coverage.hpp).
set(MESHSYNC_RTL_COVERAGE line CACHE STRING "RTL coverage of the Verilated models: off, line, full")
set_property(CACHE MESHSYNC_RTL_COVERAGE PROPERTY STRINGS off line full)
if(MESHSYNC_RTL_COVERAGE STREQUAL "line")
  set(MESHSYNC_RTL_COVERAGE_ARGS --coverage-line --coverage-user)
elseif(MESHSYNC_RTL_COVERAGE STREQUAL "full")
  set(MESHSYNC_RTL_COVERAGE_ARGS --coverage-line --coverage-toggle --coverage-user)
elseif(MESHSYNC_RTL_COVERAGE STREQUAL "off")
  set(MESHSYNC_RTL_COVERAGE_ARGS "")
else()
  message(FATAL_ERROR "MESHSYNC_RTL_COVERAGE must be off, line or full, not '${MESHSYNC_RTL_COVERAGE}'")
endif()
# Where the tests' Verilated contexts write their counts (CTest sets it for them).
set(MESHSYNC_RTL_COVERAGE_DIR ${PROJECT_BINARY_DIR}/coverage)

# The named configurations (rtl/configurations.txt) that have `use` among their uses:
# `out_names` gets their names; for each name N, MESHSYNC_RTL_PARAMS_<N> holds its
# parameter text ("BufferDepth=4 Trn=2") and MESHSYNC_RTL_GARGS_<N> the same as
# Verilator -G arguments. The Verilated class of N is named after MESHSYNC_RTL_ID_<N>.
set(MESHSYNC_RTL_CONFIGURATIONS ${MESHSYNC_RTL_DIR}/configurations.txt)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${MESHSYNC_RTL_CONFIGURATIONS})
function(meshsync_rtl_configurations use out_names)
  file(STRINGS ${MESHSYNC_RTL_CONFIGURATIONS} lines REGEX "^[A-Za-z0-9]")
  set(names "")
  foreach(line ${lines})
    if(NOT line MATCHES "^([^ ]+) +([^ ]+) *(.*)$")
      message(FATAL_ERROR "rtl/configurations.txt: cannot read '${line}'")
    endif()
    set(name ${CMAKE_MATCH_1})
    string(REPLACE "," ";" uses "${CMAKE_MATCH_2}")
    string(STRIP "${CMAKE_MATCH_3}" params)
    if(NOT use IN_LIST uses)
      continue()
    endif()
    list(APPEND names ${name})
    set(gargs "")
    separate_arguments(plist UNIX_COMMAND "${params}")
    foreach(p ${plist})
      list(APPEND gargs -G${p})
    endforeach()
    string(MAKE_C_IDENTIFIER "${name}" id)
    set(MESHSYNC_RTL_PARAMS_${name} "${params}" PARENT_SCOPE)
    set(MESHSYNC_RTL_GARGS_${name} "${gargs}" PARENT_SCOPE)
    set(MESHSYNC_RTL_ID_${name} "${id}" PARENT_SCOPE)
  endforeach()
  set(${out_names} ${names} PARENT_SCOPE)
endfunction()

# Writes `header`: an #include of each Verilated class of `names` (prefix `prefix`, then
# the configuration's id) and the X-macro MESHSYNC_RTL_MODELS(X) that calls
# X("name", Class, "parameters") once per configuration, in file order.
function(meshsync_rtl_models_header header prefix)
  set(includes "")
  set(table "")
  foreach(name ${ARGN})
    set(cls ${prefix}${MESHSYNC_RTL_ID_${name}})
    string(APPEND includes "#include \"${cls}.h\"\n")
    string(APPEND table " \\\n  X(\"${name}\", ${cls}, \"${MESHSYNC_RTL_PARAMS_${name}}\")")
  endforeach()
  file(GENERATE OUTPUT ${header} CONTENT
    "// Generated from rtl/configurations.txt by CMake (rtl/sources.cmake).\n#pragma once\n${includes}\n#define MESHSYNC_RTL_MODELS(X)${table}\n")
endfunction()

# Co-simulated routers take coordinates for the largest mesh the flit's destination fields
# address (model/core/flit_format.hpp: 7 bits each), so one build serves every mesh.
set(MESHSYNC_COSIM_MESH_GARGS -GMeshW=128 -GMeshH=128)
