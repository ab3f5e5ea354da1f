// The names users type for the enumerations: the CLI accepts exactly these, and tables
// and JSON print them.
#pragma once

#include <map>
#include <string>

#include "../../model/core/traffic.hpp"
#include "../collective/barrier_tree.hpp"

namespace meshsync {

inline const std::map<std::string, BarrierScheme>& scheme_names() {
  static const std::map<std::string, BarrierScheme> names{
      {scheme_name(BarrierScheme::BTM), BarrierScheme::BTM},
      {scheme_name(BarrierScheme::CS), BarrierScheme::CS}};
  return names;
}

inline const std::map<std::string, TrafficPattern>& pattern_names() {
  static const std::map<std::string, TrafficPattern> names = [] {
    std::map<std::string, TrafficPattern> m;
    for (TrafficPattern p : kAllPatterns) m.emplace(pattern_name(p), p);
    return m;
  }();
  return names;
}

}  // namespace meshsync
