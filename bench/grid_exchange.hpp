#pragma once
// The floor of a round of a resident relaxation queue on the GPU (linalg/cuda/resident_sweep.cuh): what a
// grid barrier, and a barrier with the exchange of a tile's edges through L2, cost when no block does any
// arithmetic; and, for comparison, what a round costs among the blocks of a thread block cluster (Hopper),
// which exchange through each other's shared memory. Measured in the same run as the sweeps it explains
// (`pdex bench implicit`).

#include <vector>

namespace pdex::bench {

struct ExchangeFloor {
  int blocks = 0, threads = 0;
  double barrier_us = 0;   // one grid barrier (cooperative_groups' grid.sync, as the queues take)
  double exchange_us = 0;  // stores, barrier, loads: each thread stores two values, then loads two a
                           // neighbouring block stored, as a round's edges and ring
  // Clusters of 8 blocks, as many as fit, a block a multiprocessor; 0 where the GPU has no clusters.
  int cluster_blocks = 0;
  double cluster_release_us = 0;  // each thread stores a value, cluster barrier (release, acquire), loads the
                                  // next block's from its shared memory
  double cluster_relaxed_us = 0;  // the same with a relaxed barrier, which orders no memory: its floor
  double cluster_async_us = 0;    // each thread sends a value to each neighbour's shared memory (st.async),
                                  // each block waits on its own mbarrier for the bytes: no barrier, no fence
};

// A cooperative launch of a block a multiprocessor, for 256, 512 and 1024 threads a block (the resident
// queues' tile shapes); the median of several launches of 2,000 rounds each. Empty without a CUDA device.
std::vector<ExchangeFloor> grid_exchange_floor();

}  // namespace pdex::bench
