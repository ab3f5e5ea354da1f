// The names users type for the enumerations: the CLI accepts exactly these, and tables
// and JSON print them.
#pragma once

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "../../model/core/traffic.hpp"
#include "../collective/barrier_tree.hpp"
#include "../collective/path_multicast.hpp"

namespace meshsync {

// name -> value for every value of an enumeration, from its printing function.
template <class E, class Range, class Name>
std::map<std::string, E> names_of(const Range& values, Name name) {
  std::map<std::string, E> m;
  for (E v : values) m.emplace(name(v), v);
  return m;
}

// A list option's values, each at most once: "scheme 'btm' given twice".
template <class E, class Name>
void check_distinct(const std::vector<E>& values, Name name, const std::string& what) {
  for (auto v = values.begin(); v != values.end(); ++v)
    if (std::find(values.begin(), v, *v) != v) throw ConfigError(what + " '" + name(*v) + "' given twice");
}

inline const std::map<std::string, BarrierScheme>& scheme_names() {
  static const auto names =
      names_of<BarrierScheme>(std::initializer_list<BarrierScheme>{BarrierScheme::BTM, BarrierScheme::CS}, scheme_name);
  return names;
}

inline const std::map<std::string, TrafficPattern>& pattern_names() {
  static const auto names = names_of<TrafficPattern>(kAllPatterns, pattern_name);
  return names;
}

inline const std::map<std::string, MulticastAlgorithm>& algorithm_names() {
  static const auto names = names_of<MulticastAlgorithm>(kAllMulticastAlgorithms, algorithm_name);
  return names;
}

}  // namespace meshsync
