#pragma once
// A library of the CUDA toolkit opened when first needed rather than linked (cuBLAS, cuSPARSE, NVRTC):
// linked, each would delay every start of every program, runs that never call it included.
#include <cuda_runtime_api.h>
#include <dlfcn.h>

#include <string>
#include <utility>

#include "pdex/core/error.hpp"

namespace pdex {

// A CUDA library, opened by its file name (found as the dynamic loader finds libraries: LD_LIBRARY_PATH,
// the program's run path, the system's cache) or else from the folder the CUDA runtime was loaded from.
class VendorLibrary {
 public:
  VendorLibrary(std::string name, const std::string& file) : name_(std::move(name)) {
    handle_ = dlopen(file.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle_) handle_ = dlopen((runtime_folder() + file).c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle_)
      throw Error(name_ + ": cannot load " + file + " (" + dlerror() + "); it comes with the CUDA toolkit: " +
                  "put the folder that holds it on LD_LIBRARY_PATH");
  }
  VendorLibrary(const VendorLibrary&) = delete;
  VendorLibrary& operator=(const VendorLibrary&) = delete;

  template <class F>
  F function(const char* symbol) const {
    if (void* f = dlsym(handle_, symbol)) return reinterpret_cast<F>(f);
    throw Error(name_ + ": the library has no function " + symbol);
  }

 private:
  static std::string runtime_folder() {
    Dl_info info{};
    if (!dladdr(reinterpret_cast<void*>(&cudaRuntimeGetVersion), &info) || !info.dli_fname) return {};
    const std::string path = info.dli_fname;
    return path.substr(0, path.find_last_of('/') + 1);
  }

  std::string name_;
  void* handle_ = nullptr;
};

}  // namespace pdex
