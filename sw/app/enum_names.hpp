// The names users type for the enumerations: the CLI accepts exactly these, and tables
// and JSON print them.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "../../model/core/traffic.hpp"
#include "../collective/barrier_tree.hpp"
#include "../collective/path_multicast.hpp"
#include "../collective/reduction.hpp"
#include "../runtime/experiments/param_checks.hpp"  // check_distinct

namespace meshsync {

// name -> value for every value of an enumeration, from its printing function.
template <class E, class Range, class Name>
std::map<std::string, E> names_of(const Range& values, Name name) {
  std::map<std::string, E> m;
  for (E v : values) m.emplace(name(v), v);
  return m;
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

inline const std::map<std::string, ReduceOp>& reduce_op_names() {
  static const auto names = names_of<ReduceOp>(kAllReduceOps, reduce_op_name);
  return names;
}

inline const std::map<std::string, ElementType>& element_type_names() {
  static const auto names = names_of<ElementType>(kAllElementTypes, element_type_name);
  return names;
}

inline const std::map<std::string, AllreduceAlgorithm>& allreduce_algorithm_names() {
  static const auto names = names_of<AllreduceAlgorithm>(kAllAllreduceAlgorithms, allreduce_algorithm_name);
  return names;
}

inline const std::map<std::string, AddressFlits>& address_flits_names() {
  static const auto names = names_of<AddressFlits>(kAllAddressFlits, address_flits_name);
  return names;
}

inline const std::map<std::string, QgRouting>& qg_routing_names() {
  static const auto names = names_of<QgRouting>(kAllQgRoutings, qg_routing_name);
  return names;
}

inline const std::map<std::string, SenderBusy>& sender_busy_names() {
  static const auto names = names_of<SenderBusy>(kAllSenderBusy, sender_busy_name);
  return names;
}

}  // namespace meshsync
