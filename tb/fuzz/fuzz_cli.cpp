// The whole `meshsync` command line, parsed and validated but never run. Input: one
// argument per line (after the program name).
//
// Invariants: bad input is CLI::ParseError or ConfigError, never another exception, a
// crash, a leak or UB. After a successful parse: exactly one subcommand; its
// --mesh is a mesh parse_mesh accepts; and the node lists the subcommand would read
// (--members, --dests, --comm, --src, --rtl, --lockstep) parse to sorted, duplicate-free
// nodes inside that mesh or fail with ConfigError.
#include "cli_session.hpp"
#include "node_checks.hpp"
#include "sw/collective/member_spec.hpp"

using namespace meshsync;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::vector<std::string> args = fuzz::lines(data, size);
  // Config files are fuzz_yaml_config's; here a path could name /dev/zero.
  for (const std::string& a : args)
    if (a.find("config") != std::string::npos) return 0;
  CommandLine cli;
  if (!fuzz::parse(cli, args)) return 0;
  const CLI::App& sub = *fuzz::chosen(cli);

  const std::string mesh_text = fuzz::value(sub, "--mesh");
  MeshShape mesh{8, 8};
  if (!mesh_text.empty()) {
    try {
      mesh = parse_mesh(mesh_text);
    } catch (const ConfigError& e) {
      fuzz::fail("--mesh passed its validator but does not parse", e.what());
    }
  }
  const std::uint64_t seed = 1;
  for (const char* name : {"--members", "--comm", "--rtl", "--lockstep"}) {
    const std::string spec = fuzz::value(sub, name);
    if (spec.empty() || spec == "mesh") continue;
    fuzz::expect_config_error_or_success([&] { fuzz::check_nodes(parse_members(spec, mesh, seed), mesh, spec); });
  }
  NodeId source = 0;
  const std::string src = fuzz::value(sub, "--src");
  if (!src.empty()) fuzz::expect_config_error_or_success([&] { source = parse_node(src, mesh, "source"); });
  const std::string dests = fuzz::value(sub, "--dests");
  if (!dests.empty())
    fuzz::expect_config_error_or_success(
        [&] { fuzz::check_nodes(parse_destinations(dests, mesh, source, seed), mesh, dests); });
  return 0;
}
