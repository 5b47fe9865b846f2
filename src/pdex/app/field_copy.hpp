#pragma once
// A field as the writers of outputs and checkpoints take it: the block of rows where the stepper keeps it,
// in one copy (from the device into page-locked memory, or host memory) that the writers read off the
// run's critical path, or, for a write the run waits for, the stepper's own host memory, without a copy.
// Either way the writers get the rows as they are (io::NamedValues: padded rows of floats or doubles).
#include <cstddef>
#include <mutex>
#include <string>
#include <vector>

#include "pdex/core/host_block.hpp"
#include "pdex/io/field_files.hpp"
#include "pdex/time/stepper.hpp"

namespace pdex {

// One field at one output: the block of rows where the stepper keeps it, copied (one copy from the device;
// a 3D field's planes one after another) or in place, or, where the stepper shares no memory, its values.
struct FieldCopy {
  std::string name;
  FieldMemory layout;  // where the rows lie: `rows`, or the stepper's memory (in place)
  HostBlock rows;
  std::vector<double> values;

  // The copy as the writers take it.
  io::NamedValues view() const;
};

// Copy buffers that writers are done with, for the next copies: a fresh buffer costs its page faults, and
// a page-locked one its locking. Shared by the run's thread and the writing thread.
class CopyBuffers {
 public:
  HostBlock take(std::size_t bytes, bool pinned);  // a kept buffer that fits (a run's copies are alike), or a new one
  void give(HostBlock block);
  std::size_t kept_bytes();  // the buffers' bytes that wait to be taken

 private:
  std::mutex m_;
  std::vector<HostBlock> kept_;
};

// Copies field f of the stepper into a buffer of `buffers`.
FieldCopy copy_field(Stepper& s, int f, CopyBuffers& buffers);
// Field f where the stepper keeps it, without a copy, where that is host memory (else a copy into
// `buffers`): for writes that finish before the stepper moves on.
FieldCopy field_in_place(Stepper& s, int f, CopyBuffers& buffers);
// The bytes that copy_field takes for field f (0 where the stepper shares no memory).
std::size_t copy_bytes(Stepper& s, int f);

}  // namespace pdex
