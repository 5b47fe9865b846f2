#pragma once
// A field as the host copies it for outputs and checkpoints: the block of rows where the stepper keeps
// it, in one copy (from the device into page-locked memory, or host memory), handed to the writers as it
// is (io::NamedValues: padded rows of floats or doubles), off the run's critical path.
#include <cstddef>
#include <mutex>
#include <string>
#include <vector>

#include "pdex/core/host_block.hpp"
#include "pdex/io/field_files.hpp"
#include "pdex/time/stepper.hpp"

namespace pdex {

// One field at one output as the host copied it: the block of rows where the stepper keeps it (one copy
// from the device; a 3D field's planes one after another), or, where the stepper shares no memory, its
// values.
struct FieldCopy {
  std::string name;
  FieldMemory layout;
  HostBlock rows;
  std::vector<double> values;

  // The copy as the writers take it.
  io::NamedValues view() const;
  // Row-major [y][x] ([z][y][x]) doubles, for pictures (in the background thread: the copy is all the run
  // waits for).
  const std::vector<double>& row_major();
};

// Copy buffers that writers are done with, for the next copies: a fresh buffer costs its page faults, and
// a page-locked one its locking. Shared by the run's thread and the writing thread.
class CopyBuffers {
 public:
  HostBlock take(std::size_t bytes, bool pinned);  // a kept buffer that fits (a run's copies are alike), or a new one
  void give(HostBlock block);

 private:
  std::mutex m_;
  std::vector<HostBlock> kept_;
};

// Copies field f of the stepper into a buffer of `buffers`.
FieldCopy copy_field(Stepper& s, int f, CopyBuffers& buffers);

}  // namespace pdex
