// HDF5 series read back through HDF5's C API (attributes, groups, dataset types, layout and values bit for
// bit), the XDMF file beside it, the partial file while a run goes, and the failures a run can meet.
#include <gtest/gtest.h>
#include <hdf5.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <unistd.h>

#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <regex>
#include <string>
#include <vector>

#include "pdex/core/error.hpp"
#include "pdex/io/hdf5_series.hpp"
#include "pdex/io/vtk.hpp"
#include "support/field_files_read.hpp"
#include "support/scratch_dir.hpp"

namespace pdex::io {
namespace {

using pdex::testing::read_file_bytes;
using pdex::testing::ScratchDir;
using namespace pdex::testing;
using std::filesystem::path;

// A scalar attribute, checked to be stored as `stored` (integer or float) of sizeof(T) bytes.
template <class T>
T read_attribute(hid_t object, const char* name, hid_t memory_type, H5T_class_t stored) {
  const H5Id attribute(H5Aopen(object, name, H5P_DEFAULT), H5Aclose);
  if (attribute < 0) ADD_FAILURE() << "no attribute " << name;
  const H5Id type(H5Aget_type(attribute), H5Tclose);
  EXPECT_EQ(H5Tget_class(type), stored) << name;
  EXPECT_EQ(H5Tget_size(type), sizeof(T)) << name;
  T value{};
  EXPECT_GE(H5Aread(attribute, memory_type, &value), 0) << name;
  return value;
}

std::string read_text_attribute(hid_t object, const char* name) {
  const H5Id attribute(H5Aopen(object, name, H5P_DEFAULT), H5Aclose);
  const H5Id type(H5Aget_type(attribute), H5Tclose);
  EXPECT_GT(H5Tis_variable_str(type), 0) << name;
  EXPECT_EQ(H5Tget_cset(type), H5T_CSET_UTF8) << name;
  char* chars = nullptr;
  EXPECT_GE(H5Aread(attribute, type, &chars), 0) << name;
  std::string text = chars ? chars : "";
  H5free_memory(chars);
  return text;
}

std::vector<path> partial_files(const path& dir) {
  std::vector<path> found;
  for (const auto& entry : std::filesystem::directory_iterator(dir))
    if (entry.path().extension() == ".partial") found.push_back(entry.path());
  return found;
}

const ImageGrid grid5x3{5, 3, -1.0, 2.0, 0.5, 0.25};

struct TwoFields {
  std::vector<double> u, v;
  std::vector<NamedValues> fields() const { return {{"u", u}, {"v", v}}; }
};

// Values whose every bit matters; `f32` ones are floats, as an f32 run's are.
TwoFields values_for(std::size_t n, int step, bool f32) {
  TwoFields t{std::vector<double>(n), std::vector<double>(n)};
  for (std::size_t i = 0; i < n; ++i) {
    t.u[i] = static_cast<double>(i) / 7.0 + step;
    t.v[i] = 1.0 / (static_cast<double>(i) + 3.0) - step;
    if (f32) {
      t.u[i] = static_cast<float>(t.u[i]);
      t.v[i] = static_cast<float>(t.v[i]);
    }
  }
  return t;
}

std::vector<float> as_floats(const std::vector<double>& values) { return {values.begin(), values.end()}; }

TEST(Hdf5Series, WritesTheGridStepsAndFieldsBitwiseInFloat64) {
  ScratchDir dir;
  const TwoFields s0 = values_for(15, 0, false), s1 = values_for(15, 1000, false);
  Hdf5Series series(dir / "run.h5", grid5x3, StoreAs::f64);
  series.write(0, 0.0, s0.fields());
  series.write(1000, 1.0 / 3.0, s1.fields());
  series.set_attribute("config", "{\"model\": \"gray_scott\", \"note\": \"\xc3\xa9\"}");
  series.set_attribute("summary", "first");
  series.set_attribute("summary", "{\"steps\": 1000}");  // replaces the first
  series.close();
  EXPECT_EQ(series.file(), dir / "run.h5");
  EXPECT_TRUE(partial_files(dir.path()).empty());

  const H5Id h5 = open_h5(dir / "run.h5");
  ASSERT_GE(h5, 0);
  EXPECT_EQ(read_attribute<std::int64_t>(h5, "nx", H5T_NATIVE_INT64, H5T_INTEGER), 5);
  EXPECT_EQ(read_attribute<std::int64_t>(h5, "ny", H5T_NATIVE_INT64, H5T_INTEGER), 3);
  EXPECT_EQ(read_attribute<double>(h5, "x0", H5T_NATIVE_DOUBLE, H5T_FLOAT), -1.0);
  EXPECT_EQ(read_attribute<double>(h5, "y0", H5T_NATIVE_DOUBLE, H5T_FLOAT), 2.0);
  EXPECT_EQ(read_attribute<double>(h5, "dx", H5T_NATIVE_DOUBLE, H5T_FLOAT), 0.5);
  EXPECT_EQ(read_attribute<double>(h5, "dy", H5T_NATIVE_DOUBLE, H5T_FLOAT), 0.25);
  EXPECT_EQ(read_text_attribute(h5, "config"), "{\"model\": \"gray_scott\", \"note\": \"\xc3\xa9\"}");
  EXPECT_EQ(read_text_attribute(h5, "summary"), "{\"steps\": 1000}");

  const std::vector<std::pair<std::string, const TwoFields*>> steps{{"0000000000", &s0}, {"0000001000", &s1}};
  for (const auto& [tag, values] : steps) {
    const H5Id group(H5Gopen2(h5, ("/steps/" + tag).c_str(), H5P_DEFAULT), H5Gclose);
    ASSERT_GE(group, 0) << tag;
    EXPECT_EQ(read_attribute<std::int64_t>(group, "step", H5T_NATIVE_INT64, H5T_INTEGER), std::stoll(tag));
    EXPECT_EQ(read_attribute<double>(group, "time", H5T_NATIVE_DOUBLE, H5T_FLOAT), tag == "0000000000" ? 0.0 : 1.0 / 3.0);
    for (const auto& [name, expected] : {std::pair{"u", &values->u}, std::pair{"v", &values->v}}) {
      const Dataset d = read_dataset(h5, "/steps/" + tag + "/" + name);
      EXPECT_EQ(d.dims, (std::vector<hsize_t>{3, 5})) << tag << name;
      EXPECT_TRUE(d.f64 && d.contiguous && !d.filtered) << tag << name;
      EXPECT_TRUE(d.bytes == bytes_of(*expected)) << tag << name << " differs";
    }
  }
}

// A 3D grid's fields are [nz, ny, nx] datasets with the z attributes, and the XDMF grid has nz layers.
// The f32 run's rows go through conversion blocks (262,144 values) that end inside a plane, so they are
// written a plane's part at a time; the f64 one in one block of whole planes.
TEST(Hdf5Series, WritesAThreeDimensionalGridsVolumes) {
  ScratchDir dir;
  ImageGrid grid{70, 50, 0.0, 1.0, 0.5, 0.25};
  grid.nz = 90, grid.z0 = -2.0, grid.dz = 0.125;
  const std::size_t cells = 70 * 50 * 90;
  for (StoreAs store : {StoreAs::f64, StoreAs::f32}) {
    const bool f32 = store == StoreAs::f32;
    const TwoFields values = values_for(cells, 3, f32);
    const path file = dir / (f32 ? "f32.h5" : "f64.h5");
    {
      Hdf5Series series(file, grid, store);
      series.write(3, 0.5, values.fields());
    }
    const H5Id h5 = open_h5(file);
    ASSERT_GE(h5, 0);
    EXPECT_EQ(read_attribute<std::int64_t>(h5, "nz", H5T_NATIVE_INT64, H5T_INTEGER), 90);
    EXPECT_EQ(read_attribute<double>(h5, "dz", H5T_NATIVE_DOUBLE, H5T_FLOAT), 0.125);
    EXPECT_EQ(read_attribute<double>(h5, "z0", H5T_NATIVE_DOUBLE, H5T_FLOAT), -2.0);
    const Dataset u = read_dataset(h5, "/steps/0000000003/u");
    EXPECT_EQ(u.dims, (std::vector<hsize_t>{90, 50, 70}));
    EXPECT_TRUE(u.bytes == (f32 ? bytes_of(as_floats(values.u)) : bytes_of(values.u))) << "u differs";
    const std::string xmf = read_file_bytes(file.parent_path() / (file.stem().string() + ".xmf"));
    EXPECT_NE(xmf.find("Dimensions=\"90 50 70\"/>"), std::string::npos) << xmf;
    EXPECT_NE(xmf.find(">-1.9375 1.125 0.25</DataItem>"), std::string::npos) << xmf;  // z0 + dz/2, y0 + dy/2, x0 + dx/2
    EXPECT_NE(xmf.find(">0.125 0.25 0.5</DataItem>"), std::string::npos) << xmf;
  }
  // A 2D grid's file has no z attributes.
  {
    Hdf5Series series(dir / "flat.h5", grid5x3, StoreAs::f64);
    series.write(0, 0.0, values_for(15, 0, false).fields());
  }
  const H5Id flat = open_h5(dir / "flat.h5");
  EXPECT_EQ(H5Aexists(flat, "nz"), 0);
  EXPECT_EQ(H5Aexists(flat, "dz"), 0);
}

// More values than one conversion block (262,144), and a last block of fewer rows.
TEST(Hdf5Series, StoresFloat32RunsAsTheFloatsTheyWere) {
  ScratchDir dir;
  const ImageGrid grid{700, 500, 0.0, 0.0, 1.0, 1.0};
  const TwoFields values = values_for(700 * 500, 7, true);
  {
    Hdf5Series series(dir / "run.h5", grid, StoreAs::f32);
    series.write(7, 0.5, values.fields());
  }
  const H5Id h5 = open_h5(dir / "run.h5");
  ASSERT_GE(h5, 0);
  const Dataset u = read_dataset(h5, "/steps/0000000007/u"), v = read_dataset(h5, "/steps/0000000007/v");
  EXPECT_EQ(u.dims, (std::vector<hsize_t>{500, 700}));
  EXPECT_TRUE(u.f32 && v.f32 && u.contiguous && !u.filtered);
  EXPECT_TRUE(u.bytes == bytes_of(as_floats(values.u))) << "u differs";
  EXPECT_TRUE(v.bytes == bytes_of(as_floats(values.v))) << "v differs";
}

TEST(Xdmf, NamesEveryStepFieldAndDatasetWithItsPrecision) {
  for (const StoreAs store : {StoreAs::f32, StoreAs::f64}) {
    ScratchDir dir;
    const std::vector<std::int64_t> steps{0, 500, 12345678901};
    {
      Hdf5Series series(dir / "fields.h5", grid5x3, store);
      for (std::int64_t s : steps) series.write(s, 0.1 * static_cast<double>(s), values_for(15, 0, true).fields());
      series.close();
    }
    const std::string precision = store == StoreAs::f32 ? "4" : "8";
    const std::vector<XdmfStep> xdmf = read_xdmf(dir / "fields.xmf");
    ASSERT_EQ(xdmf.size(), steps.size());
    const H5Id h5 = open_h5(dir / "fields.h5");
    for (std::size_t k = 0; k < steps.size(); ++k) {
      char tag[24];
      std::snprintf(tag, sizeof tag, "%010lld", static_cast<long long>(steps[k]));
      EXPECT_EQ(std::stod(xdmf[k].time), 0.1 * static_cast<double>(steps[k])) << xdmf[k].time;
      EXPECT_EQ(xdmf[k].topology, "1 3 5");
      ASSERT_EQ(xdmf[k].fields.size(), 2u);
      for (std::size_t f = 0; f < 2; ++f) {
        const std::string name = f == 0 ? "u" : "v";
        EXPECT_EQ(xdmf[k].fields[f].name, name);
        EXPECT_EQ(xdmf[k].fields[f].dimensions, "3 5");
        EXPECT_EQ(xdmf[k].fields[f].precision, precision);
        EXPECT_EQ(xdmf[k].fields[f].reference, std::string("fields.h5:/steps/") + tag + "/" + name);
        EXPECT_GT(H5Lexists(h5, (std::string("/steps/") + tag + "/" + name).c_str(), H5P_DEFAULT), 0);
      }
    }
    // Slowest first, z y x; the points are the cell centres.
    const std::string text = read_file_bytes(dir / "fields.xmf");
    EXPECT_NE(text.find("Name=\"Origin\" Dimensions=\"3\" NumberType=\"Float\" Precision=\"8\" Format=\"XML\">0 2.125 -0.75<"),
              std::string::npos);
    EXPECT_NE(text.find("Name=\"Spacing\" Dimensions=\"3\" NumberType=\"Float\" Precision=\"8\" Format=\"XML\">1 0.25 0.5<"),
              std::string::npos);
    EXPECT_NE(text.find("CollectionType=\"Temporal\""), std::string::npos);
    EXPECT_TRUE(partial_files(dir.path()).empty());
  }
}

// The spatially varying parameters go in once, under /params, and every step of the XDMF file lists them
// after its fields; after a step they are refused.
TEST(Hdf5Series, WritesTheParametersOnceAndTheXdmfListsThemWithEveryStep) {
  ScratchDir dir;
  const TwoFields alpha = values_for(15, 3, true);
  {
    Hdf5Series series(dir / "fields.h5", grid5x3, StoreAs::f32);
    series.write_params(std::vector<NamedValues>{{"alpha", alpha.u}});
    series.write(0, 0.0, values_for(15, 0, true).fields());
    series.write(10, 1.0, values_for(15, 10, true).fields());
    EXPECT_THROW(series.write_params(std::vector<NamedValues>{{"beta", alpha.v}}), Error);
    series.close();
  }
  const H5Id h5 = open_h5(dir / "fields.h5");
  const Dataset d = read_dataset(h5, "/params/alpha");
  EXPECT_TRUE(d.f32);
  EXPECT_EQ(d.dims, (std::vector<hsize_t>{3, 5}));
  EXPECT_EQ(d.bytes, bytes_of(as_floats(alpha.u)));
  EXPECT_LE(H5Lexists(h5, "/params/beta", H5P_DEFAULT), 0);
  const std::vector<XdmfStep> xdmf = read_xdmf(dir / "fields.xmf");
  ASSERT_EQ(xdmf.size(), 2u);
  for (const XdmfStep& step : xdmf) {
    ASSERT_EQ(step.fields.size(), 3u);
    EXPECT_EQ(step.fields[2].name, "alpha");
    EXPECT_EQ(step.fields[2].reference, "fields.h5:/params/alpha");
    EXPECT_EQ(step.fields[2].precision, "4");
  }
}

// Flushed after each step, a copy of the partial file taken mid-run is a whole HDF5 file; and the writer
// holds no lock on it, so that a reader's HDF5 (h5py) may take its shared lock and open it.
TEST(Hdf5Series, ThePartialFileIsReadableWhileTheRunGoes) {
  ScratchDir dir;
  const TwoFields values = values_for(15, 0, false);
  Hdf5Series series(dir / "run.h5", grid5x3, StoreAs::f64);
  series.write(10, 2.5, values.fields());
  EXPECT_FALSE(std::filesystem::exists(dir / "run.h5"));
  const std::vector<path> partial = partial_files(dir.path());
  ASSERT_EQ(partial.size(), 1u);
  EXPECT_EQ(partial[0].filename().string(), "run.h5." + std::to_string(::getpid()) + ".partial");
  const int fd = ::open(partial[0].c_str(), O_RDONLY);
  ASSERT_GE(fd, 0);
  EXPECT_EQ(::flock(fd, LOCK_SH | LOCK_NB), 0) << "the partial file is locked";
  ::close(fd);
  std::filesystem::copy_file(partial[0], dir / "snapshot.h5");

  const H5Id h5 = open_h5(dir / "snapshot.h5");
  ASSERT_GE(h5, 0);
  EXPECT_EQ(read_dataset(h5, "/steps/0000000010/v").bytes, bytes_of(values.v));
  const H5Id group(H5Gopen2(h5, "/steps/0000000010", H5P_DEFAULT), H5Gclose);
  EXPECT_EQ(read_attribute<double>(group, "time", H5T_NATIVE_DOUBLE, H5T_FLOAT), 2.5);
}

TEST(Hdf5Series, DestroyedWithoutCloseLeavesAReadableFileAndItsXdmf) {
  ScratchDir dir;
  const TwoFields values = values_for(15, 3, false);
  {
    Hdf5Series series(dir / "run.h5", grid5x3, StoreAs::f64);
    series.write(3, 0.75, values.fields());
  }
  EXPECT_TRUE(partial_files(dir.path()).empty());
  const H5Id h5 = open_h5(dir / "run.h5");
  ASSERT_GE(h5, 0);
  EXPECT_EQ(read_dataset(h5, "/steps/0000000003/u").bytes, bytes_of(values.u));
  ASSERT_EQ(read_xdmf(dir / "run.xmf").size(), 1u);
}

TEST(Hdf5Series, RefusesAStepWrittenTwiceWrongSizesAndWritesAfterClose) {
  ScratchDir dir;
  const TwoFields values = values_for(15, 0, false);
  Hdf5Series series(dir / "run.h5", grid5x3, StoreAs::f64);
  series.write(5, 0.0, values.fields());
  EXPECT_THROW(series.write(5, 1.0, values.fields()), Error);
  const std::vector<double> short_field(14);
  EXPECT_THROW(series.write(6, 1.0, std::vector<NamedValues>{{"u", short_field}}), Error);
  EXPECT_THROW(series.write(7, 1.0, std::vector<NamedValues>{{"a/b", values.u}}), Error);
  series.close();
  series.close();  // a second close does nothing
  EXPECT_THROW(series.write(8, 1.0, values.fields()), Error);
  EXPECT_THROW(series.set_attribute("late", "x"), Error);
  EXPECT_EQ(read_xdmf(dir / "run.xmf").size(), 1u);
}

TEST(Hdf5Series, AFileThatCannotBeCreatedThrowsNamingItAndWhySilently) {
  ScratchDir dir;
  ::testing::internal::CaptureStderr();
  try {
    Hdf5Series series(dir / "missing" / "run.h5", grid5x3, StoreAs::f32);
    ADD_FAILURE() << "no exception";
  } catch (const Error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find((dir / "missing" / "run.h5").string()), std::string::npos) << what;
    EXPECT_NE(what.find("No such file or directory"), std::string::npos) << what;
  }
  EXPECT_EQ(::testing::internal::GetCapturedStderr(), "");  // HDF5's own error stack is not printed
}

// Runs `f` as a full disk would, for a process whose files may not grow past `limit` bytes (EFBIG);
// returns the Error's message, and checks that HDF5 printed nothing.
template <class F>
std::string failure_past(std::uintmax_t limit, F f) {
  rlimit saved{};
  if (getrlimit(RLIMIT_FSIZE, &saved) != 0) return "getrlimit failed";
  rlimit limited = saved;
  limited.rlim_cur = limit;
  const auto previous_handler = std::signal(SIGXFSZ, SIG_IGN);  // EFBIG rather than the end of the process
  setrlimit(RLIMIT_FSIZE, &limited);
  ::testing::internal::CaptureStderr();
  std::string what = "no exception";
  try {
    f();
  } catch (const Error& e) {
    what = e.what();
  }
  const std::string printed = ::testing::internal::GetCapturedStderr();
  setrlimit(RLIMIT_FSIZE, &saved);
  std::signal(SIGXFSZ, previous_handler);
  EXPECT_EQ(printed, "");
  return what;
}

const ImageGrid grid256{256, 256, 0, 0, 1, 1};  // 512 KiB a float64 field

TEST(Hdf5Series, AFailedWriteThrowsNamingTheFileAndTheSystemsReason) {
  ScratchDir dir;
  const TwoFields values = values_for(256 * 256, 0, false);
  Hdf5Series series(dir / "run.h5", grid256, StoreAs::f64);
  series.write(0, 0.0, values.fields());
  const auto written = std::filesystem::file_size(partial_files(dir.path()).at(0));

  const std::string what = failure_past(written + 100'000, [&] { series.write(1, 1.0, values.fields()); });
  EXPECT_NE(what.find((dir / "run.h5").string() + ": writing u failed (File too large)"), std::string::npos) << what;
  series.close();  // room again: the steps written before are kept
  const H5Id h5 = open_h5(dir / "run.h5");
  ASSERT_GE(h5, 0);
  EXPECT_EQ(read_dataset(h5, "/steps/0000000000/v").bytes, bytes_of(values.v));
  EXPECT_EQ(read_xdmf(dir / "run.xmf").size(), 1u);  // the failed step is not listed
}

// A close that fails too keeps the partial file and says where it is; the process then ends cleanly
// (HDF5's clean-up at exit would crash on that file: CTest sees this test's process end).
TEST(Hdf5Series, AFailedCloseThrowsNamingThePartialFileItKeeps) {
  ScratchDir dir;
  const TwoFields values = values_for(256 * 256, 0, false);
  Hdf5Series series(dir / "run.h5", grid256, StoreAs::f64);
  series.write(0, 0.0, values.fields());
  const path partial = partial_files(dir.path()).at(0);
  const auto written = std::filesystem::file_size(partial);

  const std::string what = failure_past(written + 100'000, [&] {
    try {
      series.write(1, 1.0, values.fields());
    } catch (const Error&) {
    }
    series.close();
  });
  EXPECT_NE(what.find("closing the HDF5 file failed (File too large); what was written is in " + partial.string()),
            std::string::npos)
      << what;
  EXPECT_TRUE(std::filesystem::exists(partial));
  EXPECT_FALSE(std::filesystem::exists(dir / "run.h5"));
}

// The files tests/io/check_field_files.py reads with h5py and VTK (CTest field_files.*): written into
// $PDEX_FIELD_FILES_DIR when set, else into a scratch folder. Values are multiples of 1/8, exact in float32.
TEST(FieldFiles, WritesTheFilesThePythonCheckReads) {
  ScratchDir scratch;
  const char* env = std::getenv("PDEX_FIELD_FILES_DIR");
  const path dir = env && *env ? path(env) : scratch.path();
  std::filesystem::create_directories(dir);
  const ImageGrid grid{6, 4, -1.0, 0.5, 0.25, 0.5};
  const std::vector<std::int64_t> steps{0, 10, 20};
  Hdf5Series f32(dir / "series_f32.h5", grid, StoreAs::f32), f64(dir / "series_f64.h5", grid, StoreAs::f64);
  f32.set_attribute("config", "{\"model\": \"gray_scott\", \"note\": \"\xc3\xa9\"}");
  PvdSeries pvd(dir / "fields.pvd");
  for (const std::int64_t step : steps) {
    std::vector<double> u(24), v(24);
    for (int j = 0; j < 4; ++j)
      for (int i = 0; i < 6; ++i) {
        u[j * 6 + i] = static_cast<double>(step * 1000 + j * 10 + i) / 8.0;
        v[j * 6 + i] = static_cast<double>(step * 1000 + 100 + j * 10 + i) / 8.0;
      }
    const std::vector<NamedValues> fields{{"u", u}, {"v", v}};
    const double time = static_cast<double>(step) / 30.0;
    f32.write(step, time, fields);
    f64.write(step, time, fields);
    const std::string vti = "fields_" + std::to_string(step) + ".vti";
    write_vti(dir / vti, grid, fields, StoreAs::f32);
    pvd.add(time, vti);
  }
  f32.close();
  f64.close();
  for (const char* name : {"series_f32.h5", "series_f32.xmf", "series_f64.h5", "series_f64.xmf", "fields.pvd"})
    EXPECT_TRUE(std::filesystem::exists(dir / name)) << name;
  EXPECT_TRUE(partial_files(dir).empty());
}

}  // namespace
}  // namespace pdex::io
