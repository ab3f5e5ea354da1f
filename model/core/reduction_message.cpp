#include "reduction_message.hpp"

#include "flit_format.hpp"

namespace meshsync {

namespace ff = flit_format;

namespace {
constexpr ff::Field kRedOp{0, 3};
constexpr ff::Field kRedType{3, 2};
constexpr ff::Field kRedAll{5, 1};
constexpr ff::Field kRedCount{6, 16};
constexpr ff::Field kHalf{0, 16};
}  // namespace

std::uint32_t ReductionDescriptor::pack() const {
  return kRedOp.put(static_cast<std::uint32_t>(op)) | kRedType.put(static_cast<std::uint32_t>(type)) |
         kRedAll.put(all ? 1 : 0) | kRedCount.put(count);
}

std::optional<ReductionDescriptor> ReductionDescriptor::unpack(std::uint32_t payload) {
  const std::uint32_t op = kRedOp.get(payload), type = kRedType.get(payload);
  if (op > static_cast<std::uint32_t>(ReduceOp::Xor) || type > static_cast<std::uint32_t>(ElementType::Float32) ||
      (payload & ff::kPayload.mask()) >> (kRedCount.lsb + kRedCount.width) != 0)
    return std::nullopt;
  ReductionDescriptor d{static_cast<ReduceOp>(op), static_cast<ElementType>(type), kRedAll.get(payload) != 0,
                        static_cast<std::uint16_t>(kRedCount.get(payload))};
  if (d.type == ElementType::Float32 && d.op != ReduceOp::Sum && d.op != ReduceOp::Min && d.op != ReduceOp::Max)
    return std::nullopt;
  return d;
}

std::string ReductionDescriptor::describe() const {
  return std::string(all ? "allreduce " : "reduce ") + reduce_op_name(op) + " " + element_type_name(type) + " x" +
         std::to_string(count);
}

Flit reduction_flit(const Flit& head, const ReductionDescriptor& d, const std::uint32_t* words, std::uint32_t pos) {
  Flit f = head;
  f.head = false;
  f.tail = pos + 1 == d.flits();
  f.seq = static_cast<std::uint16_t>(pos);
  f.length = static_cast<std::uint16_t>(d.flits());
  if (pos == 1) {
    f.payload = d.pack();
  } else {
    const std::uint32_t w = words[(pos - 2) / 2];
    f.payload = kHalf.get((pos - 2) % 2 == 0 ? w : w >> 16);
  }
  return f;
}

std::vector<Flit> make_reduction_message(Flit head, const ReductionDescriptor& d, const std::vector<std::uint32_t>& words) {
  head.head = true;
  head.tail = false;
  head.seq = 0;
  head.length = static_cast<std::uint16_t>(d.flits());
  std::vector<Flit> m{head};
  for (std::uint32_t pos = 1; pos < d.flits(); ++pos) m.push_back(reduction_flit(head, d, words.data(), pos));
  return m;
}

void store_half(std::uint32_t* words, std::uint32_t pos, std::uint32_t payload) {
  std::uint32_t& w = words[(pos - 2) / 2];
  const std::uint32_t half = kHalf.get(payload);
  w = (pos - 2) % 2 == 0 ? (w & 0xffff0000u) | half : (w & 0xffffu) | half << 16;
}

}  // namespace meshsync
