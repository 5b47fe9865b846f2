#pragma once
// The configuration of a wave-equation run (model.name = "wave", seed 001): the keys of docs/config.md's
// "Wave equation" section. The grid and its boundary are read by run_config.cpp as for every model.
#include <nlohmann/json.hpp>

#include <string>

#include "pdex/app/config_reader.hpp"
#include "pdex/app/run_config.hpp"

namespace pdex {

// Reads model.params.c, model.drops, [time] (scheme "explicit" | "crank_nicolson"), [solver] and
// initial.u, initial.v into rc.wave; throws InputError naming the file and key.
void read_wave_model(ConfigReader& cfg, RunConfig& rc, const std::string& base_dir);

// The resolved values of those sections, for summary.json.
nlohmann::json wave_json(const RunConfig& rc);

}  // namespace pdex
