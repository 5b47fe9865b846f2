#pragma once
// The header of a .npy file: a Python dict literal such as
//   {'descr': '<f8', 'fortran_order': False, 'shape': (64, 128), }
// Parsed by hand (a tiny subset of Python literal syntax) because that is all NumPy writes, and
// a real Python parser would be a heavy dependency for three keys. Used by npy.cpp; separate
// because the grammar and its error messages are a concept of their own.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace pdex::io {

// The element types read_npy accepts, named after their NumPy dtype strings.
enum class NpyDtype { f4, f8, i4, i8, u1, b1 };

std::size_t npy_dtype_size(NpyDtype dtype);

struct NpyHeader {
  NpyDtype dtype = NpyDtype::f8;
  bool fortran_order = false;
  std::vector<std::size_t> shape;
};

// Throws pdex::InputError prefixed with `where` (the file name) for malformed text, missing,
// repeated or unknown keys, and dtypes outside NpyDtype.
NpyHeader parse_npy_header(std::string_view text, const std::string& where);

}  // namespace pdex::io
