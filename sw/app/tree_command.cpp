#include "tree_command.hpp"

#include <chrono>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "../collective/member_spec.hpp"
#include "enum_names.hpp"
#include "json_io.hpp"
#include "run_output.hpp"

namespace meshsync {

using nlohmann::json;

namespace {

std::string coord_text(Coord c) { return fmt::format("({},{})", c.x, c.y); }

}  // namespace

int run_tree(const TreeOptions& o) {
  const auto wall0 = std::chrono::steady_clock::now();
  const MeshShape& mesh = o.mesh;
  const BarrierScheme scheme = o.scheme;
  if (o.json && o.dot) throw ConfigError("choose one of --json and --dot");
  const BarrierTree t = build_tree(scheme, mesh, parse_members(o.members, mesh, o.seed));
  // Children are named by the port the distribution leaves the parent through.
  const auto child_port = [&](NodeId parent, const ChildLink& c) {
    return port_name(next_port(mesh.coord(parent), mesh.coord(c.node), c.route));
  };
  if (o.json) {
    json nodes = json::array();
    for (const TreeNode& n : t.nodes()) {
      json children = json::object();
      for (const ChildLink& c : n.children) {
        const std::string key(child_port(n.node, c));
        if (scheme == BarrierScheme::BTM) children[key] = mesh.coord(c.node);
        else children[key].push_back(mesh.coord(c.node));
      }
      nodes.push_back(json{{"node", mesh.coord(n.node)},
                           {"parent", n.parent ? json(mesh.coord(*n.parent)) : json(nullptr)},
                           {"r", std::string(route_name(n.r))},  // the root's is unused
                           {"children", children}});
    }
    json j{{"scheme", scheme_name(scheme)},
           {"mesh", mesh},
           {"root", mesh.coord(t.root())},
           {"height", t.height()},
           {"nodes", nodes}};
    j["seed"] = o.seed;
    print_json_result(std::move(j), seconds_since(wall0));
    return 0;
  }
  if (o.dot) {
    fmt::print("digraph {} {{\n  node [shape=box];\n", scheme_name(scheme));
    for (const TreeNode& n : t.nodes()) {
      const Coord c = mesh.coord(n.node);
      fmt::print("  n{} [label=\"({},{})\" pos=\"{},{}!\"];\n", n.node, c.x, c.y, c.x, c.y);
      for (const ChildLink& ch : n.children)
        fmt::print("  n{} -> n{} [label=\"{}\"];\n", n.node, ch.node, child_port(n.node, ch));
    }
    fmt::print("}}\n");
    return 0;
  }
  fmt::print("{} tree on a {}x{} mesh: {} members, root {}, height {}\n", scheme_name(scheme),
             mesh.width, mesh.height, t.nodes().size(), coord_text(mesh.coord(t.root())), t.height());
  fmt::print("{:>9} {:>9} {:>3} {:>5} {:>6}  {}\n", "member", "parent P", "R", "depth", "hops",
             "children (port: member)");
  for (const TreeNode& n : t.nodes()) {
    std::string kids;
    for (const ChildLink& c : n.children)
      kids += fmt::format("{}:{} ", child_port(n.node, c), coord_text(mesh.coord(c.node)));
    fmt::print("{:>9} {:>9} {:>3} {:>5} {:>6}  {}\n", coord_text(mesh.coord(n.node)),
               n.parent ? coord_text(mesh.coord(*n.parent)) : "-", n.parent ? route_name(n.r) : "-",
               n.depth, n.path_hops, kids);
  }
  return 0;
}

}  // namespace meshsync
