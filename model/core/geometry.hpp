// Mesh coordinates, router ports and dimension-order routing (NOTES.md: "Mesh,
// coordinates, ports"). Everything that needs to know where a flit goes next asks here.
#pragma once

#include <array>
#include <cstdint>
#include <cstdlib>
#include <string_view>

namespace meshsync {

using NodeId = std::uint32_t;

struct Coord {
  int x = 0;
  int y = 0;
  friend bool operator==(Coord a, Coord b) { return a.x == b.x && a.y == b.y; }
  friend bool operator!=(Coord a, Coord b) { return !(a == b); }
};

// Port order is part of the microarchitecture contract (docs/microarchitecture.md):
// it fixes round-robin order and VCD names.
enum class Port : std::uint8_t { Local = 0, PlusX = 1, MinusX = 2, PlusY = 3, MinusY = 4 };
inline constexpr int kPorts = 5;
inline constexpr std::array<Port, kPorts> kAllPorts = {Port::Local, Port::PlusX, Port::MinusX,
                                                      Port::PlusY, Port::MinusY};

// The R bit of a sync message (and of every message): which dimension goes first.
enum class Route : std::uint8_t { XY = 0, YX = 1 };

constexpr int index(Port p) { return static_cast<int>(p); }
constexpr Port port_at(int i) { return static_cast<Port>(i); }

constexpr Port opposite(Port p) {
  switch (p) {
    case Port::PlusX: return Port::MinusX;
    case Port::MinusX: return Port::PlusX;
    case Port::PlusY: return Port::MinusY;
    case Port::MinusY: return Port::PlusY;
    default: return Port::Local;
  }
}

// Paper names (+X, -X, ...) for tables and JSON; compass names for waveforms.
constexpr std::string_view port_name(Port p) {
  constexpr std::array<std::string_view, kPorts> n = {"local", "+X", "-X", "+Y", "-Y"};
  return n[index(p)];
}
constexpr std::string_view port_signal_name(Port p) {
  constexpr std::array<std::string_view, kPorts> n = {"local", "east", "west", "north", "south"};
  return n[index(p)];
}
constexpr std::string_view route_name(Route r) { return r == Route::XY ? "XY" : "YX"; }

inline int hops(Coord a, Coord b) { return std::abs(a.x - b.x) + std::abs(a.y - b.y); }

inline Coord step(Coord c, Port p) {
  switch (p) {
    case Port::PlusX: return {c.x + 1, c.y};
    case Port::MinusX: return {c.x - 1, c.y};
    case Port::PlusY: return {c.x, c.y + 1};
    case Port::MinusY: return {c.x, c.y - 1};
    default: return c;
  }
}

// Dimension-order routing: the output port at `here` for a message to `dest`.
inline Port next_port(Coord here, Coord dest, Route r) {
  const auto along_x = [&] { return dest.x > here.x ? Port::PlusX : Port::MinusX; };
  const auto along_y = [&] { return dest.y > here.y ? Port::PlusY : Port::MinusY; };
  if (r == Route::XY) {
    if (dest.x != here.x) return along_x();
    if (dest.y != here.y) return along_y();
  } else {
    if (dest.y != here.y) return along_y();
    if (dest.x != here.x) return along_x();
  }
  return Port::Local;
}

struct MeshShape {
  int width = 0;
  int height = 0;
  int nodes() const { return width * height; }
  bool contains(Coord c) const { return c.x >= 0 && c.y >= 0 && c.x < width && c.y < height; }
  NodeId id(Coord c) const { return static_cast<NodeId>(c.y * width + c.x); }
  Coord coord(NodeId n) const {
    return {static_cast<int>(n) % width, static_cast<int>(n) / width};
  }
  bool has_neighbor(Coord c, Port p) const { return p != Port::Local && contains(step(c, p)); }
};

}  // namespace meshsync
