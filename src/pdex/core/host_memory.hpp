#pragma once
// Host memory the process may still take, read from Linux's files: the system's `meminfo` (MemAvailable),
// and, where the process's cgroup v2 folder `cgroup` sets a limit (memory.max), that limit less the
// cgroup's usage (memory.current) but for the page cache it would drop first (memory.stat's
// inactive_file). The largest size_t where neither can be read. host_available_bytes() (memory_stats.hpp)
// reads the running system's, within the budget a user may set; tests give files of their own.
#include <cstddef>
#include <string>

namespace pdex {

std::size_t available_bytes(const std::string& meminfo, const std::string& cgroup);

// What a budget of host memory (the environment's PDEX_HOST_MEMORY: a number of bytes, K, M, G or T
// after it for powers of 1024, e.g. "8G") leaves a process that holds `resident` bytes. Throws InputError
// naming the variable for anything else.
std::size_t budget_left(const std::string& budget, std::size_t resident);

}  // namespace pdex
