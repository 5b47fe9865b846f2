#pragma once
// Builds .npy files byte by byte, as numpy.save lays them out, so the reader is tested against
// the format itself rather than against our own writer.
#include <cstddef>
#include <cstring>
#include <initializer_list>
#include <string>
#include <string_view>

namespace pdex::io::testing {

// Magic, version major.0, little-endian header length (2 bytes for 1.0, 4 for 2.0 and 3.0),
// the dict padded with spaces and a final newline to a 64-byte boundary, then the payload.
inline std::string npy_file_bytes(int major, std::string_view dict, std::string_view payload) {
  const std::size_t length_bytes = major == 1 ? 2 : 4;
  std::string header(dict);
  const std::size_t unpadded = 8 + length_bytes + header.size() + 1;
  header.append((64 - unpadded % 64) % 64, ' ');
  header += '\n';
  std::string out("\x93NUMPY", 6);
  out += static_cast<char>(major);
  out += '\0';
  for (std::size_t i = 0; i < length_bytes; ++i) out += static_cast<char>((header.size() >> (8 * i)) & 0xFF);
  return out + header + std::string(payload);
}

// The in-memory bytes of the values; the test hosts are little-endian, as npy.cpp asserts.
template <class T>
std::string raw_bytes(std::initializer_list<T> values) {
  std::string out(values.size() * sizeof(T), '\0');
  std::size_t offset = 0;
  for (const T& v : values) {
    std::memcpy(out.data() + offset, &v, sizeof(T));
    offset += sizeof(T);
  }
  return out;
}

}  // namespace pdex::io::testing
