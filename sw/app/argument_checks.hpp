// A name a user mistyped (a subcommand, an option) refused with the nearest one the
// command line has: "unknown option --sheme (did you mean --scheme?)", where CLI11 alone
// says "The following arguments were not expected: cs --sheme".
#pragma once

#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace meshsync {

// The candidate nearest to `typed` by edit distance, or "" when none is near enough to be
// a likely typo (at most a third of the name's letters, and at least 2, changed).
std::string nearest_name(const std::string& typed, const std::vector<std::string>& candidates);

// Throws CLI::ValidationError for the first subcommand or long option in `args` (argv
// after the program's name) that `app` does not have, naming the nearest one.
void refuse_unknown_names(const CLI::App& app, const std::vector<std::string>& args);

}  // namespace meshsync
