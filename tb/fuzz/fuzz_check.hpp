// What the fuzz targets share: an invariant that does not hold is a finding, reported
// like a crash (libFuzzer saves the input that broke it).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace meshsync::fuzz {

[[noreturn]] inline void fail(const char* invariant, const std::string& detail) {
  std::fprintf(stderr, "fuzz invariant broken: %s: %s\n", invariant, detail.c_str());
  std::abort();
}

#define MESHSYNC_FUZZ_CHECK(cond, detail) \
  do {                                     \
    if (!(cond)) ::meshsync::fuzz::fail(#cond, (detail)); \
  } while (0)

// The input as text.
inline std::string text(const std::uint8_t* data, std::size_t size) {
  return std::string(reinterpret_cast<const char*>(data), size);
}

// The input split at newlines: one command-line argument or one spec per line.
inline std::vector<std::string> lines(const std::uint8_t* data, std::size_t size) {
  std::vector<std::string> out(1);
  for (std::size_t i = 0; i < size; ++i) {
    if (data[i] == '\n') out.emplace_back();
    else out.back().push_back(static_cast<char>(data[i]));
  }
  return out;
}

}  // namespace meshsync::fuzz
