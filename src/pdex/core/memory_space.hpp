#pragma once

namespace pdex {

// Where a buffer lives. Memory moves between spaces only through explicit copies (DESIGN principle 2).
enum class MemorySpace { host, device };

}  // namespace pdex
