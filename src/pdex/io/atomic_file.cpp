#include "pdex/io/atomic_file.hpp"

#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <system_error>
#include <utility>

#include "pdex/core/error.hpp"

namespace pdex::io {

AtomicFile::AtomicFile(std::filesystem::path file)
    : file_(std::move(file)), partial_(file_.string() + "." + std::to_string(::getpid()) + ".partial") {
  errno = 0;
  f_ = std::fopen(partial_.c_str(), "wb");
  if (!f_) throw Error(file_.string() + ": cannot create file (" + std::strerror(errno) + ")");
}

AtomicFile::~AtomicFile() {
  if (!f_) return;
  std::fclose(f_);
  std::error_code ignored;
  std::filesystem::remove(partial_, ignored);
}

void AtomicFile::commit(const std::string& failure) {
  std::string why = failure;
  if (why.empty() && std::ferror(f_)) why = "an I/O error";
  errno = 0;
  if (std::fclose(f_) != 0 && why.empty()) why = std::strerror(errno);
  f_ = nullptr;
  std::error_code ec;
  if (why.empty()) {
    std::filesystem::rename(partial_, file_, ec);
    if (!ec) return;
    why = ec.message();
  }
  std::filesystem::remove(partial_, ec);
  throw Error(file_.string() + ": write failed (" + why + ")");
}

void write_text_file(const std::filesystem::path& file, const std::string& text) {
  AtomicFile f(file);
  const bool ok = std::fwrite(text.data(), 1, text.size(), f.get()) == text.size();
  f.commit(ok ? "" : std::strerror(errno));
}

namespace {

// The pid in "<name>.<pid>.partial[.ext]", or 0.
pid_t partial_pid(const std::string& name) {
  const std::size_t at = name.rfind(".partial");
  if (at == std::string::npos) return 0;
  const std::size_t dot = name.rfind('.', at == 0 ? 0 : at - 1);
  if (dot == std::string::npos || dot + 1 >= at) return 0;
  const std::string digits = name.substr(dot + 1, at - dot - 1);
  if (digits.find_first_not_of("0123456789") != std::string::npos || digits.size() > 9) return 0;
  return pid_t(std::stol(digits));
}

}  // namespace

int remove_stale_partials(const std::filesystem::path& dir) {
  int removed = 0;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(dir, ec)) {
    const pid_t pid = partial_pid(e.path().filename().string());
    if (pid <= 0 || ::kill(pid, 0) == 0 || errno != ESRCH) continue;  // not a partial, or its writer lives
    std::filesystem::remove_all(e.path(), ec);
    removed += ec ? 0 : 1;
  }
  return removed;
}

}  // namespace pdex::io
