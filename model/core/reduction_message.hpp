// A reduction message on the wires (docs/reduction-hardware.md, "Message format"): a sync
// worm on the sync VC of its R bit. Flit 0 is the sync head with tail = 0, flit 1 the
// descriptor, then every 32-bit word of the vector as two flits, its low half and then
// its high half in bits 15:0, low word first. Halves, because a body flit has 30 payload
// bits and a router that computes on the words must find each in one place. A barrier's
// messages are heads alone and do not change.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "flit.hpp"
#include "reduction_element.hpp"

namespace meshsync {

// What a reduction message says about its vector, and what a barrier register latches
// from the first one of an epoch and compares every later one with: the members' calls
// must agree.
struct ReductionDescriptor {
  ReduceOp op = ReduceOp::Sum;
  ElementType type = ElementType::Int32;
  bool all = false;         // allreduce: the result also goes down the distribution
  std::uint16_t count = 0;  // elements

  std::uint32_t words() const { return count * static_cast<std::uint32_t>(words_per_element(type)); }
  // L = 2 + 2W: head, descriptor, two halves per word.
  std::uint32_t flits() const { return 2 + 2 * words(); }
  // The descriptor flit's payload: op in bits 2:0, type in 4:3, all in 5, count in 21:6.
  std::uint32_t pack() const;
  // The descriptor a payload carries, or nullopt when it names no operation or type, an
  // operation the type does not have, or sets bits above the count.
  static std::optional<ReductionDescriptor> unpack(std::uint32_t payload);
  bool operator==(const ReductionDescriptor& o) const {
    return op == o.op && type == o.type && all == o.all && count == o.count;
  }
  bool operator!=(const ReductionDescriptor& o) const { return !(*this == o); }
  std::string describe() const;  // "allreduce sum int32 x3"
};

// Flit `pos` (1 .. flits() - 1) of the reduction message headed by `head`: the descriptor
// or a half of words[(pos - 2) / 2]; the last is the tail.
Flit reduction_flit(const Flit& head, const ReductionDescriptor& d, const std::uint32_t* words, std::uint32_t pos);
// The whole message (the head's tail bit cleared).
std::vector<Flit> make_reduction_message(Flit head, const ReductionDescriptor& d, const std::vector<std::uint32_t>& words);
// Stores the half-word that flit `pos` (>= 2) carries in `payload` into `words`.
void store_half(std::uint32_t* words, std::uint32_t pos, std::uint32_t payload);

}  // namespace meshsync
