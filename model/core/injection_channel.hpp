// The network interface's injection channel into a router's Local input, shared by the
// C++ core and the RTL co-simulation so that both serve the NI's flits in one order.
#pragma once

#include <cstdint>
#include <iterator>
#include <vector>

#include "flit.hpp"

namespace meshsync {

class InjectionChannel {
 public:
  // Flits leave in the order of the cycle they are due, each source in its own order: a
  // message still in its start-up must not hold up a packet that is due earlier. Flits
  // of one worm share their cycle, so a worm is never split.
  void push(const Flit& f, std::uint64_t cycle) {
    syncs_ += f.sync;
    auto pos = queue_.end();
    const auto first = queue_.begin() + static_cast<std::ptrdiff_t>(head_);
    while (pos != first && std::prev(pos)->cycle > cycle) --pos;
    queue_.insert(pos, {f, cycle});
  }
  bool empty() const { return head_ == queue_.size(); }
  std::size_t size() const { return queue_.size() - head_; }
  const Flit& front() const { return queue_[head_].flit; }
  // The cycle the front flit may enter the Local input buffer.
  std::uint64_t front_cycle() const { return queue_[head_].cycle; }
  void pop() {
    syncs_ -= queue_[head_].flit.sync;
    if (++head_ == queue_.size()) {
      queue_.clear();
      head_ = 0;
    } else if (head_ >= 64 && 2 * head_ >= queue_.size()) {
      // Served entries are dropped in blocks, so a long source queue costs O(1) per pop.
      queue_.erase(queue_.begin(), queue_.begin() + static_cast<std::ptrdiff_t>(head_));
      head_ = 0;
    }
  }
  bool holds_sync() const { return syncs_ > 0; }

 private:
  struct Entry {
    Flit flit;
    std::uint64_t cycle;
  };
  // A vector, not a deque: an empty std::deque already holds a 512-byte block, and a
  // 1024x1024 mesh has a million of these channels, most of them empty for good.
  std::vector<Entry> queue_;  // entries before head_ have left
  std::size_t head_ = 0;
  std::size_t syncs_ = 0;  // sync messages among them
};

}  // namespace meshsync
