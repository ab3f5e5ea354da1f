// The two ways a run fails, which the program tells apart by exit code (docs/cli.md):
// bad input, and a simulation that could not finish. Plain C++, so that whatever only
// parses input (the CLI, the sweep, the fuzz targets) can name both without SystemC.
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#endif

namespace meshsync {

// AddressSanitizer cannot follow libsystemc's coroutine stack switches: after a
// simulation it takes the wrong stack for the current one and ignores the
// __asan_handle_no_return of every later throw ("ASan is ignoring requested
// __asan_handle_no_return"). Frames an exception unwinds then keep their redzones, and
// the next landing pad's call into the unwinder, whose own frame lands on them, is
// reported as a stack overflow that is none. Clears the shadow from `below` bytes under
// the caller's frame to `above` bytes over it: the frames the throw will unwind, and
// where the unwinder's run. Nothing without ASan.
inline void forget_stale_stack_poison(std::size_t below = 256 * 1024, std::size_t above = 0) {
#if defined(__SANITIZE_ADDRESS__)
  volatile char here = 0;
  const auto at = reinterpret_cast<std::uintptr_t>(&here);
  __asan_unpoison_memory_region(reinterpret_cast<void*>(at - below), below + above);
#else
  (void)below;
  (void)above;
#endif
}

// Thrown for any impossible or malformed parameter; the message is the one line a user
// sees.
struct ConfigError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A simulation that could not finish: deadlock, or processes left waiting. Mostly thrown
// just after a simulation ended, so it clears the stack poison its unwinding would trip
// on under ASan (forget_stale_stack_poison: the frames up to the program's catch).
struct SimulationError : std::runtime_error {
  explicit SimulationError(const std::string& what) : std::runtime_error(what) {
    forget_stale_stack_poison(64 * 1024, 128 * 1024);
  }
};

}  // namespace meshsync
