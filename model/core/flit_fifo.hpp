// A fixed-capacity ring buffer: the input buffer of one virtual channel.
#pragma once

#include <cstddef>
#include <vector>

namespace meshsync {

template <typename T>
class FlitFifo {
 public:
  // The capacity is the hardware's; storage is taken only as flits arrive and grows by
  // doubling up to it. A 1024x1024 mesh has 15 million of these buffers, and a barrier
  // puts a flit into a few per router: reserving every buffer's full depth up front
  // would cost gigabytes for slots that are never written.
  void set_capacity(std::size_t n) {
    slots_.clear();
    slots_.shrink_to_fit();
    capacity_ = n;
    head_ = count_ = 0;
  }
  std::size_t capacity() const { return capacity_; }
  std::size_t size() const { return count_; }
  bool empty() const { return count_ == 0; }
  bool full() const { return count_ == capacity_; }
  T& front() { return slots_[head_]; }
  const T& front() const { return slots_[head_]; }
  T& at(std::size_t i) { return slots_[wrap(head_ + i)]; }
  const T& at(std::size_t i) const { return slots_[wrap(head_ + i)]; }
  // Wrapping by comparison, not %: the capacity is rarely a power of two, and a
  // division per flit per hop shows up in the simulator's profile.
  void push(const T& v) { push_slot() = v; }
  // The new last slot, for the caller to fill in place.
  T& push_slot() {
    if (count_ == slots_.size()) grow();
    return slots_[wrap(head_ + count_++)];
  }
  void pop() {
    if (++head_ == slots_.size()) head_ = 0;
    --count_;
  }

 private:
  static constexpr std::size_t kFirstSlots = 4;
  void grow() {
    std::size_t n = slots_.empty() ? kFirstSlots : 2 * slots_.size();
    if (n > capacity_) n = capacity_;
    if (n <= slots_.size()) n = slots_.size() + 1;  // a push past the capacity: caller's bug
    std::vector<T> bigger(n);
    for (std::size_t i = 0; i < count_; ++i) bigger[i] = slots_[wrap(head_ + i)];
    slots_.swap(bigger);
    head_ = 0;
  }
  std::size_t wrap(std::size_t i) const { return i >= slots_.size() ? i - slots_.size() : i; }
  std::vector<T> slots_;
  std::size_t capacity_ = 0;
  std::size_t head_ = 0;
  std::size_t count_ = 0;
};

}  // namespace meshsync
