// The CLI's mesh and member parsers (sw/collective/member_spec.hpp). Input: lines
// "MESH", "MEMBERS", "DESTS", "NODE", "SEED" (missing lines are empty).
//
// Invariants: a mesh that parses is 1..1024 per side with at least 2 nodes and prints
// back to itself; a member or destination list that parses is sorted, has no duplicate,
// lies inside the mesh, and is the same for the same seed; random:N gives exactly N;
// destinations never include the source when drawn; a parsed node is inside the mesh.
// Bad input may only throw ConfigError.
#include <algorithm>
#include <string>

#include "node_checks.hpp"
#include "sw/collective/member_spec.hpp"

using namespace meshsync;

using fuzz::check_nodes;
using fuzz::expect_config_error_or_success;
using fuzz::shape;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::vector<std::string> in = fuzz::lines(data, size);
  in.resize(std::max<std::size_t>(in.size(), 5));
  const std::string &mesh_text = in[0], &members = in[1], &dests = in[2], &node = in[3];
  const std::uint64_t seed = std::hash<std::string>{}(in[4]);

  // On a mesh that does not parse the other parsers still get the input, on 8x8.
  MeshShape mesh{8, 8};
  bool parsed = false;
  try {
    mesh = parse_mesh(mesh_text);
    parsed = true;
  } catch (const ConfigError&) {
  }
  if (parsed) {
    MESHSYNC_FUZZ_CHECK(mesh.width >= 1 && mesh.height >= 1 && mesh.width <= 1024 && mesh.height <= 1024 &&
                            mesh.nodes() >= 2,
                        mesh_text);
    MESHSYNC_FUZZ_CHECK(parse_mesh(shape(mesh)).nodes() == mesh.nodes(), mesh_text);
    NetworkConfig c;
    c.mesh = mesh;
    try {
      c.validate();
    } catch (const ConfigError& e) {
      fuzz::fail("a mesh the CLI accepts is a valid network", e.what());
    }
  }

  expect_config_error_or_success([&] {
    const auto m = parse_members(members, mesh, seed);
    check_nodes(m, mesh, members);
    MESHSYNC_FUZZ_CHECK(parse_members(members, mesh, seed) == m, "not deterministic: " + members);
  });
  expect_config_error_or_success([&] {
    const NodeId source = static_cast<NodeId>(seed % static_cast<std::uint64_t>(mesh.nodes()));
    const auto d = parse_destinations(dests, mesh, source, seed);
    check_nodes(d, mesh, dests);
    if (dests.rfind("random:", 0) == 0)
      MESHSYNC_FUZZ_CHECK(std::find(d.begin(), d.end(), source) == d.end(), dests);
  });
  expect_config_error_or_success([&] {
    const NodeId n = parse_node(node, mesh, "source");
    MESHSYNC_FUZZ_CHECK(n < static_cast<NodeId>(mesh.nodes()), node);
  });
  expect_config_error_or_success([&] { check_nodes(parse_positions(members, mesh, "router"), mesh, members); });
  return 0;
}
