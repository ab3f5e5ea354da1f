// A whole number as a user writes it, read exactly: decimal ("010" is 10, not octal), also
// in decimal notation ("1e5", "2.5e3", "10.0"), never hexadecimal; checked against its
// range however many digits it has (never clamped). The command line's integer options
// and a sweep spec's seeds read numbers this way.
#pragma once

#include <cstdint>
#include <string>

namespace meshsync {

// "" with `value` set, or why `text` is refused: "is not a decimal number", "is not a
// whole number", "is out of range (MIN to MAX)".
std::string read_whole_number(const std::string& text, std::int64_t min, std::int64_t max, std::int64_t& value);

}  // namespace meshsync
