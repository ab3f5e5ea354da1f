// A real number as an error line quotes it: the shortest text that reads back as the same
// double. "%f" (std::to_string) would print 1.0000001 as "1.000000", the value it was
// refused for hidden, and 1e300 as 301 digits.
#pragma once

#include <charconv>
#include <string>

namespace meshsync {

inline std::string real_text(double v) {
  char buffer[32];
  const auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, v);
  return ec == std::errc() ? std::string(buffer, end) : std::string("?");
}

}  // namespace meshsync
