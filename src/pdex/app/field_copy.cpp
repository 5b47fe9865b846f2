#include "pdex/app/field_copy.hpp"

#include <algorithm>
#include <cstring>
#include <span>
#include <utility>

#include "pdex/core/buffer.hpp"
#include "pdex/core/strided_copy.hpp"

namespace pdex {

namespace {

// A block's rows: every plane's, one after another.
std::size_t block_rows(const FieldMemory& m) { return std::size_t(m.ny) * std::size_t(m.nz); }
std::size_t block_values(const FieldMemory& m) { return (block_rows(m) - 1) * std::size_t(m.pitch) + std::size_t(m.nx); }

template <class T>
std::span<const T> rows_as(const HostBlock& b, std::size_t count) {
  return {reinterpret_cast<const T*>(b.data()), count};
}

}  // namespace

io::NamedValues FieldCopy::view() const {
  if (rows.empty()) return {name, std::span<const double>(values), 0};
  const std::size_t n = block_values(layout), stride = std::size_t(layout.pitch);
  if (layout.value_bytes == 4) return {name, rows_as<float>(rows, n), stride};
  return {name, rows_as<double>(rows, n), stride};
}

const std::vector<double>& FieldCopy::row_major() {
  if (rows.empty() || !values.empty()) return values;
  const io::NamedValues v = view();
  const std::size_t nx = std::size_t(layout.nx), stride = std::size_t(layout.pitch);
  values.resize(nx * block_rows(layout));
  std::visit([&](auto span) {
    for (std::size_t y = 0; y < block_rows(layout); ++y) std::copy_n(span.data() + y * stride, nx, values.data() + y * nx);
  }, v.values);
  return values;
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

// A 3D field's planes lie apart (ghost rows and planes between them): the copy puts each right after the
// last, so that the block's rows keep one stride.
FieldCopy copy_field(Stepper& s, int f, CopyBuffers& buffers) {
  FieldCopy c{s.field_names()[std::size_t(f)], s.memory(f), {}, {}};
  const FieldMemory& m = c.layout;
  if (!m.data) {
    c.values = s.values(f);
    return c;
  }
  const std::size_t value = std::size_t(m.value_bytes), row = std::size_t(m.pitch) * value;
  c.rows = buffers.take(block_values(m) * value, m.device);
  detail::copy_box(c.rows.data(), row, std::size_t(m.ny) * row, MemorySpace::host, m.data, row, std::size_t(m.plane) * value,
                   m.device ? MemorySpace::device : MemorySpace::host,
                   {std::size_t(m.nx) * value, std::size_t(m.ny), std::size_t(m.nz)});
  return c;
}

}  // namespace pdex
