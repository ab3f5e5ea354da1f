// A left-to-right scanner for the short grammars of user input (positions "x,y", mesh
// sizes "WxH", fault specs). Not std::regex: libstdc++'s matcher recurses once per
// character, so a long enough input (tens of thousands of blanks in one entry) overflows
// the stack. Every step here is a loop over the text.
#pragma once

#include <cctype>
#include <cstddef>
#include <optional>
#include <string_view>

namespace meshsync {

class TextScan {
 public:
  explicit TextScan(std::string_view text) : s_(text) {}

  bool done() const { return i_ == s_.size(); }
  // Skips blanks (what \s matches: space, tab, newlines, vertical tab, form feed).
  void blanks() {
    while (i_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[i_]))) ++i_;
  }
  // Takes `c` if it is next.
  bool take(char c) {
    if (i_ < s_.size() && s_[i_] == c) {
      ++i_;
      return true;
    }
    return false;
  }
  // Takes one of `chars` if it is next, and says which (0 when none).
  char take_any(std::string_view chars) {
    if (i_ < s_.size() && chars.find(s_[i_]) != std::string_view::npos) return s_[i_++];
    return 0;
  }
  // Takes `word` if it comes next.
  bool take_word(std::string_view word) {
    if (s_.substr(i_, word.size()) != word) return false;
    i_ += word.size();
    return true;
  }
  // A decimal number of 1 to `max_digits` digits (no sign unless `sign`: then an optional
  // '-'), or nothing (the position is then unspecified: the caller gives up).
  std::optional<long long> number(int max_digits, bool sign = false) {
    const bool negative = sign && take('-');
    long long v = 0;
    int digits = 0;
    while (i_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[i_]))) {
      if (++digits > max_digits) return std::nullopt;
      v = v * 10 + (s_[i_++] - '0');
    }
    if (digits == 0) return std::nullopt;
    return negative ? -v : v;
  }

 private:
  std::string_view s_;
  std::size_t i_ = 0;
};

}  // namespace meshsync
