#pragma once
// Reading spatially varying inputs from a configuration: numbers, seeded noise, .npy files, shapes,
// velocity presets and diffusion tensors. Noise is generated on the host with our own generator, so the
// same seed gives the same field on every backend, compiler and machine.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "pdex/app/config_reader.hpp"
#include "pdex/grid/grid.hpp"
#include "pdex/models/ard/ard_spec.hpp"

namespace pdex {

// Uniform noise in [-amplitude, amplitude], one value per cell in row-major order.
std::vector<double> uniform_noise(std::size_t count, double amplitude, uint64_t seed);

struct SpecContext {
  ConfigReader& cfg;
  Grid2 grid;
  std::string base_dir;  // .npy paths are relative to the configuration file's folder
};

// The .npy file named at `path` (relative to the configuration's folder), checked to hold `planes`
// arrays of shape (ny, nx) of finite values; C order, so plane p's [y, x] is at (p * ny + y) * nx + x.
std::vector<double> read_npy_field(SpecContext& ctx, const std::string& path, std::size_t planes = 1);

// A number, or { value = , noise = , seed = , file = , shapes = [...] }. Missing: `fallback`, or an error.
ScalarSpec read_scalar(SpecContext& ctx, const std::string& path, std::optional<double> fallback = std::nullopt);

// [model.advection]: scheme plus velocity (constant, preset, or per-component specs).
void read_advection(SpecContext& ctx, ArdSpec& spec);

// [model.diffusion]: isotropic, or a tensor given per component, from one .npy, or aligned with the flow.
void read_diffusion(SpecContext& ctx, ArdSpec& spec);

}  // namespace pdex
