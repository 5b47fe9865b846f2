#pragma once
// Where the compiled forms of text models are kept between runs ($PDEX_CACHE_DIR, else
// $XDG_CACHE_HOME/pdex, else ~/.cache/pdex), and the names they are kept under.
#include <filesystem>
#include <string>

namespace pdex::eq {

// An environment variable's value, or empty.
std::string environment(const char* name);

// The cache folder, created if missing.
std::filesystem::path kernel_cache_dir();

// 16 hex digits of the FNV-1a hash of `text`: the same on every run and machine.
std::string kernel_hash(const std::string& text);

// The cache's copy of pdex's headers for generated code (jit_headers.hpp), written on first use: the
// folder to include from.
std::filesystem::path jit_include_dir();

// Writes `bytes` to `file` whole or not at all (a temporary beside it, renamed): a concurrent run finds
// the complete file or none. False when it cannot be written.
bool write_whole(const std::filesystem::path& file, const std::string& bytes);

}  // namespace pdex::eq
