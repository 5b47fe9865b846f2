#pragma once
// GraphCache<Cuda>: a captured graph per pair of keys, for the last `capacity` pairs used. A time
// stepper solves into its two state buffers in turn, so its multigrid cycles alternate between two
// pairs; with one graph kept, every step would capture and instantiate its cycle again, a sizeable share
// of the step's time.
#include <cuda_runtime.h>

#include <array>
#include <cstdint>

#include "pdex/core/cuda/cuda_check.hpp"
#include "pdex/core/cuda/cuda_context.hpp"
#include "pdex/core/cuda/graph_capture.hpp"
#include "pdex/core/executor.hpp"

namespace pdex {

template <class Exec>
class GraphCache;

template <>
class GraphCache<Cuda> {
 public:
  static constexpr int capacity = 4;

  GraphCache() = default;
  GraphCache(const GraphCache&) = delete;
  GraphCache& operator=(const GraphCache&) = delete;
  ~GraphCache() {
    for (Entry& e : entries_)
      if (e.graph) (void)cudaGraphExecDestroy(e.graph);
  }

  // Replays the graph of (key1, key2), capturing `enqueue` first where there is none; a new pair takes
  // the place of the one used longest ago.
  template <class F>
  void run(const Cuda& ex, const void* key1, const void* key2, F&& enqueue) {
    cudaStream_t s = ex.context->stream();
    Entry* e = find(key1, key2);
    if (!e) {
      e = &least_recent();
      if (e->graph) PDEX_CUDA_CHECK(cudaGraphExecDestroy(e->graph));
      *e = Entry{key1, key2, nullptr, 0};
      e->graph = capture_graph(s, enqueue);
      ++captures_;
    }
    e->used = ++clock_;
    PDEX_CUDA_CHECK(cudaGraphLaunch(e->graph, s));
  }

  int captures() const { return captures_; }  // graphs captured so far

 private:
  struct Entry {
    const void* key1 = nullptr;
    const void* key2 = nullptr;
    cudaGraphExec_t graph = nullptr;
    uint64_t used = 0;  // clock_ at its last replay; 0: never
  };

  Entry* find(const void* key1, const void* key2) {
    for (Entry& e : entries_)
      if (e.graph && e.key1 == key1 && e.key2 == key2) return &e;
    return nullptr;
  }

  Entry& least_recent() {
    Entry* oldest = &entries_[0];
    for (Entry& e : entries_)
      if (e.used < oldest->used) oldest = &e;
    return *oldest;
  }

  std::array<Entry, capacity> entries_{};
  uint64_t clock_ = 0;
  int captures_ = 0;
};

}  // namespace pdex
