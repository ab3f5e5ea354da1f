// Lets every `meshsync` option be set from a YAML file (`--config FILE`): top-level keys
// are option names of the chosen subcommand; unknown keys are errors.
#pragma once

#include <CLI/CLI.hpp>
#include <yaml-cpp/exceptions.h>

namespace meshsync {

// How many YAML documents `text` holds, counted by its document markers: a `---` line
// after content (or a second one) starts another. Counted on the text because
// yaml-cpp 0.7's LoadAll loops without end, allocating, on some malformed input (found
// by tb/fuzz), where Load reports an error.
std::size_t yaml_documents(const std::string& text);

// What a YAML parse error means, for the one error line: yaml-cpp's own message, except
// where it misleads (nesting past its depth limit reads "bad file").
std::string yaml_problem(const YAML::Exception& e);

class YamlConfig : public CLI::Config {
 public:
  explicit YamlConfig(const CLI::App* root) : root_(root) {}
  std::string to_config(const CLI::App* app, bool default_also, bool write_description,
                        std::string prefix) const override;
  // Throws CLI::ConfigError naming the first key that is no option of the subcommand.
  std::vector<CLI::ConfigItem> from_config(std::istream& input) const override;

 private:
  const CLI::App* target() const;
  const CLI::App* root_;
};

}  // namespace meshsync
