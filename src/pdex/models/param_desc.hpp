#pragma once
// One parameter of a model (model.params.<name>) as `pdex list`, the configuration reader and a UI see it.
#include <string>

namespace pdex {

struct ParamDesc {
  std::string name;
  double default_value = 0;
  std::string meaning;      // one line
  std::string units = "1";  // in the units of grid.dx (length) and time.dt (time); "1": dimensionless
  double min = 0, max = 1;  // the range a slider offers (a configuration may go beyond it where the model allows)
  bool per_cell = true;     // may vary per cell ({ value, noise }, { file })
};

}  // namespace pdex
