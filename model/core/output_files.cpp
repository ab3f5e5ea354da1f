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

// What the signal handlers may touch: fixed storage, no allocation. The temporaries of
// every output begun and not yet renamed are listed here too, so that a run ended by a
// signal removes them: a traced run interrupted again and again would otherwise pile up
// files of hundreds of megabytes that nothing names.
constexpr std::size_t kHandled = 32, kPathMax = 4096;
char g_temporary[kHandled][kPathMax];
char g_bus_message[kPathMax + 160];
volatile std::sig_atomic_t g_count = 0;

void write_stderr(const char* text) {
  ssize_t ignored = write(STDERR_FILENO, text, std::strlen(text));
  (void)ignored;
}

void remove_temporaries() {
  for (std::sig_atomic_t i = 0; i < g_count; ++i) unlink(g_temporary[i]);
}

// fstapi writes through memory maps, and a full file system turns such a write into
// SIGBUS rather than an error return; the handler then says so in the program's one line,
// removes the temporaries and exits 2 instead of dumping core.
void on_bus_error(int) {
  write_stderr(g_bus_message);
  remove_temporaries();
  _exit(2);
}

// SIGINT, SIGTERM, SIGHUP: the run's outputs would be cut short, so they are removed; one
// line names the signal; then the process ends by that signal, so that the shell sees
// 128 + N and a script's loop stops as it would for any interrupted program.
void on_interruption(int sig) {
  write_stderr("meshsync: interrupted by ");
  write_stderr(signal_name(sig));
  write_stderr(g_count > 0 ? ": the unfinished output files were removed\n" : "\n");
  remove_temporaries();
  std::signal(sig, SIG_DFL);
  raise(sig);
}

void remember_for_signals(const Output& o) {
  if (g_count == 0) {
    std::snprintf(g_bus_message, sizeof g_bus_message,
                  "meshsync: error: cannot write '%.4000s': a memory-mapped write failed (bus error: the file "
                  "system is full, or the file-size limit, ulimit -f, was reached)\n",
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
  remember_for_signals(o);
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

const char* signal_name(int sig) {
  switch (sig) {
    case SIGINT: return "SIGINT";
    case SIGTERM: return "SIGTERM";
    case SIGHUP: return "SIGHUP";
    default: return "a signal";
  }
}

void handle_signals() {
  struct sigaction sa {};
  sa.sa_handler = on_interruption;
  sigemptyset(&sa.sa_mask);
  for (const int sig : {SIGINT, SIGTERM, SIGHUP}) {
    // A signal the caller ignores (nohup, a sweep's background point) stays ignored.
    struct sigaction old {};
    if (sigaction(sig, nullptr, &old) == 0 && old.sa_handler == SIG_IGN) continue;
    sigaction(sig, &sa, nullptr);
  }
  // Past a file-size limit (ulimit -f, set by batch schedulers) the kernel sends SIGXFSZ,
  // which would end the process without a word and leave the temporaries; ignored, the
  // write fails with EFBIG instead and is reported as any failed write.
  std::signal(SIGXFSZ, SIG_IGN);
}

}  // namespace meshsync::output_files
