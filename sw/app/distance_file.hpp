// A distance matrix from a CSV file (`adaptive-tree --distances`): one row per line, the
// distances d(u, v) of row u separated by commas, whole numbers from 0 to 10^6; blank
// lines and lines starting with # are left out. Square, 2 to 8192 nodes.
#pragma once

#include <cstdint>
#include <string>

#include "../collective/adaptive_tree.hpp"

namespace meshsync {

constexpr std::size_t kMaxDistanceNodes = 8192;  // as --nodes: the matrix takes 4 bytes a pair
// The largest matrix, 8192^2 entries of "1000000, ", is 576 MiB: room for blanks and comments.
constexpr std::uint64_t kMaxDistanceBytes = std::uint64_t{1} << 30;

// Throws ConfigError naming the file, and the line and column of a bad entry.
adaptive::DistanceMatrix read_distance_file(const std::string& path);

}  // namespace meshsync
