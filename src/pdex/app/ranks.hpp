#pragma once
// The job's MPI ranks (docs/parallel.md). `mpirun -n P pdex run FILE` splits the grid into P blocks
// (grid/blocks.hpp): rank 0 runs the Simulation as one process does, through a Stepper whose every call
// the other ranks serve on their blocks (serve_run), so that outputs, checks and the summary stay where
// they are. A build without MPI, or a process not started by mpirun, is rank 0 of 1 and runs as before.
#include <nlohmann/json.hpp>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "pdex/app/run_config.hpp"
#include "pdex/io/field_files.hpp"
#include "pdex/time/stepper.hpp"

namespace pdex {

// Starts MPI where the process was launched as one of several ranks (and ends it on destruction); a
// launch of several ranks by a pdex built without MPI is refused with what to install.
class RankSession {
 public:
  RankSession(int& argc, char**& argv);
  ~RankSession();
  RankSession(const RankSession&) = delete;
  RankSession& operator=(const RankSession&) = delete;
};

int job_rank();
int job_size();

// The stepper of a run: its setup's on one rank; over several, rank 0's face of the whole grid.
std::unique_ptr<Stepper> make_run_stepper(const RunConfig& rc);

// Ranks other than 0: builds this rank's block of rc's run and serves rank 0's calls until the run
// ends. Returns the process's exit status.
int serve_run(const RunConfig& rc);

// What the ranks need to open the run's HDF5 file together: its name, the whole grid, the stored
// precision, the configuration (an attribute) and the per-cell parameters (rank 0's, over the whole grid).
struct Hdf5Opening {
  std::string file;
  io::ImageGrid grid;
  io::StoreAs store = io::StoreAs::f64;
  std::string config;
  std::vector<io::NamedValues> params;
};

// Rank 0's handle on the run's HDF5 file that every rank writes its block into (parallel HDF5).
class RanksHdf5 {
 public:
  virtual ~RanksHdf5() = default;
  // The step's group with the stepper's fields `fields` (their indices), each rank's block from its own
  // memory.
  virtual void write(int64_t step, double time, const std::vector<int>& fields) = 0;
  // Closes the file on every rank, `summary` an attribute, and renames it into place.
  virtual void close(const std::string& summary) = 0;
};

// Opens the HDF5 file on every rank of a run made by make_run_stepper; null on one rank or where the HDF5
// library has no MPI-IO (rank 0 then writes the fields it gathers, as one process does).
std::unique_ptr<RanksHdf5> ranks_hdf5(Stepper& stepper, const Hdf5Opening& opening);

// summary.json's "ranks" of a run made by make_run_stepper: the process grid and each rank's block,
// stepping and exchange seconds; null on one rank.
nlohmann::json ranks_json(Stepper& stepper);

}  // namespace pdex
