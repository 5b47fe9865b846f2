#pragma once
// Host memory the process may still take, read from Linux's files: the system's `meminfo` (MemAvailable),
// and, where the process's cgroup v2 folder `cgroup` sets a limit (memory.max), that limit less the
// cgroup's usage (memory.current) but for the page cache it would drop first (memory.stat's
// inactive_file). The largest size_t where neither can be read. host_available_bytes() (memory_stats.hpp)
// reads the running system's; tests give files of their own.
#include <cstddef>
#include <string>

namespace pdex {

std::size_t available_bytes(const std::string& meminfo, const std::string& cgroup);

}  // namespace pdex
