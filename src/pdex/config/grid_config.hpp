#pragma once
// The [grid] section (docs/config.md): extents, spacing, origin, and grid.boundary per side and per field.
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "pdex/config/boundary_text.hpp"
#include "pdex/config/config_reader.hpp"
#include "pdex/core/precision.hpp"
#include "pdex/grid/boundary.hpp"
#include "pdex/grid/grid.hpp"

namespace pdex {

// grid.nx, grid.ny (default nx), dx, dy (default dx), x0, y0; nz (default 1: 2D), dz (default dx), z0.
Grid2 read_grid(ConfigReader& cfg);

// The grid as summary.json reports it: nx, ny, dx, dy, the origin (x0, y0) where `origin`, and nz, dz
// (and z0) on a 3D grid.
nlohmann::json grid_json(const Grid2& g, bool origin = true);

// Refuses a grid that cannot fit in this machine's memory, before anything of its size is allocated:
// the least a run of two fields holds on the host, the step's two states and the guard's copy, or with
// the state on a device (`device_state`) one copy while it is uploaded.
void check_grid_fits(const ConfigReader& cfg, const Grid2& g, Precision precision, bool device_state);

// grid.boundary: one kind for every side, or a table per side (left, right, bottom, top; front, back in 3D) whose entries are a kind,
// { kind = , value = } (with per-field values), or a condition per field by name. `fields` names the
// components of the result, at most max_components; missing: `fallback` on every side. Robin sides
// { kind = "robin", a, b, value } are read where robin_grid (the grid, for its spacing) is given, values
// written as strings where `texts` is (they go there; the side's number is 0).
FieldBoundary read_boundary(ConfigReader& cfg, const std::vector<std::string>& fields, BcKind fallback = BcKind::periodic,
                            const Grid2* robin_grid = nullptr, std::vector<BoundaryText>* texts = nullptr);

// The resolved conditions, side -> field -> { kind, value }; a value given as an expression, as written.
// The z sides (front, back) where z_sides (a 3D grid).
nlohmann::json boundary_json(const FieldBoundary& bc, const std::vector<std::string>& fields, const std::vector<BoundaryText>& texts = {},
                             bool z_sides = false);

}  // namespace pdex
