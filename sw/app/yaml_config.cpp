#include "yaml_config.hpp"

#include <sstream>

#include <yaml-cpp/yaml.h>

namespace meshsync {

std::string YamlConfig::to_config(const CLI::App* app, bool default_also, bool,
                                  std::string) const {
  YAML::Emitter out;
  out << YAML::BeginMap;
  for (const CLI::Option* opt : app->get_options()) {
    if (!opt->get_configurable() || opt->get_lnames().empty()) continue;
    const auto results = opt->results();
    if (!results.empty()) {
      out << YAML::Key << opt->get_lnames().front() << YAML::Value << results.back();
    } else if (default_also && !opt->get_default_str().empty()) {
      out << YAML::Key << opt->get_lnames().front() << YAML::Value << opt->get_default_str();
    }
  }
  out << YAML::EndMap;
  return std::string(out.c_str()) + "\n";
}

std::vector<CLI::ConfigItem> YamlConfig::from_config(std::istream& input) const {
  YAML::Node doc;
  try {
    doc = YAML::Load(input);
  } catch (const YAML::Exception& e) {
    throw CLI::ConversionError("config file is not valid YAML: " + e.msg);
  }
  std::vector<CLI::ConfigItem> items;
  if (doc.IsNull()) return items;
  if (!doc.IsMap()) throw CLI::ConversionError("config file must be a YAML mapping of option: value");
  std::vector<std::string> parents;
  if (root_) {
    const auto subs = root_->get_subcommands();
    if (!subs.empty()) parents.push_back(subs.front()->get_name());
  }
  for (const auto& kv : doc) {
    CLI::ConfigItem item;
    item.parents = parents;
    item.name = kv.first.as<std::string>();
    for (char& ch : item.name)
      if (ch == '_') ch = '-';
    const YAML::Node& v = kv.second;
    if (v.IsScalar()) {
      item.inputs.push_back(v.as<std::string>());
    } else if (v.IsSequence()) {
      for (const auto& e : v) {
        if (!e.IsScalar())
          throw CLI::ConversionError("config key '" + item.name + "' must hold scalars");
        item.inputs.push_back(e.as<std::string>());
      }
    } else {
      throw CLI::ConversionError("config key '" + item.name + "' must be a scalar or a list");
    }
    items.push_back(std::move(item));
  }
  return items;
}

}  // namespace meshsync
