#include "input_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include <fmt/format.h>

#include "../../model/core/errors.hpp"

namespace meshsync {

namespace {

std::string file_kind(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO (named pipe)";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

std::string too_large_input(std::uint64_t bytes, std::uint64_t max_bytes) {
  if (bytes <= max_bytes) return {};
  return fmt::format("it is {:.1f} MiB, more than the {:.0f} MiB an input of this kind may be",
                     static_cast<double>(bytes) / (1 << 20), static_cast<double>(max_bytes) / (1 << 20));
}

std::string input_size_problem(const struct stat& st, std::uint64_t max_bytes) {
  if (!S_ISREG(st.st_mode)) return fmt::format("it is {}; a regular file is read", file_kind(st.st_mode));
  return too_large_input(static_cast<std::uint64_t>(st.st_size), max_bytes);
}

}  // namespace

std::string input_file_problem(const std::string& path, std::uint64_t max_bytes) {
  struct stat st {};
  if (stat(path.c_str(), &st) != 0) return std::strerror(errno);
  if (std::string why = input_size_problem(st, max_bytes); !why.empty()) return why;
  if (access(path.c_str(), R_OK) != 0) return std::strerror(errno);
  return {};
}

std::string read_input_file(const std::string& path, const std::string& what, std::uint64_t max_bytes) {
  const auto refuse = [&](const std::string& why) { return ConfigError(fmt::format("{} '{}': {}", what, path, why)); };
  // O_NONBLOCK: a FIFO put in the file's place after a check still opens at once, and
  // fstat of what was opened refuses it.
  const int fd = open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) throw refuse(std::strerror(errno));
  struct stat st {};
  std::string why = fstat(fd, &st) != 0 ? std::strerror(errno) : input_size_problem(st, max_bytes);
  std::string text;
  if (why.empty()) {
    // Read until the end or past the bound: a file that grew since fstat is still bounded.
    char chunk[65536];
    while (text.size() <= max_bytes) {
      const ssize_t n = read(fd, chunk, sizeof chunk);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) why = std::strerror(errno);
      if (n <= 0) break;
      text.append(chunk, static_cast<std::size_t>(n));
    }
    if (why.empty()) why = too_large_input(text.size(), max_bytes);
  }
  close(fd);
  if (!why.empty()) throw refuse(why);
  return text;
}

}  // namespace meshsync
