#include "parallel_loop.hpp"

#include <chrono>

namespace meshsync::rtl {

namespace {

// How long an idle worker spins before it sleeps: longer than the gap between the two
// loops of a cycle and between busy cycles, far shorter than a run.
constexpr auto kSpin = std::chrono::microseconds(500);

inline void relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

}  // namespace

ParallelLoop::ParallelLoop(int threads) {
  for (int t = 1; t < threads; ++t) workers_.emplace_back([this] { work(); });
}

ParallelLoop::~ParallelLoop() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_.store(true);
  }
  wake_.notify_all();
  for (std::thread& t : workers_) t.join();
}

void ParallelLoop::run(std::size_t n, void* body, Call call) {
  if (workers_.empty() || n < 2) {
    for (std::size_t i = 0; i < n; ++i) call(body, i);
    return;
  }
  // The workers read n_ and body_ only after they see the new generation (acquire), and
  // every worker finished the last loop before this one starts.
  n_ = n;
  body_ = body;
  call_ = call;
  next_.store(0, std::memory_order_relaxed);
  finished_.store(0, std::memory_order_relaxed);
  {
    std::lock_guard<std::mutex> lock(mutex_);
    generation_.fetch_add(1, std::memory_order_release);
  }
  wake_.notify_all();
  drain();
  // A worker may be descheduled (a loaded host): after a short spin, give it the core.
  const int workers = static_cast<int>(workers_.size());
  for (int spins = 0; finished_.load(std::memory_order_acquire) != workers; ++spins) {
    if (spins < 4096) relax();
    else std::this_thread::yield();
  }
  body_ = nullptr;
  if (error_) {
    std::exception_ptr e = error_;
    error_ = nullptr;
    std::rethrow_exception(e);
  }
}

void ParallelLoop::drain() {
  for (std::size_t i = next_.fetch_add(1, std::memory_order_relaxed); i < n_;
       i = next_.fetch_add(1, std::memory_order_relaxed)) {
    try {
      call_(body_, i);
    } catch (...) {
      std::lock_guard<std::mutex> lock(error_mutex_);
      if (!error_) error_ = std::current_exception();
    }
  }
}

void ParallelLoop::work() {
  std::uint64_t seen = 0;
  for (;;) {
    const auto until = std::chrono::steady_clock::now() + kSpin;
    int spins = 0;
    while (generation_.load(std::memory_order_acquire) == seen && !stop_.load(std::memory_order_relaxed)) {
      // Past a short spin, yield: the thread the loop waits for may need this core.
      if (spins < 4096) relax();
      else std::this_thread::yield();
      // The clock is read now and then only: it costs more than a pause.
      if (++spins % 256 == 0 && std::chrono::steady_clock::now() > until) {
        std::unique_lock<std::mutex> lock(mutex_);
        wake_.wait(lock, [&] { return generation_.load(std::memory_order_acquire) != seen || stop_.load(); });
        break;
      }
    }
    if (stop_.load()) return;
    seen = generation_.load(std::memory_order_acquire);
    drain();
    finished_.fetch_add(1, std::memory_order_release);
  }
}

}  // namespace meshsync::rtl
