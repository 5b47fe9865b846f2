#pragma once
// Reading spatially varying inputs from a configuration: numbers, seeded noise, .npy files and shapes. Noise is generated on the host with our own generator, so the
// same seed gives the same field on every backend, compiler and machine.
#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "pdex/config/config_reader.hpp"
#include "pdex/grid/cell_source.hpp"
#include "pdex/grid/grid.hpp"
#include "pdex/grid/scalar_spec.hpp"

namespace pdex {

struct SpecContext {
  ConfigReader& cfg;
  Grid2 grid;
  std::string base_dir;  // .npy paths are relative to the configuration file's folder
};

// The .npy file named at `path` (relative to the configuration's folder), checked to hold `planes`
// arrays of shape (ny, nx) of finite values; C order, so plane p's [y, x] is at (p * ny + y) * nx + x.
std::vector<double> read_npy_field(SpecContext& ctx, const std::string& path, std::size_t planes = 1);

// A number, or { value = , noise = , seed = , file = , shapes = [...], scale = }, as a recipe made a row
// at a time (grid/cell_source.hpp). Missing: `fallback`, or an error.
CellSource read_source(SpecContext& ctx, const std::string& path, std::optional<double> fallback = std::nullopt);
// read_source's cells (or its number).
ScalarSpec read_scalar(SpecContext& ctx, const std::string& path, std::optional<double> fallback = std::nullopt);

// summary.json's view of an input: the number, or { varies, min, max, mean } of its cells.
nlohmann::json spec_json(const ScalarSpec& s);
// The same of a source's `count` cells, read a row at a time.
nlohmann::json source_json(const CellSource& s, int64_t count);
inline nlohmann::json cells_json(const std::vector<double>& cells) { return spec_json(ScalarSpec{0.0, cells}); }

// read_scalar's value in every cell.
std::vector<double> read_cells(SpecContext& ctx, const std::string& path, std::optional<double> fallback = std::nullopt);

}  // namespace pdex
