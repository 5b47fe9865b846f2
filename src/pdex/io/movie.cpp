#include "pdex/io/movie.hpp"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <fstream>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

#include "pdex/core/error.hpp"

extern char** environ;

namespace pdex::io {

namespace {

constexpr std::size_t log_lines = 6;  // of ffmpeg's log, in an error message

class Fd {
 public:
  explicit Fd(int fd) : fd_(fd) {}
  ~Fd() {
    if (fd_ >= 0) ::close(fd_);
  }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  int get() const { return fd_; }
  int release() { return std::exchange(fd_, -1); }

 private:
  int fd_;
};

std::string number_text(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.10g", v);
  return buf;
}

std::string even(int n) { return std::to_string(n + n % 2); }

// Raw RGB frames on stdin, encoded into `partial` as its extension asks.
std::vector<std::string> ffmpeg_args(const std::filesystem::path& partial, int width, int height, double fps) {
  const std::string size = std::to_string(width) + "x" + std::to_string(height);
  std::vector<std::string> args{"ffmpeg", "-nostdin", "-hide_banner", "-nostats", "-loglevel", "warning", "-y"};
  args.insert(args.end(), {"-f", "rawvideo", "-pix_fmt", "rgb24", "-s", size, "-r", number_text(fps), "-i", "-"});
  if (partial.extension() == ".mp4") {
    // yuv420p halves the chroma resolution, so its sides must be even; players assume BT.709 colours.
    const std::string pad = "pad=" + even(width) + ":" + even(height) + ":0:0:white";
    args.insert(args.end(), {"-vf", pad + ",scale=out_color_matrix=bt709:out_range=tv,format=yuv420p", "-c:v",
                             "libx264", "-crf", "18", "-colorspace", "bt709", "-color_primaries", "bt709", "-color_trc",
                             "bt709", "-color_range", "tv", "-movflags", "+faststart"});
  } else {
    // One palette for the whole movie: palettegen sees every frame before paletteuse maps them.
    args.insert(args.end(), {"-vf", "split[a][b];[a]palettegen[p];[b][p]paletteuse"});
  }
  args.push_back(partial.string());
  return args;
}

// Starts `args` with stdin_fd as its stdin and log_fd as its stdout and stderr, in a process group
// of its own and with default signal handling whatever the caller set (Python ignores SIGPIPE, say).
// Returns 0 or the errno of the failure (ENOENT: not on PATH).
int spawn(const std::vector<std::string>& args, int stdin_fd, int log_fd, pid_t& pid) {
  std::vector<char*> argv;
  for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, stdin_fd, STDIN_FILENO);
  posix_spawn_file_actions_adddup2(&actions, log_fd, STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, log_fd, STDERR_FILENO);
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  sigset_t none, all;
  sigemptyset(&none);
  sigfillset(&all);
  posix_spawnattr_setsigmask(&attr, &none);
  posix_spawnattr_setsigdefault(&attr, &all);
  posix_spawnattr_setpgroup(&attr, 0);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP);
  const int err = posix_spawnp(&pid, argv[0], &actions, &attr, argv.data(), environ);
  posix_spawnattr_destroy(&attr);
  posix_spawn_file_actions_destroy(&actions);
  return err;
}

// A new file in the temporary folder for ffmpeg's output, open for writing; `log` gets its name.
int create_log(std::filesystem::path& log) {
  std::string name = (std::filesystem::temp_directory_path() / "pdex-ffmpeg-XXXXXX.log").string();
  const int fd = ::mkostemps(name.data(), 4, O_CLOEXEC);
  if (fd < 0) throw Error("cannot create a log file for ffmpeg: " + name + " (" + std::strerror(errno) + ")");
  log = name;
  return fd;
}

void remove_quietly(const std::filesystem::path& file) {
  std::error_code ignored;
  std::filesystem::remove(file, ignored);
}

// Writes all of data, with SIGPIPE blocked in this thread: an ffmpeg that has died shows as EPIPE
// instead of killing pdex. The SIGPIPE such a write raises is taken off the pending set, unless one
// was pending already. False with errno set on failure.
bool write_all(int fd, const std::uint8_t* data, std::size_t size) {
  sigset_t pipe_signal, old;
  sigemptyset(&pipe_signal);
  sigaddset(&pipe_signal, SIGPIPE);
  pthread_sigmask(SIG_BLOCK, &pipe_signal, &old);
  sigset_t pending;
  sigpending(&pending);
  const bool was_pending = sigismember(&pending, SIGPIPE) == 1;
  bool ok = true;
  while (size > 0) {
    const ssize_t n = ::write(fd, data, size);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      ok = false;
      break;
    }
    data += n;
    size -= static_cast<std::size_t>(n);
  }
  const int saved = errno;
  if (!ok && saved == EPIPE && !was_pending) {
    const timespec now{};
    sigtimedwait(&pipe_signal, nullptr, &now);
  }
  pthread_sigmask(SIG_SETMASK, &old, nullptr);
  errno = saved;
  return ok;
}

bool exited_cleanly(int status) { return WIFEXITED(status) && WEXITSTATUS(status) == 0; }

// How ffmpeg ended, and the last lines of its log.
std::string failure(int status, const std::filesystem::path& log) {
  std::string text = WIFEXITED(status) ? "exit status " + std::to_string(WEXITSTATUS(status))
                                       : "signal " + std::to_string(WTERMSIG(status));
  std::ifstream in(log);
  std::deque<std::string> lines;
  for (std::string line; std::getline(in, line);) {
    if (line.empty()) continue;
    lines.push_back(line);
    if (lines.size() > log_lines) lines.pop_front();
  }
  if (lines.empty()) return text + "; it wrote no log";
  text += "; the end of its log:";
  for (const std::string& line : lines) text += "\n  " + line;
  return text;
}

}  // namespace

bool ffmpeg_available() {
  const char* path = std::getenv("PATH");
  const std::string_view dirs = path ? path : "/usr/bin:/bin";  // posix_spawnp's search without PATH
  std::size_t start = 0;
  while (start <= dirs.size()) {
    std::size_t end = dirs.find(':', start);
    if (end == std::string_view::npos) end = dirs.size();
    const std::string dir(dirs.substr(start, end - start));
    const std::filesystem::path exe = std::filesystem::path(dir.empty() ? "." : dir) / "ffmpeg";
    std::error_code ec;
    if (std::filesystem::is_regular_file(exe, ec) && ::access(exe.c_str(), X_OK) == 0) return true;
    start = end + 1;
  }
  return false;
}

MovieWriter::MovieWriter(std::filesystem::path file, int width, int height, double fps)
    : file_(std::move(file)), width_(width), height_(height) {
  const std::string where = file_.string(), ext = file_.extension().string();
  if (ext != ".mp4" && ext != ".gif") throw InputError(where + ": a movie's name must end in .mp4 or .gif");
  if (width < 1 || height < 1) {
    throw InputError(where + ": cannot make a movie of " + std::to_string(width) + "x" + std::to_string(height) +
                     " pixels");
  }
  if (!(std::isfinite(fps) && fps > 0)) {
    throw InputError(where + ": a movie's frame rate must be positive, got " + number_text(fps));
  }
  // ffmpeg picks the format by the extension, so the partial name keeps it.
  partial_ = where + "." + std::to_string(::getpid()) + ".partial" + ext;
  const Fd log(create_log(log_));
  int ends[2];
  if (::pipe2(ends, O_CLOEXEC) != 0) {
    const std::string why = std::strerror(errno);
    remove_quietly(log_);
    throw Error(where + ": cannot make a pipe to ffmpeg (" + why + ")");
  }
  const Fd read_end(ends[0]);
  Fd write_end(ends[1]);
  const int err = spawn(ffmpeg_args(partial_, width, height, fps), read_end.get(), log.get(), child_);
  if (err != 0) {
    child_ = -1;
    remove_quietly(log_);
    if (err == ENOENT) {
      throw InputError(where + ": output.formats includes \"movie\" but ffmpeg was not found on PATH; " +
                       "install it (apt-get install ffmpeg)");
    }
    throw Error(where + ": cannot start ffmpeg (" + std::strerror(err) + ")");
  }
  pipe_ = write_end.release();
}

MovieWriter::~MovieWriter() {
  if (child_ < 0) return;
  ::kill(child_, SIGKILL);
  wait_child();
  remove_quietly(log_);
  remove_quietly(partial_);
}

void MovieWriter::add_frame(const Image& frame) {
  const std::string where = file_.string();
  if (child_ < 0) throw Error(where + ": cannot add a frame to a movie already closed");
  if (frame.width != width_ || frame.height != height_) {
    throw Error(where + ": a frame of " + std::to_string(frame.width) + "x" + std::to_string(frame.height) +
                " pixels in a movie of " + std::to_string(width_) + "x" + std::to_string(height_));
  }
  if (write_all(pipe_, frame.rgb.data(), frame.rgb.size())) {
    ++frames_;
    return;
  }
  // EPIPE: ffmpeg has stopped reading, so it is exiting; any other error leaves it waiting for frames.
  if (errno != EPIPE) ::kill(child_, SIGKILL);
  const std::string why = failure(wait_child(), log_);
  remove_quietly(log_);
  remove_quietly(partial_);
  throw Error(where + ": cannot write movie: ffmpeg failed at frame " + std::to_string(frames_ + 1) + " with " + why);
}

void MovieWriter::close() {
  if (child_ < 0) return;
  const std::string where = file_.string();
  const int status = wait_child();
  std::string why;
  if (frames_ == 0) {
    why = "no frames";
  } else if (!exited_cleanly(status)) {
    why = "ffmpeg failed with " + failure(status, log_);
  }
  remove_quietly(log_);
  std::error_code ec;
  if (why.empty()) {
    std::filesystem::rename(partial_, file_, ec);
    if (!ec) return;
    why = ec.message();
  }
  remove_quietly(partial_);
  throw Error(where + ": cannot write movie: " + why);
}

int MovieWriter::wait_child() {
  ::close(pipe_);  // ffmpeg sees the end of its input
  pipe_ = -1;
  int status = 0;
  while (::waitpid(child_, &status, 0) < 0 && errno == EINTR) {
  }
  child_ = -1;
  return status;
}

}  // namespace pdex::io
