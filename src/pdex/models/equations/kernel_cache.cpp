#include "pdex/models/equations/kernel_cache.hpp"

#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>

namespace pdex::eq {

namespace fs = std::filesystem;

std::string environment(const char* name) {
  const char* v = std::getenv(name);
  return v ? v : "";
}

fs::path kernel_cache_dir() {
  fs::path dir;
  if (const std::string d = environment("PDEX_CACHE_DIR"); !d.empty()) dir = d;
  else if (const std::string x = environment("XDG_CACHE_HOME"); !x.empty()) dir = fs::path(x) / "pdex";
  else if (const std::string h = environment("HOME"); !h.empty()) dir = fs::path(h) / ".cache" / "pdex";
  else dir = fs::temp_directory_path() / ("pdex-cache-" + std::to_string(::getuid()));
  std::error_code ec;
  fs::create_directories(dir, ec);
  return dir;
}

std::string kernel_hash(const std::string& text) {
  std::uint64_t h = 1469598103934665603ull;
  for (unsigned char c : text) h = (h ^ c) * 1099511628211ull;
  char buf[20];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return buf;
}

bool write_whole(const fs::path& file, const std::string& bytes) {
  const fs::path partial = file.string() + "." + std::to_string(::getpid()) + ".partial";
  {
    std::ofstream out(partial, std::ios::binary);
    if (!(out << bytes)) return false;
  }
  std::error_code ec;
  fs::rename(partial, file, ec);
  return !ec;
}

}  // namespace pdex::eq
