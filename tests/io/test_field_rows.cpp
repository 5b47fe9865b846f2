// The field writers (.npy, .vti, HDF5) and 3D sections handed a stepper's own rows, as outputs and
// checkpoints hand them: padded rows (a pitch above nx), a 3D field's planes apart (ghost rows between
// them), floats or doubles. What lands in the file is the grid's values without the padding, bit for
// bit, in the precision asked for, across the writers' 1 MiB blocks.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "pdex/core/error.hpp"
#include "pdex/io/hdf5_series.hpp"
#include "pdex/io/npy.hpp"
#include "pdex/io/section.hpp"
#include "pdex/io/vtk.hpp"
#include "support/field_files_read.hpp"
#include "support/scratch_dir.hpp"

namespace pdex::io {
namespace {

using pdex::testing::ScratchDir;
using namespace pdex::testing;

// 700 x 500 cells: several conversion blocks, the last one partial.
const ImageGrid grid{700, 500, 0.0, 0.0, 1.0, 1.0};
constexpr std::size_t pitch = 704, nx = 700, ny = 500;

// The grid's values (row-major, unpadded) and the same values in padded rows whose padding holds NaN
// (a writer that copied it would show).
template <class T>
struct Rows {
  std::vector<T> values, padded;
  Rows() : values(nx * ny), padded((ny - 1) * pitch + nx, std::numeric_limits<T>::quiet_NaN()) {
    for (std::size_t y = 0; y < ny; ++y)
      for (std::size_t x = 0; x < nx; ++x) {
        const T v = T(1) / T(x + 3) + T(y) / T(7);
        values[y * nx + x] = v;
        padded[y * pitch + x] = v;
      }
  }
  NamedValues field() const { return {"u", std::span<const T>(padded), pitch}; }
};

template <class Out, class In>
std::vector<Out> converted(const std::vector<In>& v) { return {v.begin(), v.end()}; }

std::string npy_values(const std::filesystem::path& file, std::size_t bytes) {
  const std::string all = read_file_bytes(file);
  return all.substr(all.size() - bytes);
}

// The field as an HDF5 series stores it at step 0.
Dataset written_h5(const std::filesystem::path& file, const ImageGrid& g, const NamedValues& field, StoreAs store) {
  Hdf5Series series(file, g, store);
  series.write(0, 0.0, std::vector<NamedValues>{field});
  series.close();
  return read_dataset(open_h5(file), "/steps/0000000000/u");
}

TEST(FieldRows, PaddedFloatRowsAreWrittenAsTheGridsFloats) {
  ScratchDir dir;
  const Rows<float> rows;
  write_npy(dir / "u.npy", rows.field(), grid, StoreAs::f32);
  EXPECT_EQ(read_npy(dir / "u.npy").shape, (std::vector<std::size_t>{ny, nx}));
  EXPECT_EQ(npy_values(dir / "u.npy", nx * ny * sizeof(float)), bytes_of(rows.values));

  write_vti(dir / "u.vti", grid, std::vector<NamedValues>{rows.field()}, StoreAs::f32);
  EXPECT_EQ(appended_array(read_vti(dir / "u.vti").appended, 0), bytes_of(rows.values));

  const Dataset d = written_h5(dir / "u.h5", grid, rows.field(), StoreAs::f32);
  EXPECT_TRUE(d.f32);
  EXPECT_EQ(d.dims, (std::vector<hsize_t>{ny, nx}));
  EXPECT_EQ(d.bytes, bytes_of(rows.values));
}

// Floats kept as float64, doubles as float32 (a run's per-cell parameters in an f32 run's .vti): each
// value converted as a cast converts it.
TEST(FieldRows, PaddedRowsAreConvertedToThePrecisionAsked) {
  ScratchDir dir;
  const Rows<float> floats;
  const Rows<double> doubles;
  write_npy(dir / "f.npy", floats.field(), grid, StoreAs::f64);
  EXPECT_EQ(npy_values(dir / "f.npy", nx * ny * sizeof(double)), bytes_of(converted<double>(floats.values)));
  write_vti(dir / "d.vti", grid, std::vector<NamedValues>{doubles.field()}, StoreAs::f32);
  EXPECT_EQ(appended_array(read_vti(dir / "d.vti").appended, 0), bytes_of(converted<float>(doubles.values)));
  EXPECT_EQ(written_h5(dir / "d.h5", grid, doubles.field(), StoreAs::f64).bytes, bytes_of(doubles.values));
}

TEST(FieldRows, RowsShorterThanTheGridAreRefusedNamingTheFile) {
  ScratchDir dir;
  const Rows<float> rows;
  const std::span<const float> short_rows(rows.padded.data(), rows.padded.size() - 1);
  const NamedValues cut{"u", short_rows, pitch}, narrow{"u", std::span<const float>(rows.padded), nx - 1};
  for (const NamedValues& bad : {cut, narrow}) {
    try {
      write_npy(dir / "u.npy", bad, grid, StoreAs::f32);
      ADD_FAILURE() << "accepted rows of " << bad.row_stride;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("u.npy: field u has"), std::string::npos) << e.what();
    }
  }
  EXPECT_FALSE(std::filesystem::exists(dir / "u.npy"));
}

// 130 x 90 x 40 cells whose planes lie 3 rows apart, as a 3D stepper keeps them (ghost rows between
// planes): 3,600 rows, two conversion blocks.
const ImageGrid grid3{130, 90, 0.0, 0.0, 1.0, 1.0, 40};
constexpr std::size_t nx3 = 130, ny3 = 90, nz3 = 40, pitch3 = 136, plane3 = (ny3 + 3) * pitch3;

struct Planes {
  std::vector<float> values, apart;
  Planes() : values(nx3 * ny3 * nz3), apart((nz3 - 1) * plane3 + (ny3 - 1) * pitch3 + nx3, std::numeric_limits<float>::quiet_NaN()) {
    for (std::size_t z = 0; z < nz3; ++z)
      for (std::size_t y = 0; y < ny3; ++y)
        for (std::size_t x = 0; x < nx3; ++x) {
          const float v = 1.0f / float(x + 3) + float(y) / 7.0f - float(z) / 11.0f;
          values[(z * ny3 + y) * nx3 + x] = v;
          apart[z * plane3 + y * pitch3 + x] = v;
        }
  }
  NamedValues field() const { return {"u", std::span<const float>(apart), pitch3, plane3}; }
};

TEST(FieldRows, PlanesApartAreWrittenAsTheGridsValues) {
  ScratchDir dir;
  const Planes planes;
  write_npy(dir / "u.npy", planes.field(), grid3, StoreAs::f32);
  EXPECT_EQ(read_npy(dir / "u.npy").shape, (std::vector<std::size_t>{nz3, ny3, nx3}));
  EXPECT_EQ(npy_values(dir / "u.npy", planes.values.size() * sizeof(float)), bytes_of(planes.values));
  write_vti(dir / "u.vti", grid3, std::vector<NamedValues>{planes.field()}, StoreAs::f64);
  EXPECT_EQ(appended_array(read_vti(dir / "u.vti").appended, 0), bytes_of(converted<double>(planes.values)));
  EXPECT_EQ(written_h5(dir / "u.h5", grid3, planes.field(), StoreAs::f32).bytes, bytes_of(planes.values));
}

// Sections read where the rows lie: the same pictures as from the row-major doubles.
TEST(FieldRows, SectionsOfPlanesApartAreThoseOfTheGridsValues) {
  const Planes planes;
  const std::vector<double> doubles = converted<double>(planes.values);
  for (const Section& s : {Section{'z', 17}, Section{'y', 89}, Section{'x', 0}, Section{'z', 0, true}}) {
    const SectionPicture from_rows = section_of(planes.field(), 130, 90, 40, s);
    const SectionPicture from_values = section_of(std::span<const double>(doubles), 130, 90, 40, s);
    EXPECT_EQ(from_rows.values, from_values.values) << s.tag();
    EXPECT_EQ(from_rows.width, from_values.width) << s.tag();
    EXPECT_EQ(from_rows.height, from_values.height) << s.tag();
  }
}

// What takes whole fields of doubles (relief shading) gets the grid's values row-major.
TEST(FieldRows, RowMajorValuesOfPlanesApartAreTheGridsValues) {
  const Planes planes;
  EXPECT_EQ(row_major(planes.field(), grid3), converted<double>(planes.values));
  const Rows<float> rows;
  EXPECT_EQ(row_major(rows.field(), grid), converted<double>(rows.values));
}

TEST(FieldRows, PlanesThatOverlapAreRefusedNamingTheFile) {
  ScratchDir dir;
  const Planes planes;
  const NamedValues overlapping{"u", std::span<const float>(planes.apart), pitch3, (ny3 - 1) * pitch3};
  EXPECT_THROW(write_npy(dir / "u.npy", overlapping, grid3, StoreAs::f32), Error);
  EXPECT_FALSE(std::filesystem::exists(dir / "u.npy"));
}

}  // namespace
}  // namespace pdex::io
