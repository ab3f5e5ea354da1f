// What the multicast system tests share: an all-port (or one-port) network with a timing,
// and the software settings of an algorithm with the paper's preparation time.
#pragma once

#include "sim_helpers.hpp"
#include "sw/runtime/multicast_service.hpp"

namespace meshsync::test {

inline NetworkConfig multicast_config(MeshShape mesh, Timing t, std::uint32_t ni_ports = 4) {
  NetworkConfig c = make_config(mesh, t);
  c.router.ni_ports = ni_ports;
  return c;
}

inline MulticastSettings multicast_settings(MulticastAlgorithm a, std::uint16_t data_flits) {
  MulticastSettings s;
  s.algorithm = a;
  s.prep = paper_prep_cycles(a);
  s.data_flits = data_flits;
  return s;
}

}  // namespace meshsync::test
