#pragma once
// pdex's version, as summary.json, checkpoints and `pdex --version` report it; keep it equal to
// CMakeLists.txt's project version.
namespace pdex {
inline constexpr const char* version = "0.1.0";
}
