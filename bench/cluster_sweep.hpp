#pragma once
// What red-black sweeps cost inside thread block clusters (Hopper), where blocks exchange their tiles'
// edges through each other's shared memory after every half-sweep and take no grid barrier: the part of a
// cluster design for the resident queues (linalg/cuda/resident_sweep.cuh) that such a design could not
// do without. Each cluster of 8 blocks (2 x 4 tiles of n/8 x n/16 cells) sweeps a region of its own with
// Dirichlet zero around it, as many regions as clusters fit (15 on an H100: 0.94 of an n x n grid); no
// exchange between clusters, no test. Measured in `pdex bench implicit` beside the sweeps it bounds.

#include <vector>

namespace pdex::bench {

struct ClusterSweep {
  int n = 0;        // the grid the tiles are sized for (n/8 x n/16)
  int threads = 0;  // a block
  int clusters = 0;
  double cells = 0;        // swept: clusters x (n/4 x n/4)
  double sweep_us = 0;     // a red-black sweep of all regions
  double worst_diff = 0;   // largest |difference| from the host's sweeps of two regions (40 sweeps)
};

// For n = 256 and 512, 256 and 512 threads a block; empty without a GPU with clusters.
std::vector<ClusterSweep> cluster_sweeps();

}  // namespace pdex::bench
