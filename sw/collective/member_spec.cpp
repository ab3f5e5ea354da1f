#include "member_spec.hpp"

#include <algorithm>
#include <numeric>
#include <optional>

#include "../../model/core/config.hpp"
#include "../../model/core/random.hpp"
#include "../../model/core/text_scan.hpp"

namespace meshsync {

namespace {
long parse_count(const std::string& s, const std::string& what) {
  TextScan t(s);
  t.blanks();
  const auto n = t.number(9, true);
  t.blanks();
  if (!n || !t.done()) throw ConfigError("malformed " + what + " '" + s + "'");
  return static_cast<long>(*n);
}

// "x,y" with blanks around either number: the coordinates, or nothing.
std::optional<Coord> scan_pair(const std::string& item) {
  TextScan t(item);
  t.blanks();
  const auto x = t.number(9, true);
  t.blanks();
  if (!x || !t.take(',')) return std::nullopt;
  t.blanks();
  const auto y = t.number(9, true);
  t.blanks();
  if (!y || !t.done()) return std::nullopt;
  return Coord{static_cast<int>(*x), static_cast<int>(*y)};
}
}  // namespace

MeshShape parse_mesh(const std::string& text) {
  TextScan t(text);
  const auto width = t.number(9, true);
  const bool by = t.take_any("xX") != 0;
  const auto height = t.number(9, true);
  if (!width || !by || !height || !t.done())
    throw ConfigError("malformed mesh size '" + text + "' (expected WxH, for example 8x8)");
  const long long w = *width, h = *height;
  if (w < 1 || h < 1) throw ConfigError("mesh size '" + text + "' has a side smaller than 1");
  if (w > 1024 || h > 1024) throw ConfigError("mesh size '" + text + "' has a side larger than 1024");
  if (w * h < 2) throw ConfigError("mesh size '" + text + "' has fewer than 2 nodes");
  return MeshShape{static_cast<int>(w), static_cast<int>(h)};
}

std::vector<NodeId> parse_positions(const std::string& spec, const MeshShape& mesh,
                                    const std::string& what) {
  std::vector<NodeId> out;
  if (spec == "all") {
    out.resize(static_cast<std::size_t>(mesh.nodes()));
    std::iota(out.begin(), out.end(), 0);
    return out;
  }
  // Which nodes are taken already: a linear check, for lists as long as the mesh.
  std::vector<bool> taken(static_cast<std::size_t>(mesh.nodes()), false);
  std::size_t start = 0;
  while (start <= spec.size()) {
    // ';' or '/': the second needs no quotes in a shell.
    const std::size_t end = std::min(spec.find_first_of(";/", start), spec.size());
    const std::string item = spec.substr(start, end - start);
    start = end + 1;
    if (item.find_first_not_of(" \t") == std::string::npos) {
      if (end == spec.size() && !out.empty()) break;  // a trailing separator
      throw ConfigError("malformed " + what + " '" + spec + "': empty entry");
    }
    const std::optional<Coord> pos = scan_pair(item);
    if (!pos) throw ConfigError("malformed " + what + " entry '" + item + "' (expected x,y)");
    const Coord c = *pos;
    if (!mesh.contains(c))
      throw ConfigError(what + " (" + std::to_string(c.x) + "," + std::to_string(c.y) +
                        ") is outside the " + std::to_string(mesh.width) + "x" +
                        std::to_string(mesh.height) + " mesh");
    const NodeId id = mesh.id(c);
    if (taken[static_cast<std::size_t>(id)])
      throw ConfigError("duplicate " + what + " (" + std::to_string(c.x) + "," + std::to_string(c.y) + ")");
    taken[static_cast<std::size_t>(id)] = true;
    out.push_back(id);
  }
  std::sort(out.begin(), out.end());
  return out;
}

namespace {
// `spec` = "random:N": N nodes of `pool` drawn by a partial Fisher-Yates shuffle with
// portable draws (random.hpp), so the same seed gives the same nodes with any standard
// library. Sorted by node id.
std::vector<NodeId> draw(const std::string& spec, std::vector<NodeId> pool, std::uint64_t seed,
                         const std::string& what) {
  const long n = parse_count(spec.substr(7), what + " count");
  if (n < 1 || n > static_cast<long>(pool.size()))
    throw ConfigError("random:" + std::to_string(n) + " needs between 1 and " + std::to_string(pool.size()) +
                      " " + what + "s");
  Random(seed).partial_shuffle(pool.begin(), pool.end(), static_cast<std::uint64_t>(n));
  pool.resize(static_cast<std::size_t>(n));
  std::sort(pool.begin(), pool.end());
  return pool;
}

bool is_random(const std::string& spec) { return spec.rfind("random:", 0) == 0; }
}  // namespace

std::vector<NodeId> parse_members(const std::string& spec, const MeshShape& mesh, std::uint64_t seed) {
  if (is_random(spec)) {
    std::vector<NodeId> all(static_cast<std::size_t>(mesh.nodes()));
    std::iota(all.begin(), all.end(), 0);
    return draw(spec, std::move(all), seed, "member");
  }
  if (spec.empty()) throw ConfigError("empty member list");
  return parse_positions(spec, mesh, "member");
}

std::size_t member_count(const std::string& spec, const MeshShape& mesh) {
  if (spec == "all") return static_cast<std::size_t>(mesh.nodes());
  if (is_random(spec)) return static_cast<std::size_t>(std::max(0L, parse_count(spec.substr(7), "member count")));
  return parse_members(spec, mesh, 0).size();
}

std::vector<NodeId> parse_destinations(const std::string& spec, const MeshShape& mesh, NodeId source,
                                       std::uint64_t seed) {
  if (is_random(spec)) {
    std::vector<NodeId> others;
    for (NodeId n = 0; n < static_cast<NodeId>(mesh.nodes()); ++n)
      if (n != source) others.push_back(n);
    return draw(spec, std::move(others), seed, "destination");
  }
  if (spec.empty()) throw ConfigError("empty destination list");
  return parse_positions(spec, mesh, "destination");
}

NodeId parse_node(const std::string& spec, const MeshShape& mesh, const std::string& what) {
  if (spec == "all" || spec.find_first_of(";/") != std::string::npos)
    throw ConfigError(what + " must be one node x,y, got '" + spec + "'");
  return parse_positions(spec, mesh, what).front();
}

}  // namespace meshsync
