#include "pdex/app/field_copy.hpp"

#include <algorithm>
#include <cstring>
#include <span>
#include <utility>

#include "pdex/core/buffer.hpp"
#include "pdex/core/strided_copy.hpp"

namespace pdex {

namespace {

// The values from a block's first to its last, the gaps between planes included.
std::size_t block_values(const FieldMemory& m) {
  return std::size_t(m.nz - 1) * std::size_t(m.plane) + std::size_t(m.ny - 1) * std::size_t(m.pitch) + std::size_t(m.nx);
}

// The bytes of a field's rows with its planes one after another, as copy_field lays them out.
std::size_t copied_bytes(FieldMemory m) {
  m.plane = int64_t(m.ny) * m.pitch;
  return block_values(m) * std::size_t(m.value_bytes);
}

template <class T>
std::span<const T> rows_as(const void* data, std::size_t count) {
  return {static_cast<const T*>(data), count};
}

}  // namespace

io::NamedValues FieldCopy::view() const {
  if (!layout.data) return {name, std::span<const double>(values)};
  const std::size_t n = block_values(layout), stride = std::size_t(layout.pitch), plane = std::size_t(layout.plane);
  if (layout.value_bytes == 4) return {name, rows_as<float>(layout.data, n), stride, plane};
  return {name, rows_as<double>(layout.data, n), stride, plane};
}

HostBlock CopyBuffers::take(std::size_t bytes, bool pinned) {
  {
    std::lock_guard lock(m_);
    const auto fits = std::find_if(kept_.begin(), kept_.end(), [&](const HostBlock& b) { return b.size() >= bytes; });
    if (fits != kept_.end()) {
      HostBlock b = std::move(*fits);
      kept_.erase(fits);
      return b;
    }
  }
  return HostBlock(bytes, pinned);
}

void CopyBuffers::give(HostBlock block) {
  if (block.empty()) return;
  std::lock_guard lock(m_);
  kept_.push_back(std::move(block));
}

std::size_t CopyBuffers::kept_bytes() {
  std::lock_guard lock(m_);
  std::size_t bytes = 0;
  for (const HostBlock& b : kept_) bytes += b.size();
  return bytes;
}

// A 3D field's planes lie apart (ghost rows and planes between them): the copy puts each right after the
// last, so that the block's rows keep one stride.
FieldCopy copy_field(Stepper& s, int f, CopyBuffers& buffers) {
  FieldCopy c{s.field_names()[std::size_t(f)], s.rows(f), {}, {}};
  const FieldMemory m = c.layout;
  if (!m.data) {
    c.values = s.values(f);
    return c;
  }
  const std::size_t value = std::size_t(m.value_bytes), row = std::size_t(m.pitch) * value;
  c.rows = buffers.take(copied_bytes(m), m.device);
  detail::copy_box(c.rows.data(), row, std::size_t(m.ny) * row, MemorySpace::host, m.data, row, std::size_t(m.plane) * value,
                   m.device ? MemorySpace::device : MemorySpace::host,
                   {std::size_t(m.nx) * value, std::size_t(m.ny), std::size_t(m.nz)});
  c.layout.data = c.rows.data();
  c.layout.plane = int64_t(m.ny) * m.pitch;
  c.layout.device = false;
  return c;
}

FieldCopy field_in_place(Stepper& s, int f, CopyBuffers& buffers) {
  const FieldMemory m = s.rows(f);
  if (!m.data || m.device) return copy_field(s, f, buffers);
  return {s.field_names()[std::size_t(f)], m, {}, {}};
}

std::size_t copy_bytes(Stepper& s, int f) {
  const FieldMemory m = s.rows(f);
  return m.data ? copied_bytes(m) : 0;
}

}  // namespace pdex
