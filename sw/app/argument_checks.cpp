#include "argument_checks.hpp"

#include <algorithm>
#include <numeric>

namespace meshsync {

namespace {

// Levenshtein distance, one row at a time.
std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> row(b.size() + 1);
  std::iota(row.begin(), row.end(), std::size_t{0});
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

std::string suggestion(const std::string& nearest) {
  return nearest.empty() ? "" : " (did you mean " + nearest + "?)";
}

// Every long option of `app` as typed: "--scheme", "--no-memory-check".
std::vector<std::string> long_options(const CLI::App& app) {
  std::vector<std::string> out;
  for (const CLI::Option* opt : app.get_options())
    for (const std::string& name : opt->get_lnames()) out.push_back("--" + name);
  return out;
}

}  // namespace

std::string nearest_name(const std::string& typed, const std::vector<std::string>& candidates) {
  std::string best;
  std::size_t best_distance = std::max<std::size_t>(2, typed.size() / 3) + 1;
  for (const std::string& c : candidates) {
    const std::size_t d = edit_distance(typed, c);
    if (d < best_distance) best = c, best_distance = d;
  }
  return best;
}

CLI::Validator one_of(std::vector<std::string> names) {
  return CLI::Validator(
      [names](std::string& typed) -> std::string {
        if (std::find(names.begin(), names.end(), typed) != names.end()) return "";
        std::string all;
        for (const std::string& n : names) all += (all.empty() ? "" : ",") + n;
        return typed + " not in {" + all + "}" + suggestion(nearest_name(typed, names));
      },
      "");
}

void check_arguments(const CLI::App& app, const std::vector<std::string>& args) {
  const std::vector<std::string> root_options = long_options(app);
  const CLI::App* sub = nullptr;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& token = args[i];
    if (token == "--") return;  // what follows is not options
    if (token.rfind("--", 0) == 0) {
      const auto eq = token.find('=');
      const std::string name = token.substr(0, eq);
      const CLI::Option* opt = sub != nullptr ? sub->get_option_no_throw(name) : nullptr;
      if (opt == nullptr) opt = app.get_option_no_throw(name);
      if (opt == nullptr) {
        std::vector<std::string> known = root_options;
        if (sub != nullptr) {
          const std::vector<std::string> own = long_options(*sub);
          known.insert(known.end(), own.begin(), own.end());
        }
        throw CLI::ValidationError("unknown option " + name + (sub ? " of " + sub->get_name() : std::string()) +
                                   suggestion(nearest_name(name, known)));
      }
      const std::string value = eq != std::string::npos ? token.substr(eq + 1) : i + 1 < args.size() ? args[i + 1] : "";
      if (has_empty_item(*opt, value)) throw CLI::ValidationError(name, "'" + value + "' has an empty item");
      // A root option's value ("--config FILE") is not the subcommand.
      if (sub == nullptr && eq == std::string::npos && name == "--config") ++i;
      continue;
    }
    if (sub != nullptr || token.empty() || token[0] == '-') continue;
    std::vector<std::string> names;
    for (const CLI::App* s : app.get_subcommands({})) names.push_back(s->get_name());
    if (std::find(names.begin(), names.end(), token) == names.end())
      throw CLI::ValidationError("unknown subcommand '" + token + "'" + suggestion(nearest_name(token, names)) +
                                 "; `meshsync --help` lists them");
    sub = app.get_subcommand(token);
  }
}

}  // namespace meshsync
