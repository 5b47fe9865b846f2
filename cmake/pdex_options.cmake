# Compile options shared by every pdex target.
set(PDEX_CXX_WARNINGS -Wall -Wextra -Wpedantic -Wshadow -Wno-unknown-pragmas $<$<BOOL:${PDEX_WERROR}>:-Werror>)
# Set on every target defined under tests/ (tests/CMakeLists.txt sets the variable).
define_property(TARGET PROPERTY PDEX_TEST_CODE INITIALIZE_FROM_VARIABLE PDEX_TEST_CODE)
add_library(pdex_options INTERFACE)
target_compile_options(pdex_options INTERFACE
  $<$<COMPILE_LANGUAGE:CXX>:${PDEX_CXX_WARNINGS}>
  # Serial and OpenMP must round alike: no FMA contraction, whose placement differs between the loops.
  $<$<COMPILE_LANGUAGE:CXX>:-ffp-contract=off>
  # Position-independent code (for the Python module) without semantic interposition: calls within a
  # library are bound and inlined as in the executable.
  $<$<COMPILE_LANGUAGE:CXX>:-fno-semantic-interposition>
  # Test code (PDEX_TEST_CODE) at -O1: it is assertions and setup, which -O3 took 1.6 times as long to
  # compile; the engine it tests stays at -O3.
  # -mno-fma: GCC 12's vectorizer fuses a product into the add-subtract of two lanes (vfmsubadd) even
  # with -ffp-contract=off, as it did in the 3D Brusselator's f64 host loops, which then differed from the GPU.
  $<$<AND:$<COMPILE_LANGUAGE:CXX>,$<CONFIG:Release>>:$<IF:$<BOOL:$<TARGET_PROPERTY:PDEX_TEST_CODE>>,-O1,-O3> -march=x86-64-v3 -mno-fma -fno-math-errno>
  $<$<COMPILE_LANGUAGE:CUDA>:--extended-lambda --expt-relaxed-constexpr -Xcompiler=-Wall,-Wextra,-Wno-unknown-pragmas,-fno-semantic-interposition>
  # The GPU rounds as the host does (-ffp-contract=off above): no multiply-add fused by the compiler, whose
  # placement differs from kernel to kernel, so that the same operations give the same bits everywhere.
  $<$<COMPILE_LANGUAGE:CUDA>:--fmad=false>
  # nvcc optimizes a translation unit's kernels on every core: engine_cuda.cu, which holds them all, was
  # most of a two-core build's time on one core.
  $<$<COMPILE_LANGUAGE:CUDA>:--split-compile=0>
  $<$<AND:$<COMPILE_LANGUAGE:CUDA>,$<BOOL:${PDEX_WERROR}>>:-Werror=all-warnings>
  $<$<AND:$<COMPILE_LANGUAGE:CUDA>,$<CONFIG:Release>,$<NOT:$<BOOL:${PDEX_CUDA_FAST_COMPILE}>>>:-O3 -Xcompiler=-O3,-fno-math-errno>
  # A compile check's host code at -O1 as well: mostly launches, compiled in half the time of -O3.
  $<$<AND:$<COMPILE_LANGUAGE:CUDA>,$<BOOL:${PDEX_CUDA_FAST_COMPILE}>>:-Ofc=max -O1 -Xcompiler=-O1,-fno-math-errno>)
if(PDEX_HAVE_CUDA)
  target_compile_definitions(pdex_options INTERFACE PDEX_HAVE_CUDA=1
                             $<$<BOOL:${PDEX_CUDA_FAST_COMPILE}>:PDEX_CUDA_FAST_COMPILE=1>)
  target_link_libraries(pdex_options INTERFACE CUDA::cudart)
endif()
target_link_libraries(pdex_options INTERFACE OpenMP::OpenMP_CXX)
# A sanitized build (PDEX_SANITIZE, scripts/sanitize.sh): every undefined-behaviour report stops the
# program, so that a test fails on it rather than printing it and passing.
if(PDEX_SANITIZE)
  set(PDEX_SANITIZE_FLAGS -fsanitize=${PDEX_SANITIZE} -fno-omit-frame-pointer -fno-sanitize-recover=undefined)
  target_compile_options(pdex_options INTERFACE $<$<COMPILE_LANGUAGE:CXX>:${PDEX_SANITIZE_FLAGS}>)
  target_link_options(pdex_options INTERFACE ${PDEX_SANITIZE_FLAGS})
endif()
