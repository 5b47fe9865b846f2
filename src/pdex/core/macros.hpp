#pragma once
// Portability macros for code that runs on the host and on the device.
// Kept free of standard-library includes: kernels and (later) NVRTC-compiled user code include it.

#if defined(__CUDACC__)
#define PDEX_HD __host__ __device__
#define PDEX_FORCEINLINE __forceinline__
#else
#define PDEX_HD
#define PDEX_FORCEINLINE inline __attribute__((always_inline))
#endif
