#pragma once
// The run-time face of a configured model + integrator + executor + precision. Everything below it
// is templated; the application sees only this interface (dispatch once, at the top: principle 1).
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "pdex/core/error.hpp"
#include "pdex/time/quantized.hpp"
#include "pdex/time/rk/step_control.hpp"

namespace pdex {

struct FieldStats {
  double min = 0, max = 0, mean = 0;
};

// What the linear solves of an implicit scheme did over a run (summary.json's "solver").
struct SolverTotals {
  int64_t solves = 0, iterations = 0, unconverged = 0;
  int64_t one_launch = 0;  // solves whose first sweeps ran in one launch with the step (CUDA theta tiles)
  int64_t at_floor = 0;    // solves that stopped above their tolerance, at the precision's rounding floor
  int max_iterations = 0;
  double max_residual = 0, seconds = 0;
  std::vector<int> iterations_per_solve;   // the first `kept` solves
  std::vector<double> residual_per_solve;
  std::vector<double> last_history;         // residual history of the last solve
};

// A named array of a stepper's state beyond its settable fields, for checkpoints (app/checkpoint.hpp).
// per_cell > 0: the values are that many components of the grid's cells, one after another, each
// row-major [z][y][x] (a field's interior: split among the blocks of a run over MPI ranks, gathered in
// its checkpoints); 0: a plain array, the same on every rank.
struct NamedArray {
  std::string name;
  std::vector<double> values;
  int per_cell = 0;
};

// The array called `name` of a checkpoint's extra state; throws Error naming it where it is absent.
inline const std::vector<double>& find_array(const std::vector<NamedArray>& arrays, const std::string& name) {
  for (const NamedArray& a : arrays)
    if (a.name == name) return a.values;
  throw Error("the checkpoint holds no '" + name + "' for this model and scheme");
}

// Where a field's interior lives, for exchange without a copy (Python's DLPack): row y starts at
// data + y * pitch values of value_bytes bytes each. data is null where a stepper keeps none to share.
struct FieldMemory {
  void* data = nullptr;     // cell (0, 0) of plane 0
  int64_t pitch = 0;        // values between rows
  int64_t plane = 0;        // values between planes (a 3D field's)
  int nx = 0, ny = 0, nz = 1;
  int value_bytes = 0;
  bool device = false;
};

class Stepper {
 public:
  virtual ~Stepper() = default;
  virtual const std::vector<std::string>& field_names() const = 0;
  // Advances the state by `steps` time steps. No checks inside: the caller decides when to look.
  virtual void advance(int64_t steps) = 0;
  // Interior values of one field, row-major [y][x], copied to the host.
  virtual std::vector<double> values(int field) = 0;
  virtual FieldStats stats(int field) = 0;
  // The field quantized to 16 bits for a picture (the explorer's frames). Steppers quantize their state
  // where it lives; this default goes through values().
  virtual QuantizedField quantized(int field) { return quantize_values(values(field)); }
  // Linear index y * nx + x of the first NaN/Inf of a field, or -1 when all values are finite.
  virtual int64_t first_nonfinite(int field) = 0;
  // Whether set_values may write a field: one of the stepped state's, not one computed from them.
  virtual bool settable(int field) const = 0;
  // Replaces the interior values of a settable field (row-major [y][x], grid.cells() of them) and its
  // ghosts: the explorer's brush, and carrying a state over into a rebuilt stepper.
  virtual void set_values(int field, const std::vector<double>& v) = 0;
  // Where a settable field's values live, to be read and written in place; refresh_ghosts() after
  // writing. The default shares none.
  virtual FieldMemory memory(int field) {
    (void)field;
    return {};
  }
  // Where any field's values live, to be read (outputs and checkpoints are written from there): the memory
  // lent for writing, where a stepper lends it, and otherwise any field it keeps whole in one place.
  virtual FieldMemory rows(int field) { return memory(field); }
  // Recomputes the ghosts of the stepped fields from their interior values.
  virtual void refresh_ghosts() {}
  // Sets the simulated time that the right-hand side reads; a model that does not read t ignores it.
  virtual void set_time(double t) { (void)t; }
  // What a checkpoint must carry, besides the settable fields' values, to continue bitwise: a clock and
  // step control, a previous time level, a solve's warm start, a random engine. set_extra_state takes it
  // back after set_values has written the fields.
  virtual std::vector<NamedArray> extra_state() { return {}; }
  virtual void set_extra_state(const std::vector<NamedArray>& state) { (void)state; }
  // A copy of the state to go back to (kept in the state's memory space; allocated at set-up).
  virtual void save() = 0;
  virtual void restore() = 0;
  // Bytes one step must move at least (each state value read once and written once), for bandwidth figures.
  virtual double bytes_per_step() const = 0;
  // Linear-solver statistics of implicit schemes; null for explicit ones.
  virtual const SolverTotals* solver_totals() const { return nullptr; }
  // A condition worth a warning after the last advance (not an error: the run goes on), or empty.
  virtual std::string warning() { return {}; }
};

// A method-of-lines stepper (time/rk): the clock is simulated time and the integrator chooses its steps.
// advance(n) takes n accepted steps; advance_to(t) lands on t.
class MolStepper : public Stepper {
 public:
  // Lands on t, or stops earlier, between steps, after max_steps accepted steps.
  virtual void advance_to(double t, int64_t max_steps = std::numeric_limits<int64_t>::max()) = 0;
  virtual double time() const = 0;
  virtual const StepStats& step_stats() const = 0;
};

}  // namespace pdex
