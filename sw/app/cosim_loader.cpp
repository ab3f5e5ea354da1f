#include "cosim_loader.hpp"

#include "../../model/core/errors.hpp"

#ifdef MESHSYNC_COSIM_MODULE
#include <dlfcn.h>
#include <fcntl.h>
#include <spawn.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <string>

#include <fmt/format.h>

extern char** environ;
#endif

namespace meshsync {

#ifdef MESHSYNC_COSIM_MODULE
namespace {

// Where CMake puts the module, the build tree that makes it, and the cmake that
// configured that tree (sw/CMakeLists.txt).
constexpr const char* kModule = MESHSYNC_COSIM_MODULE;
constexpr const char* kBuildDir = MESHSYNC_BUILD_DIR;
constexpr const char* kCmake = MESHSYNC_CMAKE;
constexpr const char* kTarget = "meshsync_cosim_module";

// Modification time in nanoseconds; -1 when the file is missing.
long long modified(const char* path) {
  struct stat s {};
  if (stat(path, &s) != 0) return -1;
  return static_cast<long long>(s.st_mtim.tv_sec) * 1'000'000'000LL + s.st_mtim.tv_nsec;
}

// The module resolves the model's symbols in this program, which it is linked after
// (LINK_DEPENDS): one older than the program may have been built from other sources.
bool module_current() {
  const long long m = modified(kModule);
  return m >= 0 && m >= modified("/proc/self/exe");
}

// Runs `cmake --build` for the module, its output into `log`; its exit status.
int run_build(const std::string& log) {
  posix_spawn_file_actions_t files;
  posix_spawn_file_actions_init(&files);
  posix_spawn_file_actions_addopen(&files, STDOUT_FILENO, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&files, STDOUT_FILENO, STDERR_FILENO);
  posix_spawn_file_actions_addopen(&files, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  const char* argv[] = {kCmake, "--build", kBuildDir, "--target", kTarget, nullptr};
  pid_t pid = 0;
  int status = -1;
  if (posix_spawn(&pid, kCmake, &files, nullptr, const_cast<char* const*>(argv), environ) == 0)
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
  posix_spawn_file_actions_destroy(&files);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// The build tree's lock for the module's build, held while it lives.
struct BuildLock {
  int fd;
  explicit BuildLock(const std::string& path) : fd(open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644)) {
    if (fd >= 0) flock(fd, LOCK_EX);
  }
  ~BuildLock() {
    if (fd >= 0) close(fd);
  }
  BuildLock(const BuildLock&) = delete;
  BuildLock& operator=(const BuildLock&) = delete;
};

// Builds the module unless it is current. Runs started together (ctest --parallel) wait
// for one build instead of starting several in one tree.
void build_module() {
  if (module_current()) return;
  const std::string dir = kBuildDir;
  const BuildLock lock(dir + "/meshsync_cosim.lock");
  if (!module_current()) {
    const std::string log = dir + "/meshsync_cosim_build.log";
    std::fprintf(stderr,
                 "meshsync: building RTL co-simulation for its first use (the Verilated routers; minutes): "
                 "%s --build %s --target %s, log in %s\n",
                 kCmake, kBuildDir, kTarget, log.c_str());
    const int status = run_build(log);
    if (status != 0 || !module_current())
      throw ConfigError(fmt::format("building RTL co-simulation failed (cmake exit {}): see {}", status, log));
  }
}

}  // namespace

rtl::AttachRtl load_cosim() {
  // Loaded once, and never closed: the runs' RTL routers live until the program ends.
  static rtl::AttachRtl attach = nullptr;
  if (attach) return attach;
  build_module();
  // RTLD_NOW: a symbol the program does not have is an error here, not in mid-run.
  void* module = dlopen(kModule, RTLD_NOW | RTLD_LOCAL);
  if (!module) throw ConfigError(fmt::format("cannot load RTL co-simulation: {}", dlerror()));
  attach = reinterpret_cast<rtl::AttachRtl>(dlsym(module, rtl::kAttachRtlSymbol));
  if (!attach) throw ConfigError(fmt::format("cannot load RTL co-simulation: {}", dlerror()));
  return attach;
}
#else
rtl::AttachRtl load_cosim() {
  throw ConfigError("this meshsync was built without RTL co-simulation (Verilator not found or -DMESHSYNC_COSIM=OFF)");
}
#endif

}  // namespace meshsync
