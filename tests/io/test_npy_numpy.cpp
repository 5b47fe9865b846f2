// Cross-check with NumPy itself, when a python3 with numpy is on this machine: NumPy loads our
// files bit for bit (and np.save writes the very same bytes), and we read what np.save and
// np.lib.format write, including the cases we must refuse. Skips, with a message, without numpy.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "pdex/core/error.hpp"
#include "pdex/io/npy.hpp"
#include "support/scratch_dir.hpp"

namespace pdex::io {
namespace {

using pdex::testing::ScratchDir;

// The first interpreter that can import numpy; a pyenv shim early in PATH may lack it while
// the system python3 has Debian's python3-numpy.
std::string python_with_numpy() {
  for (const std::string python : {"python3", "/usr/bin/python3"}) {
    if (std::system((python + " -c 'import numpy' >/dev/null 2>&1").c_str()) == 0) return python;
  }
  return {};
}

constexpr const char* script = R"PY(
import io, sys
import numpy as np
d = sys.argv[1]

ours_f8 = np.arange(12, dtype=np.float64).reshape(3, 4) * 0.25 - 1.375
a = np.load(d + '/ours_f8.npy')
assert a.dtype == np.float64 and a.shape == (3, 4), (a.dtype, a.shape)
assert np.array_equal(a, ours_f8), a
buf = io.BytesIO()
np.save(buf, ours_f8)
assert open(d + '/ours_f8.npy', 'rb').read() == buf.getvalue(), 'header differs from np.save'

b = np.load(d + '/ours_f4.npy')
assert b.dtype == np.float32 and b.shape == (2, 3, 2), (b.dtype, b.shape)
assert np.array_equal(b, np.arange(12, dtype=np.float32).reshape(2, 3, 2) / np.float32(3)), b

np.save(d + '/np_i8.npy', np.array([[-3, 0, 2**40], [7, -(2**53), 5]], dtype=np.int64))
np.save(d + '/np_b1.npy', np.array([True, False, True]))
np.save(d + '/np_u1.npy', np.arange(250, 256, dtype=np.uint8).reshape(2, 3))
np.save(d + '/np_i4.npy', np.array([-2**31, 2**31 - 1], dtype=np.int32))
np.save(d + '/np_strided.npy', np.arange(12.0).reshape(3, 4)[:, ::2])
with open(d + '/np_v2.npy', 'wb') as f:
    np.lib.format.write_array(f, np.arange(6.0).reshape(3, 2), version=(2, 0))
np.save(d + '/np_fortran.npy', np.asfortranarray(np.arange(6.0).reshape(2, 3)))
np.save(d + '/np_big.npy', np.arange(3, dtype='>f8'))
)PY";

TEST(NpyNumpyCrossCheck, NumpyReadsOurFilesAndWeReadNumpys) {
  const std::string python = python_with_numpy();
  if (python.empty()) GTEST_SKIP() << "python3 with numpy not found; NumPy cross-check skipped";
  ScratchDir dir;

  std::vector<double> f8(12);
  for (std::size_t i = 0; i < f8.size(); ++i) f8[i] = static_cast<double>(i) * 0.25 - 1.375;
  write_npy(dir / "ours_f8.npy", f8.data(), {3, 4});
  std::vector<float> f4(12);
  for (std::size_t i = 0; i < f4.size(); ++i) f4[i] = static_cast<float>(i) / 3.0f;
  write_npy(dir / "ours_f4.npy", f4.data(), {2, 3, 2});

  std::ofstream(dir / "check.py") << script;
  const std::string command = python + " '" + (dir / "check.py").string() + "' '" + dir.path().string() + "'";
  ASSERT_EQ(std::system(command.c_str()), 0) << "NumPy side failed: " << command;

  const NpyArray i8 = read_npy(dir / "np_i8.npy");
  EXPECT_EQ(i8.shape, (std::vector<std::size_t>{2, 3}));
  EXPECT_EQ(i8.data, (std::vector<double>{-3, 0, 1099511627776.0, 7, -9007199254740992.0, 5}));
  EXPECT_EQ(read_npy(dir / "np_b1.npy").data, (std::vector<double>{1, 0, 1}));
  EXPECT_EQ(read_npy(dir / "np_u1.npy").data, (std::vector<double>{250, 251, 252, 253, 254, 255}));
  EXPECT_EQ(read_npy(dir / "np_i4.npy").data, (std::vector<double>{-2147483648.0, 2147483647.0}));
  // np.save writes a strided view in C order, so [y, x] of the view is what we read.
  const NpyArray strided = read_npy(dir / "np_strided.npy");
  EXPECT_EQ(strided.shape, (std::vector<std::size_t>{3, 2}));
  EXPECT_EQ(strided.data, (std::vector<double>{0, 2, 4, 6, 8, 10}));
  const NpyArray v2 = read_npy(dir / "np_v2.npy");
  EXPECT_EQ(v2.shape, (std::vector<std::size_t>{3, 2}));
  EXPECT_EQ(v2.data, (std::vector<double>{0, 1, 2, 3, 4, 5}));
  EXPECT_THROW((void)read_npy(dir / "np_fortran.npy"), InputError);
  EXPECT_THROW((void)read_npy(dir / "np_big.npy"), InputError);
}

}  // namespace
}  // namespace pdex::io
