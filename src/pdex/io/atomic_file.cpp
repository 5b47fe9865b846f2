#include "pdex/io/atomic_file.hpp"

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

}  // namespace pdex::io
