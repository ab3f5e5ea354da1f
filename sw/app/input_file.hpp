// The files the program reads (a config file, a sweep spec, a distance matrix): each
// must be a regular file of bounded size. A FIFO or a terminal would block the run for
// ever before its first line, a device such as /dev/zero would be read without end, and
// a file far larger than any real input would exhaust memory in the parser before its
// first bad key could be refused (docs/reliability.md, "Hostile input").
#pragma once

#include <cstdint>
#include <string>

namespace meshsync {

// What every input may be at most: far more than any real one (a config file's longest
// value is an explicit member list, some 10 bytes a member).
constexpr std::uint64_t kMaxConfigBytes = std::uint64_t{4} << 20;

// "" when `path` names a readable regular file of at most `max_bytes`; otherwise why
// not ("it is a FIFO (named pipe); ...", "No such file or directory", "it is 50.0 MiB, ...").
// Looks without opening: opening a FIFO blocks until a writer comes.
std::string input_file_problem(const std::string& path, std::uint64_t max_bytes);

// The whole text of `path`, checked as above; throws ConfigError "`what` 'PATH': WHY".
std::string read_input_file(const std::string& path, const std::string& what, std::uint64_t max_bytes);

}  // namespace meshsync
