#include "distance_file.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>

#include <fmt/format.h>

#include "../../model/core/errors.hpp"
#include "input_file.hpp"
#include "whole_number.hpp"

namespace meshsync {

adaptive::DistanceMatrix read_distance_file(const std::string& path) {
  // Checked before it is opened: a FIFO would block the open.
  if (const std::string why = input_file_problem(path, kMaxDistanceBytes); !why.empty())
    throw ConfigError(fmt::format("--distances: cannot read '{}': {}", path, why));
  std::ifstream in(path);
  if (!in) throw ConfigError(fmt::format("--distances: cannot read '{}': {}", path, std::strerror(errno)));
  constexpr std::size_t kMaxNodes = kMaxDistanceNodes;
  std::vector<std::vector<std::uint32_t>> rows;
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    const auto bad = [&](const std::string& why) {
      return ConfigError(fmt::format("--distances: '{}' line {}: {}", path, number, why));
    };
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.find_first_not_of(" \t") == std::string::npos || line[line.find_first_not_of(" \t")] == '#') continue;
    std::vector<std::uint32_t> row;
    for (std::string::size_type from = 0; from <= line.size();) {
      const std::string::size_type end = std::min(line.find(',', from), line.size());
      std::string cell = line.substr(from, end - from);
      const auto first = cell.find_first_not_of(" \t"), last = cell.find_last_not_of(" \t");
      cell = first == std::string::npos ? "" : cell.substr(first, last - first + 1);
      std::int64_t value = 0;
      if (const std::string why = read_whole_number(cell, 0, 1000000, value); !why.empty())
        throw bad(fmt::format("entry {} '{}' {}", row.size() + 1, cell, why));
      row.push_back(static_cast<std::uint32_t>(value));
      if (row.size() > kMaxNodes) throw bad(fmt::format("more than {} entries", kMaxNodes));
      from = end + 1;
    }
    rows.push_back(std::move(row));
    if (rows.size() > kMaxNodes) throw bad(fmt::format("more than {} rows", kMaxNodes));
  }
  if (in.bad()) throw ConfigError(fmt::format("--distances: cannot read '{}': {}", path, std::strerror(errno)));
  if (rows.size() < 2) throw ConfigError(fmt::format("--distances: '{}' has {} row(s); a tree needs 2 nodes", path, rows.size()));
  for (std::size_t u = 0; u < rows.size(); ++u)
    if (rows[u].size() != rows.size())
      throw ConfigError(fmt::format("--distances: '{}': row {} has {} entries, the matrix {} rows: it must be square",
                                    path, u + 1, rows[u].size(), rows.size()));
  return adaptive::DistanceMatrix(rows);
}

}  // namespace meshsync
