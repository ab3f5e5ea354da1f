// Checks of experiment parameters that several experiments share.
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include "../../../model/core/errors.hpp"

namespace meshsync {

// A list parameter's values, each at most once: "scheme 'btm' given twice".
template <class E, class Name>
void check_distinct(const std::vector<E>& values, Name name, const std::string& what) {
  for (auto v = values.begin(); v != values.end(); ++v)
    if (std::find(values.begin(), v, *v) != v) throw ConfigError(what + " '" + name(*v) + "' given twice");
}

}  // namespace meshsync
