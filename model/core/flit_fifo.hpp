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
  T& at(std::size_t i) { return slots_[wrap(head_ + i)]; }
  const T& at(std::size_t i) const { return slots_[wrap(head_ + i)]; }
  // Wrapping by comparison, not %: the capacity is rarely a power of two, and a
  // division per flit per hop shows up in the simulator's profile.
  void push(const T& v) {
    slots_[wrap(head_ + count_)] = v;
    ++count_;
  }
  void pop() {
    if (++head_ == slots_.size()) head_ = 0;
    --count_;
  }

 private:
  std::size_t wrap(std::size_t i) const { return i >= slots_.size() ? i - slots_.size() : i; }
  std::vector<T> slots_;
  std::size_t head_ = 0;
  std::size_t count_ = 0;
};

}  // namespace meshsync
