#include "yaml_config.hpp"

#include <algorithm>
#include <iterator>
#include <map>
#include <string_view>

#include <fmt/format.h>
#include <yaml-cpp/depthguard.h>
#include <yaml-cpp/yaml.h>

#include "argument_checks.hpp"
#include "input_file.hpp"

namespace meshsync {

namespace {

// One value as YAML writes it: plain where it can be, quoted where it must.
std::string yaml_scalar(const std::string& value) {
  YAML::Emitter e;
  e << value;
  return e.c_str();
}

// The option's value as the command line would give it: its results (joined at its
// delimiter for a list option such as --scheme), or its default.
std::vector<std::string> option_values(const CLI::Option& opt, bool default_also) {
  std::vector<std::string> values = opt.results();
  if (values.size() > 1 && opt.get_delimiter() != '\0') {
    std::string joined;
    for (const std::string& v : values) joined += (joined.empty() ? "" : std::string(1, opt.get_delimiter())) + v;
    values = {joined};
  }
  if (values.empty() && default_also && !opt.get_default_str().empty()) values = {opt.get_default_str()};
  return values;
}

}  // namespace

// With `write_description` (`--print-config`): every option of the subcommand, each
// after its help line as a comment, the ones without a value commented out, so that the
// file documents itself and runs as it is.
std::string YamlConfig::to_config(const CLI::App* app, bool default_also, bool write_description,
                                  std::string) const {
  std::string out;
  if (write_description)
    out += "# meshsync " + app->get_name() + " --config FILE.yaml: " + app->get_description() + "\n";
  for (const CLI::Option* opt : app->get_options()) {
    if (!opt->get_configurable() || opt->get_lnames().empty()) continue;
    const std::string key = opt->get_lnames().front();
    if (key == "help" || key == "config" || key == "print-config" || key == "version") continue;
    const std::vector<std::string> values = option_values(*opt, default_also);
    // An option whose partner has no value would be refused (--load-rate needs --load):
    // shown with its default, commented out.
    bool wanting = false;
    for (const CLI::Option* partner : opt->get_needs()) wanting |= option_values(*partner, default_also).empty();
    if (write_description) out += "\n# " + opt->get_description() + "\n";
    if (values.empty() || wanting) {
      if (write_description) out += "# " + key + ":" + (values.empty() ? "" : " " + yaml_scalar(values.front())) + "\n";
    } else if (values.size() == 1) {
      out += key + ": " + yaml_scalar(values.front()) + "\n";
    } else {
      out += key + ":\n";
      for (const std::string& v : values) out += "  - " + yaml_scalar(v) + "\n";
    }
  }
  return out;
}

// The file is read after the command line, so the subcommand is known; before one is
// chosen the keys belong to the program itself.
const CLI::App* YamlConfig::target() const {
  const auto subs = root_->get_subcommands();
  return subs.empty() ? root_ : subs.front();
}

namespace {

// The option a key sets: `buffer_depth` stands for `--buffer-depth`. CLI11 would report
// an unknown one as "INI was not able to parse barrier.bogus"; the user wrote a YAML key,
// so the message names that key.
std::string option_name(const CLI::App& app, const std::string& key) {
  std::string name = key;
  std::replace(name.begin(), name.end(), '_', '-');
  const CLI::Option* opt = app.get_option_no_throw("--" + name);
  if (opt == nullptr || !opt->get_configurable())
    throw CLI::ConfigError("unknown key '" + key + "' in the config file");
  return name;
}

// An empty value is refused where the option takes one: on the command line CLI11
// reads `--members=` as the value missing, and a file means the same as its options there.
std::string scalar(const std::string& key, const CLI::Option& opt, const YAML::Node& v) {
  std::string s = v.IsNull() ? std::string() : v.as<std::string>();
  if (s.empty() && opt.get_items_expected_min() > 0)
    throw CLI::ConversionError("config key '" + key + "' has an empty value");
  if (has_empty_item(opt, s)) throw CLI::ConversionError("config key '" + key + "': '" + s + "' has an empty item");
  return s;
}

std::vector<std::string> scalars(const std::string& key, const CLI::Option& opt, const YAML::Node& v) {
  // `key:` with nothing after it (YAML null) is an empty value.
  if (v.IsScalar() || v.IsNull()) return {scalar(key, opt, v)};
  if (!v.IsSequence()) throw CLI::ConversionError("config key '" + key + "' must be a scalar or a list");
  std::vector<std::string> out;
  for (const auto& e : v) {
    if (!e.IsScalar()) throw CLI::ConversionError("config key '" + key + "' must hold scalars");
    out.push_back(scalar(key, opt, e));
  }
  return out;
}

}  // namespace

std::size_t yaml_documents(const std::string& text) {
  std::size_t documents = 0;
  bool content = false;  // the current document has content (or was opened by a marker)
  std::size_t start = 0;
  while (start < text.size()) {
    const std::size_t end = std::min(text.find('\n', start), text.size());
    const std::string_view line(text.data() + start, end - start);
    start = end + 1;
    const bool marker = line.substr(0, 3) == "---" && (line.size() == 3 || line[3] == ' ' || line[3] == '\t' ||
                                                       line[3] == '\r');
    if (marker) {
      if (content || documents == 0) ++documents;
      content = true;
      continue;
    }
    const std::size_t first = line.find_first_not_of(" \t\r");
    if (first == std::string_view::npos || line[first] == '#' || line[0] == '%') continue;
    if (documents == 0) documents = 1;
    content = true;
  }
  return documents;
}

std::string yaml_problem(const YAML::Exception& e) {
  if (const auto* deep = dynamic_cast<const YAML::DeepRecursion*>(&e))
    return fmt::format("nested more than {} levels deep", deep->depth() - 1);
  return e.msg;
}

std::vector<CLI::ConfigItem> YamlConfig::from_config(std::istream& input) const {
  // Bounded: the option's check refused what is not a regular file or is too large
  // before CLI11 opened it, and a file that grew since is cut off here, not read on.
  std::string text;
  for (char chunk[65536]; input && text.size() <= kMaxConfigBytes;) {
    input.read(chunk, sizeof chunk);
    text.append(chunk, static_cast<std::size_t>(input.gcount()));
  }
  if (text.size() > kMaxConfigBytes)
    throw CLI::ConversionError(fmt::format("config file is larger than {} MiB", kMaxConfigBytes >> 20));
  // A second document (after `---`) would be read by nothing: refused rather than ignored.
  if (const std::size_t n = yaml_documents(text); n > 1)
    throw CLI::ConversionError("config file holds " + std::to_string(n) +
                               " YAML documents; one mapping of option: value is read");
  YAML::Node doc;
  try {
    doc = YAML::Load(text);
  } catch (const YAML::Exception& e) {
    throw CLI::ConversionError("config file is not valid YAML: " + yaml_problem(e));
  }
  std::vector<CLI::ConfigItem> items;
  if (doc.IsNull()) return items;
  if (!doc.IsMap()) throw CLI::ConversionError("config file must be a YAML mapping of option: value");
  const CLI::App* app = target();
  // CLI11 would take one of two keys for the same option (`ts` and `startup` are one
  // option of multicast) and drop the other unseen.
  std::map<const CLI::Option*, std::string> keys;  // the key that set each option
  for (const auto& kv : doc) {
    CLI::ConfigItem item;
    if (app != root_) item.parents.push_back(app->get_name());
    if (!kv.first.IsScalar()) throw CLI::ConversionError("config file keys must be option names, not lists or mappings");
    const std::string key = kv.first.as<std::string>();
    item.name = option_name(*app, key);
    const CLI::Option* opt = app->get_option("--" + item.name);
    const auto [first, fresh] = keys.emplace(opt, key);
    if (!fresh)
      throw CLI::ConfigError(first->second == key ? "config key '" + key + "' given twice"
                                                  : "config keys '" + first->second + "' and '" + key +
                                                        "' both set --" + opt->get_lnames().front());
    item.inputs = scalars(key, *opt, kv.second);
    items.push_back(std::move(item));
  }
  return items;
}

}  // namespace meshsync
