#pragma once
// NumPy .npy files: how users hand pdex spatially varying parameters and initial fields
// ({ file = "alpha.npy" } in a config) and how pdex hands fields back for analysis.
//
// Layout convention (DESIGN.md): a 2D field is an array of shape (ny, nx) indexed [y, x],
// row = y, in C order, exactly what `np.load("u.npy")[y, x]` gives a NumPy user. The flat
// data below is that C-order sequence: element [y, x] sits at data[y * nx + x]. Nothing here
// flips or transposes; the grid layer maps rows onto its own storage.
//
// Format reference: numpy.lib.format (header versions 1.0, 2.0 and 3.0; only the length field
// and the header's text encoding differ between them).
#include <cstddef>
#include <filesystem>
#include <vector>

#include "pdex/io/field_files.hpp"

namespace pdex::io {

// A .npy array read from disk, converted to double whatever the on-disk dtype was.
// shape is empty for a 0-d (scalar) array; data.size() is the product of shape.
struct NpyArray {
  std::vector<std::size_t> shape;
  std::vector<double> data;  // C order
};

// Reads little-endian float32/float64/int32/int64 ('<f4' '<f8' '<i4' '<i8'), uint8 ('|u1')
// and bool ('|b1') arrays. int64 values beyond 2^53 lose precision in the conversion.
// Throws pdex::InputError naming the file for anything else: missing or unreadable file, bad
// magic, unknown header version, malformed header, other dtypes, fortran_order arrays,
// truncated data.
NpyArray read_npy(const std::filesystem::path& file);

// Writes a C-order array as a version 1.0 .npy file ('<f4' or '<f8'), switching to the
// version 2.0 header only when the header does not fit 1.0's 16-bit length (as NumPy does).
// An empty shape writes a 0-d array holding data[0]. Throws pdex::Error naming the file when
// the file cannot be created or written.
void write_npy(const std::filesystem::path& file, const float* data, const std::vector<std::size_t>& shape);
void write_npy(const std::filesystem::path& file, const double* data, const std::vector<std::size_t>& shape);
// One field on `grid` as an array of shape (ny, nx), float32 or float64 as `store` says (an output or a
// checkpoint of a stepper's own rows: padded, or of the other precision).
void write_npy(const std::filesystem::path& file, const NamedValues& field, const ImageGrid& grid, StoreAs store);

}  // namespace pdex::io
