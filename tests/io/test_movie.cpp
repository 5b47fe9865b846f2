// Movies through ffmpeg: frame count, size and codec as ffprobe reads them back, colours, errors, and
// what is left on disk. The tests that encode skip, saying why, without ffmpeg and ffprobe.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <limits>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "pdex/core/error.hpp"
#include "pdex/io/movie.hpp"
#include "support/scratch_dir.hpp"

namespace pdex::io {
namespace {

using pdex::testing::ScratchDir;

constexpr const char* no_tools = "ffmpeg or ffprobe is not on PATH (apt-get install ffmpeg)";

bool tools_present() { return ffmpeg_available() && std::system("command -v ffprobe > /dev/null 2>&1") == 0; }

std::string quoted(const std::filesystem::path& file) { return "'" + file.string() + "'"; }

// What a shell command prints on stdout.
std::string output_of(const std::string& command) {
  const std::unique_ptr<std::FILE, int (*)(std::FILE*)> pipe(popen(command.c_str(), "r"), pclose);
  std::string text;
  char buf[4096];
  for (std::size_t n; pipe && (n = std::fread(buf, 1, sizeof buf, pipe.get())) > 0;) text.append(buf, n);
  return text;
}

// "codec,width,height,frames" of the first video stream, as ffprobe counts them by decoding.
std::string probe(const std::filesystem::path& file) {
  std::string line = output_of(
      "ffprobe -v error -count_frames -select_streams v:0 -show_entries "
      "stream=codec_name,width,height,nb_read_frames -of csv=p=0 " +
      quoted(file));
  while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.pop_back();
  return line;
}

// The first frame decoded back to 8-bit RGB.
std::string first_frame_rgb(const std::filesystem::path& file) {
  return output_of("ffmpeg -v error -i " + quoted(file) + " -frames:v 1 -f rawvideo -pix_fmt rgb24 -");
}

std::vector<std::string> files_in(const std::filesystem::path& dir) {
  std::vector<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) names.push_back(entry.path().filename().string());
  return names;
}

// Frame i is a flat colour of its own.
Image frame(int width, int height, int i) {
  return Image(width, height, Rgb{static_cast<std::uint8_t>(200 - 20 * i), 40, static_cast<std::uint8_t>(90 + 10 * i)});
}

void write_movie(const std::filesystem::path& file, int width, int height, int count) {
  MovieWriter movie(file, width, height, 12.5);
  for (int i = 0; i < count; ++i) movie.add_frame(frame(width, height, i));
  EXPECT_EQ(movie.frames(), count);
  movie.close();
}

void expect_near_rgb(const std::string& rgb, Rgb want, int tolerance) {
  ASSERT_GE(rgb.size(), 3u);
  EXPECT_NEAR(static_cast<unsigned char>(rgb[0]), want.r, tolerance);
  EXPECT_NEAR(static_cast<unsigned char>(rgb[1]), want.g, tolerance);
  EXPECT_NEAR(static_cast<unsigned char>(rgb[2]), want.b, tolerance);
}

// PATH replaced for one test, as on a machine without ffmpeg.
class PathOverride {
 public:
  explicit PathOverride(const std::filesystem::path& dir) {
    if (const char* old = std::getenv("PATH")) saved_ = old;
    setenv("PATH", dir.c_str(), 1);
  }
  ~PathOverride() { setenv("PATH", saved_.c_str(), 1); }
  PathOverride(const PathOverride&) = delete;
  PathOverride& operator=(const PathOverride&) = delete;

 private:
  std::string saved_;
};

TEST(MovieWriter, Mp4HasEveryFrameInH264PaddedToEvenSides) {
  if (!tools_present()) GTEST_SKIP() << no_tools;
  ScratchDir dir;
  const auto file = dir / "a movie with spaces.mp4";
  write_movie(file, 37, 23, 9);
  EXPECT_EQ(probe(file), "h264,38,24,9");
  expect_near_rgb(first_frame_rgb(file), frame(1, 1, 0).at(0, 0), 6);
  EXPECT_EQ(files_in(dir.path()), std::vector<std::string>{"a movie with spaces.mp4"});  // no partial file
}

TEST(MovieWriter, GifHasEveryFrameAtItsOwnSize) {
  if (!tools_present()) GTEST_SKIP() << no_tools;
  ScratchDir dir;
  const auto file = dir / "a movie.gif";
  write_movie(file, 37, 23, 7);
  EXPECT_EQ(probe(file), "gif,37,23,7");
  expect_near_rgb(first_frame_rgb(file), frame(1, 1, 0).at(0, 0), 6);
  EXPECT_EQ(files_in(dir.path()), std::vector<std::string>{"a movie.gif"});
}

TEST(MovieWriter, DecoratedFieldFramesMakeAMovie) {
  if (!tools_present()) GTEST_SKIP() << no_tools;
  ScratchDir dir;
  const int nx = 24, ny = 16;
  const FrameDecor decor{.scale = 2, .colorbar = true, .caption = "u"};
  const FrameLayout l = frame_layout(nx, ny, decor, "test");
  MovieWriter movie(dir / "u.mp4", l.width, l.height, 10);
  std::vector<double> values(static_cast<std::size_t>(nx * ny));
  for (int step = 0; step < 4; ++step) {
    for (std::size_t i = 0; i < values.size(); ++i) values[i] = static_cast<double>((i + 3 * step) % 7);
    const ColorScale colors(std::span<const double>(values), Colormap::viridis, {}, "test");
    movie.add_frame(render_field(values, nx, ny, colors,
                                 FrameDecor{.scale = 2, .colorbar = true, .caption = "u   t = " + std::to_string(step)},
                                 "test"));
  }
  movie.close();
  EXPECT_EQ(probe(dir / "u.mp4"),
            "h264," + std::to_string(l.width + l.width % 2) + "," + std::to_string(l.height + l.height % 2) + ",4");
}

TEST(MovieWriter, FrameOfAnotherSizeThrowsError) {
  if (!tools_present()) GTEST_SKIP() << no_tools;
  ScratchDir dir;
  MovieWriter movie(dir / "m.gif", 8, 6, 10);
  movie.add_frame(frame(8, 6, 0));
  EXPECT_THROW(movie.add_frame(frame(8, 7, 1)), Error);
  movie.add_frame(frame(8, 6, 2));
  movie.close();
  EXPECT_EQ(probe(dir / "m.gif"), "gif,8,6,2");
}

TEST(MovieWriter, DestructorWithoutCloseLeavesNothing) {
  if (!tools_present()) GTEST_SKIP() << no_tools;
  ScratchDir dir;
  {
    MovieWriter movie(dir / "m.mp4", 16, 16, 10);
    for (int i = 0; i < 3; ++i) movie.add_frame(frame(16, 16, i));
  }
  EXPECT_TRUE(files_in(dir.path()).empty());
}

TEST(MovieWriter, MovieWithoutFramesThrowsErrorAndLeavesNothing) {
  if (!tools_present()) GTEST_SKIP() << no_tools;
  ScratchDir dir;
  MovieWriter movie(dir / "m.mp4", 16, 16, 10);
  EXPECT_THROW(movie.close(), Error);
  EXPECT_TRUE(files_in(dir.path()).empty());
  movie.close();  // a second close does nothing
  EXPECT_THROW(movie.add_frame(frame(16, 16, 0)), Error);
}

// ffmpeg cannot create its output and exits: the frames after that meet a closed pipe, which must
// give an Error with ffmpeg's own words, not a SIGPIPE that ends the test.
TEST(MovieWriter, FailedFfmpegThrowsErrorWithTheEndOfItsLog) {
  if (!tools_present()) GTEST_SKIP() << no_tools;
  ScratchDir dir;
  const auto file = dir / "no such folder" / "m.mp4";
  const Image big = frame(512, 512, 0);  // 768 KiB, more than a pipe holds
  try {
    MovieWriter movie(file, 512, 512, 10);
    for (int i = 0; i < 200; ++i) movie.add_frame(big);
    movie.close();
    ADD_FAILURE() << "expected pdex::Error";
  } catch (const Error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find(file.string()), std::string::npos) << what;
    EXPECT_NE(what.find("No such file or directory"), std::string::npos) << what;
  }
  EXPECT_TRUE(files_in(dir.path()).empty());
}

TEST(MovieWriter, MissingFfmpegThrowsInputErrorSayingHowToInstallIt) {
  ScratchDir dir;
  std::filesystem::create_directory(dir / "empty");
  const PathOverride path(dir / "empty");
  EXPECT_FALSE(ffmpeg_available());
  try {
    MovieWriter movie(dir / "m.mp4", 16, 16, 10);
    ADD_FAILURE() << "expected pdex::InputError";
  } catch (const InputError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("output.formats includes \"movie\" but ffmpeg was not found on PATH; install it "
                        "(apt-get install ffmpeg)"),
              std::string::npos)
        << what;
  }
  EXPECT_EQ(files_in(dir.path()), std::vector<std::string>{"empty"});
}

TEST(MovieWriter, BadNameSizeOrRateThrowsInputError) {
  ScratchDir dir;
  EXPECT_THROW(MovieWriter(dir / "m.avi", 16, 16, 10), InputError);
  EXPECT_THROW(MovieWriter(dir / "m", 16, 16, 10), InputError);
  EXPECT_THROW(MovieWriter(dir / "m.mp4", 0, 16, 10), InputError);
  EXPECT_THROW(MovieWriter(dir / "m.gif", 16, 16, 0), InputError);
  EXPECT_THROW(MovieWriter(dir / "m.gif", 16, 16, std::numeric_limits<double>::infinity()), InputError);
  EXPECT_TRUE(files_in(dir.path()).empty());
}

}  // namespace
}  // namespace pdex::io
