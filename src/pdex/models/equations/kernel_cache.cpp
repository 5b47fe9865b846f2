#include "pdex/models/equations/kernel_cache.hpp"

#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>

#include "pdex/core/hash.hpp"
#include "pdex/models/equations/jit_headers.hpp"

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
  char buf[20];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(fnv1a(text)));
  return buf;
}

const std::string& jit_headers_hash() {
  static const std::string hash = [] {
    std::string all;
    for (const JitHeader& h : jit_headers()) all.append(h.name).append(1, '\0').append(h.text).append(1, '\0');
    return kernel_hash(all);
  }();
  return hash;
}

fs::path jit_include_dir() {
  const fs::path dir = kernel_cache_dir() / ("include-" + jit_headers_hash()), complete = dir / ".complete";
  if (fs::exists(complete)) return dir;
  std::error_code ec;
  for (const JitHeader& h : jit_headers()) {
    fs::create_directories((dir / h.name).parent_path(), ec);
    write_whole(dir / h.name, h.text);
  }
  write_whole(complete, "");
  return dir;
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
