// Coverage of the Verilated models built to count it (MESHSYNC_RTL_COVERAGE,
// rtl/sources.cmake; scripts/coverage merges the files with verilator_coverage).
//
// A context's counters live in its models, so a context's counts are written while its
// models still exist: by whoever owns the context, just before the models go. Each
// context writes a file of its own in $MESHSYNC_COVERAGE_DIR (the tests' CTest
// environment); without that variable, or in a build without coverage, nothing is
// written, so the program and a plain build never leave files behind.
//
// Header-only and of internal linkage on purpose: VM_COVERAGE is set per target by
// Verilator's CMake (on where a model counts coverage), and verilated_cov.cpp, which
// the write needs, is linked only there.
#pragma once

#include <atomic>
#include <string>

#include <verilated.h>

#if VM_COVERAGE
#include <unistd.h>

#include <cstdlib>
#include <filesystem>

#include <verilated_cov.h>
#endif

namespace meshsync::rtl {

// A number no other coverage file of this process has: one counter for the whole process
// (an inline function's static is one object), whichever translation unit writes.
inline unsigned next_coverage_serial() {
  static std::atomic<unsigned> serial{0};
  return serial++;
}

// Writes `ctx`'s coverage to $MESHSYNC_COVERAGE_DIR/<what>-<pid>-<serial>.dat.
static inline void write_coverage([[maybe_unused]] VerilatedContext& ctx, [[maybe_unused]] const std::string& what) {
#if VM_COVERAGE
  const char* dir = std::getenv("MESHSYNC_COVERAGE_DIR");
  if (dir == nullptr || *dir == '\0') return;
  std::filesystem::create_directories(dir);
  const std::string path = std::string(dir) + "/" + what + "-" + std::to_string(::getpid()) + "-" +
                           std::to_string(next_coverage_serial()) + ".dat";
  // Per instance: each generate iteration's and each router's points apart (Verilator
  // otherwise writes one point per module, the instances' indices as '*').
  ctx.coveragep()->forcePerInstance(true);
  ctx.coveragep()->write(path.c_str());
#endif
}

}  // namespace meshsync::rtl
