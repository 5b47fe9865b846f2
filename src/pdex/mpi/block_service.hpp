#pragma once
// The protocol between the ranks of a run split into blocks (app/ranks.hpp): rank 0 broadcasts each
// Stepper call as a Command and every rank performs it on its block, the collectives in the same order
// everywhere; the results meet on rank 0. DistributedStepper is rank 0's Stepper; serve_block the loop
// of the others.
#include <mpi.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "pdex/app/field_copy.hpp"
#include "pdex/app/ranks.hpp"
#include "pdex/core/error.hpp"
#include "pdex/grid/blocks.hpp"
#include "pdex/grid/halo.hpp"
#include "pdex/mpi/mpi_halo.hpp"
#include "pdex/io/hdf5_ranks.hpp"
#include "pdex/io/hdf5_series.hpp"
#include "pdex/models/family.hpp"
#include "pdex/time/stepper.hpp"

namespace pdex {

// One rank's part of the run: its exchange, its block's setup and stepper (which points at the
// exchange, so is destroyed first).
struct BlockRun {
  std::unique_ptr<MpiHalo> halo;
  std::unique_ptr<ModelSetup> setup;
  std::unique_ptr<Stepper> own;
  nlohmann::json schedule;  // how the block steps (ModelSetup::schedule of the block's setup)
};

// Runs `local` on every rank. Where it throws on any, every rank returns false, and rank 0 throws the
// error of the lowest rank that failed (its kind kept, the rank named); otherwise true.
bool all_ranks_ok(MPI_Comm comm, const std::function<void()>& local);

struct Command {
  enum Op : int {
    advance, advance_to, values, stats, first_nonfinite, set_values, set_time, extra_state, set_extra_state, save, restore,
    refresh, warning, timing, hdf5_open, hdf5_write, hdf5_close, quit
  };
  int op = quit;
  int field = 0;
  int64_t steps = 0;
  double t = 0;
};

class BlockService {
 public:
  BlockService(MPI_Comm comm, const Extents2& whole, const ProcessGrid& pg, BlockRun run);
  // Rank 0: sends c to the other ranks, then performs it; throws what any rank's share threw.
  void issue(const Command& c);
  // The other ranks: performs rank 0's commands until it sends quit.
  void serve();

  Stepper& own() const { return *run_.own; }
  const Extents2& whole() const { return whole_; }
  const Block& block() const { return blocks_[std::size_t(rank_)]; }
  // Results on rank 0 of the last command of their kind.
  std::vector<double> values;  // also set_values' input
  std::vector<NamedArray> extra;  // also set_extra_state's input: per-cell arrays over the whole grid
  FieldStats stats{};
  int64_t first_nonfinite = -1;
  std::string warning;  // rank 0's: a stepper's warning decides over the ranks where it needs them
  nlohmann::json timing;
  // Inputs on rank 0 of the HDF5 commands: the file to open, the fields of a step, the closing summary.
  Hdf5Opening hdf5_opening;
  std::vector<int> hdf5_fields;
  std::string hdf5_summary;

 private:
  void perform(const Command& c);
  std::vector<double> gather_cells(const std::vector<double>& mine);
  std::vector<double> scatter_cells(const std::vector<double>& whole);
  void gather_extra_state(std::vector<NamedArray> mine);
  void share_extra_state();
  void gather_timing();
  void open_hdf5();
  void write_hdf5(const Command& c);
  void close_hdf5();

  MPI_Comm comm_;
  int rank_ = 0, size_ = 1;
  Extents2 whole_;
  ProcessGrid pg_;
  std::vector<Block> blocks_;  // every rank's, by rank
  std::vector<int> counts_, offsets_;  // their cells, and where each starts in a gathered array
  BlockRun run_;
  double step_seconds_ = 0;
  io::Hdf5Ranks h5_ranks_;
  std::unique_ptr<io::Hdf5Series> h5_;  // the run's HDF5 file, this rank's share of it
  CopyBuffers buffers_;                 // its fields' copies
};

// Rank 0's Stepper of the whole grid. A MolStepper, so that runs by simulated time (rk4, Merson) go
// through it too; their clocks agree on every rank (Merson's step sizes come from the largest error
// estimate over the ranks).
class DistributedStepper final : public MolStepper {
 public:
  explicit DistributedStepper(std::unique_ptr<BlockService> service) : s_(std::move(service)) {}
  ~DistributedStepper() override;

  const std::vector<std::string>& field_names() const override { return s_->own().field_names(); }
  void advance(int64_t steps) override { s_->issue({Command::advance, 0, steps, 0}); }
  void advance_to(double t, int64_t max_steps) override { s_->issue({Command::advance_to, 0, max_steps, t}); }
  double time() const override;
  const StepStats& step_stats() const override;
  // Rank 0's solves: every rank's take the same iterations (their products are summed over the ranks).
  const SolverTotals* solver_totals() const override { return s_->own().solver_totals(); }
  void set_time(double t) override { s_->issue({Command::set_time, 0, 0, t}); }
  std::vector<NamedArray> extra_state() override;
  void set_extra_state(const std::vector<NamedArray>& state) override;
  std::vector<double> values(int field) override;
  FieldStats stats(int field) override;
  int64_t first_nonfinite(int field) override;
  bool settable(int field) const override { return s_->own().settable(field); }
  void set_values(int field, const std::vector<double>& v) override;
  void refresh_ghosts() override { s_->issue({Command::refresh, 0, 0, 0}); }
  void save() override { s_->issue({Command::save, 0, 0, 0}); }
  void restore() override { s_->issue({Command::restore, 0, 0, 0}); }
  double bytes_per_step() const override;
  std::string warning() override;
  // summary.json's "ranks" (app/ranks.hpp).
  nlohmann::json ranks();
  // The run's HDF5 file, written by every rank (ranks_hdf5 in app/ranks.hpp).
  void open_hdf5(const Hdf5Opening& opening);
  void write_hdf5(int64_t step, double time, const std::vector<int>& fields);
  void close_hdf5(const std::string& summary);

 private:
  std::unique_ptr<BlockService> s_;
};

}  // namespace pdex
