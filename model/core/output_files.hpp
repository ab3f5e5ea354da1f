// The files a run writes (waveforms, their GTKWave companions, a sweep's tables) take
// their names only once the run has succeeded and every write to them was checked. Each
// is written under a temporary name beside its own (NAME.partial-PID) and renamed at the
// end, so a reader never finds a cut or half-written file under the name, and a refused
// run leaves nothing behind. A write that fails (a full disk, an I/O error) is recorded
// by its writer and reported once, naming the file and the reason (docs/reliability.md).
//
// The list is the process's: outputs belong to the run, not to any one object that writes
// them, and a writer deep in the model (a waveform) reports to the program's end.
#pragma once

#include <fstream>
#include <functional>
#include <string>

namespace meshsync::output_files {

// Reserves `path`: creates its temporary file (so that an unwritable place is refused
// before anything runs) and returns the temporary's name, which the writer writes.
// Throws ConfigError naming `path` and the reason. `close`, if given, finishes the file
// at commit_all() when its writer has not (a writer kept until the process exits, as
// the co-simulated routers are); a writer that closes the file itself calls closed().
std::string begin(const std::string& path, std::function<void()> close = {});

// Closes a stream writing `path`'s temporary and records a failed write or close.
void close_checked(std::ofstream& out, const std::string& path);

// The writer of `path` has closed it: commit_all() has nothing left to finish.
void closed(const std::string& path);

// The first failure of a write to `path` (a name given to begin()); later ones add nothing.
void failed(const std::string& path, const std::string& reason);

// Checks every file begun and renames each to its name. Returns "" or, for the first
// that failed, the one line to report ("cannot write 'NAME': REASON"); then the
// temporaries not yet renamed are removed. (Returned, not thrown: it runs after the
// simulation, where an exception trips AddressSanitizer's bookkeeping of libsystemc's
// coroutine stacks.)
[[nodiscard]] std::string commit_all();

// Removes every temporary (a run that failed: its outputs would mislead).
void abandon_all();

// Installs the program's signal handling: SIGINT, SIGTERM and SIGHUP remove the
// temporaries, print one line naming the signal and end the process by it (exit status
// 128 + N); SIGXFSZ is ignored, so that a file-size limit fails a write (EFBIG) like a
// full disk instead of killing the process. Called once, as the program starts.
void handle_signals();

// "SIGINT", "SIGTERM", "SIGHUP" (async-signal-safe: a string literal).
const char* signal_name(int sig);

}  // namespace meshsync::output_files
