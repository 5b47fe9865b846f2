#pragma once
// Output files are written under a temporary name beside their own and renamed into place when whole,
// so that a reader, or a run stopped mid-write (Ctrl-C, a full disk, SIGKILL), never finds a half-written
// file: the file is the last complete version or absent.
#include <cstdio>
#include <filesystem>
#include <string>

namespace pdex::io {

class AtomicFile {
 public:
  // Opens "<file>.<pid>.partial" for writing; throws Error naming `file`.
  explicit AtomicFile(std::filesystem::path file);
  ~AtomicFile();  // a file never committed leaves nothing behind
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  std::FILE* get() const { return f_; }
  // Closes the file (its buffer flushed: a full disk may show only here) and renames it into place;
  // throws Error naming the file and the reason, `failure` where the caller's writes failed already.
  void commit(const std::string& failure = "");

 private:
  std::filesystem::path file_, partial_;
  std::FILE* f_ = nullptr;
};

// Removes what writers killed mid-write (SIGKILL, a crash) left in `dir`: files and folders named
// "<name>.<pid>.partial[.ext]" whose process is gone. Returns how many.
int remove_stale_partials(const std::filesystem::path& dir);

// `text` as the whole of `file`, written so.
void write_text_file(const std::filesystem::path& file, const std::string& text);

}  // namespace pdex::io
