// The families a run can name: the built-in ones (builtin_families.hpp), then any registered later.
#include "pdex/core/error.hpp"
#include "pdex/models/builtin_families.hpp"
#include "pdex/models/family.hpp"

namespace pdex {

namespace {

std::vector<ModelFamily>& families() {
  static std::vector<ModelFamily> all = builtin_families();
  return all;
}

const ModelDesc* model_named(const std::string& name) {
  for (const ModelFamily& f : families())
    for (const ModelDesc& m : f.models)
      if (m.name == name) return &m;
  return nullptr;
}

nlohmann::json model_json(const ModelDesc& m) {
  nlohmann::json params = nlohmann::json::array();
  for (const ParamDesc& p : m.params)
    params.push_back({{"name", p.name}, {"default", p.default_value}, {"meaning", p.meaning}, {"units", p.units},
                      {"min", p.min}, {"max", p.max}, {"per_cell", p.per_cell}});
  return {{"name", m.name}, {"title", m.title}, {"equations", m.equations}, {"fields", m.fields},
          {"params", params}, {"schemes", m.schemes}, {"notes", m.notes}, {"examples", m.examples}};
}

}  // namespace

void register_family(ModelFamily family) {
  if (!family.read) throw Error("model family '" + family.name + "' has no configuration reader");
  for (const ModelDesc& m : family.models)
    if (model_named(m.name)) throw Error("model family '" + family.name + "': model name '" + m.name + "' is taken");
  families().push_back(std::move(family));
}

const std::vector<ModelFamily>& model_families() { return families(); }

std::pair<const ModelFamily*, const ModelDesc*> find_model(const std::string& name) {
  std::string known;
  for (const ModelFamily& f : families())
    for (const ModelDesc& m : f.models) {
      if (m.name == name) return {&f, &m};
      known += (known.empty() ? "" : ", ") + m.name;
    }
  throw InputError("unknown model '" + name + "': expected one of " + known + " (see `pdex list`)");
}

nlohmann::json families_json() {
  nlohmann::json out = nlohmann::json::array();
  for (const ModelFamily& f : families()) {
    nlohmann::json models = nlohmann::json::array();
    for (const ModelDesc& m : f.models) models.push_back(model_json(m));
    out.push_back({{"name", f.name}, {"title", f.title}, {"models", models}});
  }
  return out;
}

}  // namespace pdex
