#include "pdex/io/npy.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "pdex/core/error.hpp"
#include "pdex/io/atomic_file.hpp"
#include "pdex/io/npy_header.hpp"

namespace pdex::io {

// Payload bytes are copied straight into host integers and floats; a big-endian host would
// need a byte swap here, and pdex targets none.
static_assert(std::endian::native == std::endian::little, "npy I/O assumes a little-endian host");

namespace {

constexpr std::array<char, 6> npy_magic{'\x93', 'N', 'U', 'M', 'P', 'Y'};
// NumPy pads the header so the payload starts on a 64-byte boundary (numpy.lib.format.ARRAY_ALIGN).
constexpr std::size_t npy_align = 64;
// Far above any header NumPy writes for a plain array; stops garbage lengths from allocating.
constexpr std::uint32_t max_header_bytes = 1u << 20;

struct FileCloser {
  void operator()(std::FILE* f) const noexcept { std::fclose(f); }
};
using FileHandle = std::unique_ptr<std::FILE, FileCloser>;

std::string errno_text(int err) { return std::strerror(err); }

std::uint32_t little_endian_u32(const unsigned char* p, std::size_t n) {
  std::uint32_t v = 0;
  for (std::size_t i = n; i-- > 0;) v = (v << 8) | p[i];
  return v;
}

// Reads exactly n bytes or reports what the file lacked; the header is small, so a short read
// there is always truncation rather than an I/O hiccup worth retrying.
void read_exact(std::FILE* f, void* dst, std::size_t n, const std::string& where, const char* what) {
  if (std::fread(dst, 1, n, f) != n) {
    throw InputError(where + ": file is truncated inside the " + what + "; expected a .npy file written by numpy.save");
  }
}

template <class T>
void convert_values(const unsigned char* src, std::size_t n, double* dst) {
  for (std::size_t i = 0; i < n; ++i) {
    T v;
    std::memcpy(&v, src + i * sizeof(T), sizeof(T));
    dst[i] = static_cast<double>(v);
  }
}

void convert_chunk(NpyDtype dtype, const unsigned char* src, std::size_t n, double* dst) {
  switch (dtype) {
    case NpyDtype::f4: convert_values<float>(src, n, dst); return;
    case NpyDtype::f8: convert_values<double>(src, n, dst); return;
    case NpyDtype::i4: convert_values<std::int32_t>(src, n, dst); return;
    case NpyDtype::i8: convert_values<std::int64_t>(src, n, dst); return;
    case NpyDtype::u1: convert_values<std::uint8_t>(src, n, dst); return;
    case NpyDtype::b1:
      // NumPy stores bools as one byte that is 0 or 1; treat any other byte as true, as NumPy does.
      for (std::size_t i = 0; i < n; ++i) dst[i] = src[i] != 0 ? 1.0 : 0.0;
      return;
  }
}

std::optional<std::size_t> checked_product(const std::vector<std::size_t>& shape) {
  std::size_t count = 1;
  for (std::size_t extent : shape) {
    if (extent != 0 && count > std::numeric_limits<std::size_t>::max() / extent) return std::nullopt;
    count *= extent;
  }
  return count;
}

}  // namespace

NpyArray read_npy(const std::filesystem::path& file) {
  const std::string where = file.string();
  errno = 0;
  FileHandle f(std::fopen(where.c_str(), "rb"));
  if (!f) throw InputError(where + ": cannot open file (" + errno_text(errno) + ")");

  std::array<unsigned char, 8> preamble{};
  const std::size_t got = std::fread(preamble.data(), 1, preamble.size(), f.get());
  if (std::ferror(f.get())) throw InputError(where + ": cannot read file (" + errno_text(errno) + ")");
  if (got != preamble.size() ||
      std::memcmp(preamble.data(), npy_magic.data(), npy_magic.size()) != 0) {
    throw InputError(where + ": not a .npy file (bad magic); expected a file written by numpy.save");
  }
  const int major = preamble[6];
  const int minor = preamble[7];
  if (!((major == 1 || major == 2 || major == 3) && minor == 0)) {
    throw InputError(where + ": unsupported .npy format version " + std::to_string(major) + "." +
                     std::to_string(minor) + "; expected 1.0, 2.0 or 3.0");
  }
  // Version 1.0 stores the header length in 2 bytes; 2.0 and 3.0 widened it to 4.
  const std::size_t length_bytes = major == 1 ? 2 : 4;
  std::array<unsigned char, 4> length_field{};
  read_exact(f.get(), length_field.data(), length_bytes, where, "header length");
  const std::uint32_t header_bytes = little_endian_u32(length_field.data(), length_bytes);
  if (header_bytes > max_header_bytes) {
    throw InputError(where + ": .npy header claims " + std::to_string(header_bytes) +
                     " bytes; the file is corrupt or not a plain array");
  }
  std::string header_text(header_bytes, '\0');
  read_exact(f.get(), header_text.data(), header_bytes, where, "header");

  const NpyHeader header = parse_npy_header(header_text, where);
  if (header.fortran_order) {
    throw InputError(where + ": fortran_order arrays are not supported; save with np.ascontiguousarray");
  }
  const std::size_t item_bytes = npy_dtype_size(header.dtype);
  const std::optional<std::size_t> count = checked_product(header.shape);
  const std::size_t payload_offset = preamble.size() + length_bytes + header_bytes;
  std::error_code ec;
  const std::uintmax_t file_bytes = std::filesystem::file_size(file, ec);
  if (ec) throw InputError(where + ": cannot determine file size (" + ec.message() + ")");
  const std::uintmax_t payload_bytes = file_bytes > payload_offset ? file_bytes - payload_offset : 0;
  const std::uintmax_t found = payload_bytes / item_bytes;
  if (!count || *count > found) {
    throw InputError(where + ": file is truncated: header says " +
                     (count ? std::to_string(*count) : std::string("more than 2^64 - 1")) + " values, found " +
                     std::to_string(found));
  }

  NpyArray out;
  out.shape = header.shape;
  out.data.resize(*count);
  // Convert in chunks so a large int64 or float32 file never needs a second full-size buffer.
  constexpr std::size_t chunk_values = 1u << 16;
  std::vector<unsigned char> raw(std::min(*count, chunk_values) * item_bytes);
  for (std::size_t done = 0; done < *count;) {
    const std::size_t n = std::min(*count - done, chunk_values);
    if (std::fread(raw.data(), item_bytes, n, f.get()) != n) {
      // The size check above passed, so the file shrank or the device failed while we read.
      const std::string why = std::ferror(f.get()) ? errno_text(errno) : std::string("file ended early");
      throw InputError(where + ": read failed after " + std::to_string(done) + " of " + std::to_string(*count) +
                       " values (" + why + ")");
    }
    convert_chunk(header.dtype, raw.data(), n, out.data.data() + done);
    done += n;
  }
  return out;
}

namespace {

std::string shape_tuple(const std::vector<std::size_t>& shape) {
  // Python's repr of a tuple: "()", "(5,)", "(3, 4)".
  std::string s = "(";
  for (std::size_t i = 0; i < shape.size(); ++i) {
    if (i > 0) s += ", ";
    s += std::to_string(shape[i]);
  }
  if (shape.size() == 1) s += ",";
  return s + ")";
}

// The preamble and header exactly as numpy.lib.format writes them, so files diff cleanly
// against np.save output: version 1.0 unless the header outgrows its 16-bit length field.
std::string npy_preamble_and_header(const char* descr, const std::vector<std::size_t>& shape) {
  std::string dict = std::string("{'descr': '") + descr + "', 'fortran_order': False, 'shape': " +
                     shape_tuple(shape) + ", }";
  for (int major = 1; major <= 2; ++major) {
    const std::size_t preamble_bytes = major == 1 ? 10 : 12;
    const std::size_t unpadded = preamble_bytes + dict.size() + 1;  // +1 for the closing '\n'
    const std::size_t padding = (npy_align - unpadded % npy_align) % npy_align;
    const std::size_t header_bytes = dict.size() + padding + 1;
    if (major == 1 && header_bytes > 0xFFFF) continue;
    std::string out(npy_magic.begin(), npy_magic.end());
    out += static_cast<char>(major);
    out += '\0';
    for (std::size_t i = 0; i < preamble_bytes - 8; ++i) out += static_cast<char>((header_bytes >> (8 * i)) & 0xFF);
    out += dict;
    out.append(padding, ' ');
    out += '\n';
    return out;
  }
  throw Error("npy header for shape " + shape_tuple(shape) + " exceeds 4 GiB");
}

// Writes the header of `shape`, then what write_values(FILE*) writes (false: failed).
template <class WriteValues>
void write_npy_file(const std::filesystem::path& file, const std::vector<std::size_t>& shape, const char* descr,
                    WriteValues&& write_values) {
  const std::string head = npy_preamble_and_header(descr, shape);
  AtomicFile out(file);
  errno = 0;
  bool ok = std::fwrite(head.data(), 1, head.size(), out.get()) == head.size();
  ok = ok && write_values(out.get());
  out.commit(ok ? "" : errno_text(errno));
}

template <class T>
void write_npy_impl(const std::filesystem::path& file, const T* data, const std::vector<std::size_t>& shape,
                    const char* descr) {
  const std::string where = file.string();
  const std::optional<std::size_t> count = checked_product(shape);
  if (!count) throw Error(where + ": cannot write .npy: shape " + shape_tuple(shape) + " overflows");
  if (*count > 0 && data == nullptr) throw Error(where + ": cannot write .npy: no data for shape " + shape_tuple(shape));
  write_npy_file(file, shape, descr, [&](std::FILE* out) { return *count == 0 || std::fwrite(data, sizeof(T), *count, out) == *count; });
}

template <class T>
void write_field_npy(const std::filesystem::path& file, const NamedValues& field, const ImageGrid& grid, const char* descr) {
  std::vector<std::size_t> shape{std::size_t(grid.ny), std::size_t(grid.nx)};
  if (grid.nz > 1) shape.insert(shape.begin(), std::size_t(grid.nz));
  write_npy_file(file, shape, descr, [&](std::FILE* out) {
    return for_each_block<T>(field, grid, [&](const T* values, std::size_t, std::size_t rows) {
      const std::size_t n = rows * std::size_t(grid.nx);
      return std::fwrite(values, sizeof(T), n, out) == n;
    });
  });
}

}  // namespace

void write_npy(const std::filesystem::path& file, const float* data, const std::vector<std::size_t>& shape) {
  static_assert(sizeof(float) == 4 && std::numeric_limits<float>::is_iec559);
  write_npy_impl(file, data, shape, "<f4");
}

void write_npy(const std::filesystem::path& file, const double* data, const std::vector<std::size_t>& shape) {
  static_assert(sizeof(double) == 8 && std::numeric_limits<double>::is_iec559);
  write_npy_impl(file, data, shape, "<f8");
}

void write_npy(const std::filesystem::path& file, const NamedValues& field, const ImageGrid& grid, StoreAs store) {
  check_fields(file, grid, {&field, 1});
  if (store == StoreAs::f32)
    write_field_npy<float>(file, field, grid, "<f4");
  else
    write_field_npy<double>(file, field, grid, "<f8");
}

}  // namespace pdex::io
