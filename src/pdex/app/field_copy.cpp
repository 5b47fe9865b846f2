#include "pdex/app/field_copy.hpp"

#include <utility>

#include "pdex/core/buffer.hpp"

namespace pdex {

FieldCopy copy_field(Stepper& s, int f, std::vector<std::byte> spare) {
  FieldCopy c{s.field_names()[std::size_t(f)], s.memory(f), std::move(spare), {}};
  if (!c.layout.data) {
    c.values = s.values(f);
    return c;
  }
  const FieldMemory& m = c.layout;
  const std::size_t bytes = (std::size_t(m.ny - 1) * std::size_t(m.pitch) + std::size_t(m.nx)) * std::size_t(m.value_bytes);
  c.rows.resize(bytes);
  detail::copy_bytes(c.rows.data(), MemorySpace::host, m.data, m.device ? MemorySpace::device : MemorySpace::host, bytes);
  return c;
}

}  // namespace pdex
