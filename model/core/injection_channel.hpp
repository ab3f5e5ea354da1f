// The network interface's injection channel into a router's Local input, shared by the
// C++ core and the RTL co-simulation so that both serve the NI's flits in one order.
#pragma once

#include <cstdint>
#include <deque>
#include <iterator>

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
    while (pos != queue_.begin() && std::prev(pos)->cycle > cycle) --pos;
    queue_.insert(pos, {f, cycle});
  }
  bool empty() const { return queue_.empty(); }
  std::size_t size() const { return queue_.size(); }
  const Flit& front() const { return queue_.front().flit; }
  // The cycle the front flit may enter the Local input buffer.
  std::uint64_t front_cycle() const { return queue_.front().cycle; }
  void pop() {
    syncs_ -= queue_.front().flit.sync;
    queue_.pop_front();
  }
  bool holds_sync() const { return syncs_ > 0; }

 private:
  struct Entry {
    Flit flit;
    std::uint64_t cycle;
  };
  std::deque<Entry> queue_;
  std::size_t syncs_ = 0;  // sync messages among them
};

}  // namespace meshsync
