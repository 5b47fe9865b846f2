#pragma once
// The ranks of a run over MPI that write one HDF5 file together (parallel HDF5, Hdf5Series' `ranks`):
// their communicator, and how they agree that a step of theirs went well on every rank. Included by
// the MPI layer (src/pdex/mpi) and, where the HDF5 library has MPI-IO, by hdf5_series.cpp.
#include <mpi.h>

#include <functional>

namespace pdex::io {

struct Hdf5Ranks {
  MPI_Comm comm;
  // Runs `local` on every rank; false on every rank where it threw on any, rank 0 then throwing that
  // rank's error (app's all_ranks_ok).
  std::function<bool(const std::function<void()>&)> all_ok;
};

}  // namespace pdex::io
