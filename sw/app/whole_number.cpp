#include "whole_number.hpp"

#include <algorithm>
#include <charconv>

#include <fmt/format.h>

namespace meshsync {

namespace {

// A whole number written in decimal, also as "1e5", "2.5e3" or "10.0": its plain digits
// ("-" first if negative, no leading zeros), or "" with `why` set. Exact (digit strings,
// no floating point), so "9.99999999999999999e18" is as exact as its digits.
std::string plain_integer(const std::string& text, std::string& why) {
  const auto digit = [](char c) { return c >= '0' && c <= '9'; };
  std::size_t i = 0;
  std::string sign;
  if (i < text.size() && (text[i] == '-' || text[i] == '+')) sign = text[i++] == '-' ? "-" : "";
  std::string digits;
  std::size_t fraction = 0;
  bool dot = false;
  for (; i < text.size() && (digit(text[i]) || (text[i] == '.' && !dot)); ++i) {
    if (text[i] == '.') dot = true;
    else digits += text[i], fraction += dot ? 1 : 0;
  }
  long exponent = 0;
  if (!digits.empty() && i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    const bool negative = i < text.size() && text[i] == '-';
    if (i < text.size() && (text[i] == '-' || text[i] == '+')) ++i;
    const std::size_t start = i;
    for (; i < text.size() && digit(text[i]) && i - start < 4; ++i) exponent = exponent * 10 + (text[i] - '0');
    if (i == start) digits.clear();
    if (negative) exponent = -exponent;
  }
  if (digits.empty() || i != text.size()) {
    why = "is not a decimal number";
    return "";
  }
  const long shift = exponent - static_cast<long>(fraction);
  if (shift < 0) {
    const std::size_t cut = std::min(digits.size(), static_cast<std::size_t>(-shift));
    if (digits.find_first_not_of('0', digits.size() - cut) != std::string::npos) {
      why = "is not a whole number";
      return "";
    }
    digits.erase(digits.size() - cut);
  } else {
    digits.append(static_cast<std::size_t>(std::min(shift, 40L)), '0');  // beyond 40, out of range anyway
  }
  digits.erase(0, std::min(digits.find_first_not_of('0'), digits.size()));
  return digits.empty() ? "0" : sign + digits;
}

}  // namespace

std::string read_whole_number(const std::string& text, std::int64_t min, std::int64_t max, std::int64_t& value) {
  std::string why;
  const std::string plain = plain_integer(text, why);
  if (plain.empty()) return why;
  const auto [end, ec] = std::from_chars(plain.data(), plain.data() + plain.size(), value);
  if (ec == std::errc::result_out_of_range || value < min || value > max)
    return fmt::format("is out of range ({} to {})", min, max);
  return "";
}

}  // namespace meshsync
