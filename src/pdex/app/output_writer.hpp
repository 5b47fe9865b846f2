#pragma once
// Writes a run's outputs (docs/outputs.md): per field and output step <field>_<step>.png / .npy; per
// output step fields_<step>.vti listed in fields.pvd; one fields.h5 (+ fields.xmf) and one movie per run.
// write() copies the fields to the host and a background thread writes the files while the run goes
// on, so that outputs cost the run little more than that copy; where host memory has no room for the copy
// (or output.background = "never"), the run waits for the files instead. Over MPI ranks with parallel HDF5, every
// rank writes its block into the HDF5 file instead, at the output (app/ranks.hpp: ranks_hdf5).
#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "pdex/app/field_copy.hpp"
#include "pdex/app/ranks.hpp"
#include "pdex/app/run_config.hpp"
#include "pdex/time/stepper.hpp"

namespace pdex {

class OutputWriter {
 public:
  // Creates the output folder; throws Error naming it when that fails, InputError when a movie is asked
  // for and ffmpeg is missing.
  explicit OutputWriter(const RunConfig& rc);
  ~OutputWriter();  // finishes the queued writes; a failure then is reported on stderr
  OutputWriter(const OutputWriter&) = delete;
  OutputWriter& operator=(const OutputWriter&) = delete;

  // A restarted run: the run's files (HDF5, .pvd, movies) are named after the step it continues from,
  // so that the first part's stay as they were.
  void continue_from(int64_t step);
  // Copies every requested field and queues the files of this output, or writes them before it returns
  // (see in_background); returns their names. Throws the Error of an earlier write that failed (a full disk).
  std::vector<std::string> write(Stepper& stepper, int64_t step, double time);
  // The outputs the run waited for (written before write() returned).
  int64_t waited() const { return waited_; }
  // Waits for the queued writes, then closes the run's files (HDF5 gets `summary` as an attribute);
  // throws the Error of a write that failed.
  void close(const nlohmann::json& summary);
  const std::string& dir() const { return dir_; }
  CopyBuffers& copy_buffers() { return buffers_; }
  // The files of the whole run (HDF5 and XDMF, .pvd, movies) by kind, for summary.json.
  nlohmann::json run_files() const;

 private:
  struct Series;  // the files of the whole run, written by the background thread alone
  struct Snapshot;
  class Queue;

  std::string run_file(const std::string& stem, const std::string& extension) const;
  void write_snapshot(Snapshot& snap);
  void write_picture(const std::string& stem, const FieldCopy& field) const;
  void add_frame(const Snapshot& snap, const FieldCopy& field);
  bool write_by_ranks(Stepper& stepper, const std::vector<int>& fields, int64_t step, double time);
  bool in_background(Stepper& stepper, const std::vector<int>& fields);

  const RunConfig& rc_;
  std::string dir_;
  int digits_;
  std::vector<std::pair<std::string, std::vector<double>>> params_;  // the per-cell parameters (VTK)
  CopyBuffers buffers_;  // the copies' buffers, reused (also by the run's checkpoints)
  std::unique_ptr<Series> series_;
  bool ranks_asked_ = false;             // whether the ranks were asked to write the HDF5 file
  std::unique_ptr<RanksHdf5> ranks_h5_;  // they do
  std::unique_ptr<Queue> queue_;
  int64_t waited_ = 0;
};

}  // namespace pdex
