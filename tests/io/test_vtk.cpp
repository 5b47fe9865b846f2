// VTK ImageData files and .pvd collections, read back as a reader does: the XML header parsed, the raw
// appended block decoded by its offsets and byte counts, the values compared bit for bit.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <map>
#include <regex>
#include <string>
#include <vector>

#include "pdex/core/error.hpp"
#include "pdex/io/vtk.hpp"
#include "support/field_files_read.hpp"
#include "support/scratch_dir.hpp"

namespace pdex::io {
namespace {

using pdex::testing::read_file_bytes;
using pdex::testing::ScratchDir;
using namespace pdex::testing;

bool has_partial_files(const std::filesystem::path& dir) {
  for (const auto& entry : std::filesystem::directory_iterator(dir))
    if (entry.path().extension() == ".partial") return true;
  return false;
}

const ImageGrid grid5x3{5, 3, -1.0, 2.0, 0.5, 0.25};

TEST(Vtk, WritesFloat64ValuesBitwiseWithTheGridsExtentOriginAndSpacing) {
  ScratchDir dir;
  std::vector<double> u(15), v(15);
  for (std::size_t i = 0; i < u.size(); ++i) {
    u[i] = static_cast<double>(i) * 0.1 - 0.3 + 1e-13;
    v[i] = std::sin(static_cast<double>(i));
  }
  const std::vector<NamedValues> fields{{"u", u}, {"v", v}};
  write_vti(dir / "f.vti", grid5x3, fields, StoreAs::f64);

  const Vti vti = read_vti(dir / "f.vti");
  const auto file = elements(vti.header, "VTKFile");
  ASSERT_EQ(file.size(), 1u);
  EXPECT_EQ(file[0].at("type"), "ImageData");
  EXPECT_EQ(file[0].at("version"), "1.0");
  EXPECT_EQ(file[0].at("byte_order"), "LittleEndian");
  EXPECT_EQ(file[0].at("header_type"), "UInt64");
  const auto image = elements(vti.header, "ImageData");
  ASSERT_EQ(image.size(), 1u);
  EXPECT_EQ(image[0].at("WholeExtent"), "0 4 0 2 0 0");
  EXPECT_EQ(image[0].at("Origin"), "-0.75 2.125 0");  // the first cell's centre
  EXPECT_EQ(image[0].at("Spacing"), "0.5 0.25 1");
  ASSERT_EQ(elements(vti.header, "Piece").size(), 1u);
  EXPECT_EQ(elements(vti.header, "Piece")[0].at("Extent"), "0 4 0 2 0 0");
  EXPECT_EQ(elements(vti.header, "PointData").size(), 1u);

  const auto arrays = elements(vti.header, "DataArray");
  ASSERT_EQ(arrays.size(), 2u);
  const std::size_t stride = sizeof(std::uint64_t) + 15 * sizeof(double);
  for (std::size_t k = 0; k < 2; ++k) {
    EXPECT_EQ(arrays[k].at("Name"), fields[k].name);
    EXPECT_EQ(arrays[k].at("type"), "Float64");
    EXPECT_EQ(arrays[k].at("format"), "appended");
    EXPECT_EQ(arrays[k].at("offset"), std::to_string(k * stride));
  }
  EXPECT_EQ(appended_array(vti.appended, 0), bytes_of(u));
  EXPECT_EQ(appended_array(vti.appended, stride), bytes_of(v));
  EXPECT_EQ(vti.appended.substr(2 * stride), "\n  </AppendedData>\n</VTKFile>\n");
  EXPECT_FALSE(has_partial_files(dir.path()));
}

// More values than one conversion block (262,144), so that the blocks' seams are checked too.
TEST(Vtk, WritesFloat32ValuesAsTheFloatsTheyWere) {
  ScratchDir dir;
  const ImageGrid grid{700, 500, 0.0, 0.0, 1.0, 1.0};
  std::vector<float> stored(700 * 500);
  for (std::size_t i = 0; i < stored.size(); ++i) stored[i] = static_cast<float>(i) / 3.0f - 1e4f;
  stored[7] = 1e-40f;  // subnormal
  const std::vector<double> values(stored.begin(), stored.end());
  write_vti(dir / "f.vti", grid, std::vector<NamedValues>{{"phi", values}}, StoreAs::f32);

  const Vti vti = read_vti(dir / "f.vti");
  const auto arrays = elements(vti.header, "DataArray");
  ASSERT_EQ(arrays.size(), 1u);
  EXPECT_EQ(arrays[0].at("type"), "Float32");
  EXPECT_EQ(arrays[0].at("offset"), "0");
  EXPECT_EQ(elements(vti.header, "ImageData")[0].at("WholeExtent"), "0 699 0 499 0 0");
  EXPECT_EQ(elements(vti.header, "ImageData")[0].at("Origin"), "0.5 0.5 0");
  const std::string array = appended_array(vti.appended, 0);
  ASSERT_EQ(array.size(), stored.size() * sizeof(float));
  EXPECT_TRUE(array == bytes_of(stored)) << "float32 values differ";
}

TEST(Vtk, RefusesFieldsOfTheWrongSizeAndLeavesNoFile) {
  ScratchDir dir;
  const std::vector<double> short_field(14, 1.0);
  EXPECT_THROW(write_vti(dir / "f.vti", grid5x3, std::vector<NamedValues>{{"u", short_field}}, StoreAs::f64), Error);
  EXPECT_TRUE(std::filesystem::is_empty(dir.path()));
}

TEST(Vtk, EscapesFieldNamesInTheHeader) {
  ScratchDir dir;
  const std::vector<double> values(15, 0.0);
  write_vti(dir / "f.vti", grid5x3, std::vector<NamedValues>{{"a<b&\"c\"", values}}, StoreAs::f64);
  EXPECT_NE(read_vti(dir / "f.vti").header.find("Name=\"a&lt;b&amp;&quot;c&quot;\""), std::string::npos);
}

TEST(Pvd, ListsEveryDatasetWithItsTimeAfterEachAdd) {
  ScratchDir dir;
  PvdSeries series(dir / "run.pvd");
  const std::vector<double> values(15, 1.0);
  const std::vector<NamedValues> fields{{"u", values}};
  const std::vector<double> times{0.0, 0.1, 1.0 / 3.0};
  for (std::size_t k = 0; k < times.size(); ++k) {
    const std::string name = "u_" + std::to_string(k) + ".vti";
    write_vti(dir / name, grid5x3, fields, StoreAs::f32);
    series.add(times[k], name);

    const std::string pvd = read_file_bytes(dir / "run.pvd");
    ASSERT_EQ(elements(pvd, "VTKFile").size(), 1u);
    EXPECT_EQ(elements(pvd, "VTKFile")[0].at("type"), "Collection");
    EXPECT_EQ(elements(pvd, "Collection").size(), 1u);
    const auto datasets = elements(pvd, "DataSet");
    ASSERT_EQ(datasets.size(), k + 1);
    for (std::size_t i = 0; i <= k; ++i) {
      EXPECT_EQ(datasets[i].at("file"), "u_" + std::to_string(i) + ".vti");
      EXPECT_EQ(std::stod(datasets[i].at("timestep")), times[i]) << datasets[i].at("timestep");  // to the last bit
    }
    EXPECT_NE(pvd.find("</VTKFile>"), std::string::npos);
    EXPECT_FALSE(has_partial_files(dir.path()));
  }
  EXPECT_EQ(elements(read_file_bytes(dir / "run.pvd"), "DataSet")[1].at("timestep"), "0.10000000000000001");
}

}  // namespace
}  // namespace pdex::io
