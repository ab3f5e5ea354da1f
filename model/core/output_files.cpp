#include "output_files.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <utility>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <vector>

#include "errors.hpp"

namespace meshsync::output_files {

namespace {

struct Output {
  std::string path, temporary, failure;
  std::function<void()> close;  // finishes the file if its writer has not
};

std::vector<Output>& outputs() {
  static std::vector<Output> list;
  return list;
}

// What the bus-error handler may touch: fixed storage, no allocation. fstapi writes
// through memory maps, and a full file system turns such a write into SIGBUS rather than
// an error return; the handler then says so in the program's one line, removes the
// temporaries and exits 2 instead of dumping core.
constexpr std::size_t kHandled = 32, kPathMax = 4096;
char g_temporary[kHandled][kPathMax];
char g_message[kPathMax + 160];
volatile std::sig_atomic_t g_count = 0;

void on_bus_error(int) {
  const std::size_t length = std::strlen(g_message);
  ssize_t ignored = write(STDERR_FILENO, g_message, length);
  (void)ignored;
  for (std::sig_atomic_t i = 0; i < g_count; ++i) unlink(g_temporary[i]);
  _exit(2);
}

void remember_for_bus_error(const Output& o) {
  if (g_count == 0) {
    std::snprintf(g_message, sizeof g_message,
                  "meshsync: error: cannot write '%.4000s': a memory-mapped write failed (bus error; is the file "
                  "system full?)\n",
                  o.path.c_str());
    std::signal(SIGBUS, on_bus_error);
  }
  // The temporary, and the hierarchy file fstapi keeps beside an FST until it closes it.
  for (const std::string& path : {o.temporary, o.temporary + ".hier"}) {
    if (static_cast<std::size_t>(g_count) >= kHandled || path.size() >= kPathMax) return;
    std::memcpy(g_temporary[g_count], path.c_str(), path.size() + 1);
    g_count = g_count + 1;
  }
}

void forget_all() {
  g_count = 0;
  std::signal(SIGBUS, SIG_DFL);
  outputs().clear();
}

[[noreturn]] void refuse(const std::string& path, const std::string& reason) {
  throw ConfigError("cannot write '" + path + "': " + reason);
}

}  // namespace

std::string begin(const std::string& path, std::function<void()> close) {
  for (const Output& o : outputs())
    if (o.path == path) refuse(path, "the run writes it twice (two outputs with one name?)");
  // A device, pipe or directory would be replaced by the rename (and fstapi renames its
  // own repacked file over the name): refused, whatever is there is left alone.
  struct stat st {};
  if (stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode))
    refuse(path, "it is not a regular file (outputs are written beside it and renamed over it)");
  Output o{path, path + ".partial-" + std::to_string(getpid()), "", std::move(close)};
  std::FILE* f = std::fopen(o.temporary.c_str(), "wb");
  if (f == nullptr) refuse(path, std::strerror(errno));
  std::fclose(f);
  remember_for_bus_error(o);
  outputs().push_back(std::move(o));
  return outputs().back().temporary;
}

void failed(const std::string& path, const std::string& reason) {
  for (Output& o : outputs())
    if (o.path == path && o.failure.empty()) o.failure = reason;
}

void close_checked(std::ofstream& out, const std::string& path) {
  out.close();
  if (!out) failed(path, errno != 0 ? std::strerror(errno) : "a write failed");
}

void closed(const std::string& path) {
  for (Output& o : outputs())
    if (o.path == path) o.close = nullptr;
}

std::string commit_all() {
  if (outputs().empty()) return {};
  // A writer's close may record a failure; it runs once.
  for (Output& o : outputs())
    if (o.close) std::exchange(o.close, nullptr)();
  const auto bad = std::find_if(outputs().begin(), outputs().end(), [](const Output& o) { return !o.failure.empty(); });
  if (bad != outputs().end()) {
    const std::string message = "cannot write '" + bad->path + "': " + bad->failure;
    abandon_all();
    return message;
  }
  for (Output& o : outputs()) {
    if (std::rename(o.temporary.c_str(), o.path.c_str()) != 0) {
      const std::string message = "cannot write '" + o.path + "': " + std::strerror(errno);
      abandon_all();
      return message;
    }
    o.temporary.clear();
  }
  forget_all();
  return "";
}

void abandon_all() {
  for (const Output& o : outputs())
    if (!o.temporary.empty()) std::remove(o.temporary.c_str());
  forget_all();
}

}  // namespace meshsync::output_files
