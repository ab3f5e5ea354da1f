// The command line's words checked before CLI11 reads them, where CLI11 alone would say
// too little or nothing:
// - a mistyped subcommand or option is refused with the nearest name the command line
//   has ("unknown option --sheme (did you mean --scheme?)", where CLI11 says "The
//   following arguments were not expected: cs --sheme");
// - a list with an empty item ("dp,,qg") is refused, where CLI11 drops the item.
#pragma once

#include <map>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace meshsync {

// The candidate nearest to `typed` by edit distance, or "" when none is near enough to be
// a likely typo (at most a third of the name's letters, and at least 2, changed).
std::string nearest_name(const std::string& typed, const std::vector<std::string>& candidates);

// Accepts exactly one of `names` (in their order): "bogus not in {btm,cs}", with
// the nearest name when one is near ("(did you mean cs?)").
CLI::Validator one_of(std::vector<std::string> names);
template <typename E>
CLI::Validator one_of(const std::map<std::string, E>& names) {
  std::vector<std::string> keys;
  for (const auto& entry : names) keys.push_back(entry.first);
  return one_of(std::move(keys));
}

// Whether a list option's text (`opt` splits it at its delimiter) has an empty item:
// "dp,,qg", ",dp", "dp,". Also for config files (yaml_config.cpp).
inline bool has_empty_item(const CLI::Option& opt, const std::string& text) {
  const char d = opt.get_delimiter();
  if (d == '\0' || text.empty()) return false;
  return text.front() == d || text.back() == d || text.find(std::string(2, d)) != std::string::npos;
}

// Throws CLI::ValidationError for the first subcommand or long option in `args` (argv
// after the program's name) that `app` does not have, naming the nearest one, or for
// a list option's value with an empty item.
void check_arguments(const CLI::App& app, const std::vector<std::string>& args);

}  // namespace meshsync
