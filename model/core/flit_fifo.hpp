// A fixed-capacity ring buffer: the input buffer of one virtual channel.
#pragma once

#include <cstddef>
#include <vector>

namespace meshsync {

template <typename T>
class FlitFifo {
 public:
  void set_capacity(std::size_t n) { slots_.assign(n, T{}); head_ = count_ = 0; }
  std::size_t capacity() const { return slots_.size(); }
  std::size_t size() const { return count_; }
  bool empty() const { return count_ == 0; }
  bool full() const { return count_ == slots_.size(); }
  T& front() { return slots_[head_]; }
  const T& front() const { return slots_[head_]; }
  const T& at(std::size_t i) const { return slots_[(head_ + i) % slots_.size()]; }
  void push(const T& v) {
    slots_[(head_ + count_) % slots_.size()] = v;
    ++count_;
  }
  void pop() {
    head_ = (head_ + 1) % slots_.size();
    --count_;
  }

 private:
  std::vector<T> slots_;
  std::size_t head_ = 0;
  std::size_t count_ = 0;
};

}  // namespace meshsync
