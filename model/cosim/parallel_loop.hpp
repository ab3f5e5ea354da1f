// A fixed pool of threads that runs one loop body over the indices 0..n-1 and returns when
// every index is done: the co-simulation evaluates the cycle's busy RTL routers with it
// (`--threads N`, docs/cosim.md). Each Verilated router is a model of its own, and
// Verilator's runtime lets different models run on different threads at once.
//
// Between loops the workers spin for a while before they sleep: a busy simulation starts
// a loop twice per cycle, a few microseconds apart, and waking a sleeping thread costs
// more than the routers of a cycle take to evaluate.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace meshsync::rtl {

class ParallelLoop {
 public:
  // `threads` in all, the caller's included (1: the caller alone, no pool).
  explicit ParallelLoop(int threads);
  ~ParallelLoop();
  ParallelLoop(const ParallelLoop&) = delete;
  ParallelLoop& operator=(const ParallelLoop&) = delete;

  int threads() const { return static_cast<int>(workers_.size()) + 1; }

  // body(i) for every i < n, each once, on any thread; the first exception a body throws
  // is rethrown here after the loop. The body is called through a plain pointer, not a
  // std::function: the simulation runs two loops a cycle, and wrapping a capturing lambda
  // would allocate each time.
  template <class F>
  void run(std::size_t n, F& body) {
    run(n, &body, [](void* b, std::size_t i) { (*static_cast<F*>(b))(i); });
  }

 private:
  using Call = void (*)(void*, std::size_t);
  void run(std::size_t n, void* body, Call call);
  void work();
  void drain();

  std::vector<std::thread> workers_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::atomic<std::uint64_t> generation_{0};
  std::atomic<std::size_t> next_{0};
  std::atomic<int> finished_{0};
  std::atomic<bool> stop_{false};
  std::size_t n_ = 0;
  void* body_ = nullptr;
  Call call_ = nullptr;
  std::mutex error_mutex_;
  std::exception_ptr error_;
};

}  // namespace meshsync::rtl
