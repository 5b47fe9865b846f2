#include "pdex/models/ard/ard_catalog.hpp"

#include <map>

#include "pdex/core/error.hpp"
#include "pdex/core/format.hpp"

namespace pdex {

namespace {
// Species u1 .. un with equal shares of the coexistence state's total and unit diffusivities.
ReactionInfo cyclic_competition(std::string name, std::string title, std::string equations, int n) {
  ReactionInfo r{std::move(name), std::move(title), std::move(equations),
                 {{"alpha", 0.5, "competition from the next species", "1", 0, 2},
                  {"beta", 2.0, "competition from the previous species", "1", 0, 3}},
                 true, std::vector<double>(std::size_t(n), 1.0 / n), 0.1, {}};
  for (int c = 1; c <= n; ++c) {
    std::string u = "u";
    u += std::to_string(c);
    r.species.push_back(u);
    r.params.push_back({std::string("D") + u, 1.0, std::string("diffusivity of ") + u, "length^2/time", 0, 4});
  }
  // u_i (1 - u_i - alpha u_{i+1} - beta u_{i-1} - the others), as text.
  for (int c = 0; c < n; ++c) {
    const std::string& u = r.species[std::size_t(c)];
    std::string e = cat({"D", u, "*lap(", u, ") + ", u, "*(1 - ", u, " - alpha*", r.species[std::size_t((c + 1) % n)]});
    for (int o = 2; o < n - 1; ++o) e += cat({" - ", r.species[std::size_t((c + o) % n)]});
    r.text.push_back(cat({e, " - beta*", r.species[std::size_t((c + n - 1) % n)], ")"}));
  }
  return r;
}

// The catalogue's two-species and one-species models as text (their kinetics in kinetics/).
void add_text(std::vector<ReactionInfo>& catalog) {
  const std::map<std::string, std::vector<std::string>> text{
      {"turing", {"Du*lap(u) + s*(u*v - u - alpha)", "Dv*lap(v) + s*(beta - u*v)"}},
      {"gray_scott", {"Du*lap(u) - u*v^2 + F*(1 - u)", "Dv*lap(v) + u*v^2 - (F + k)*v"}},
      {"fitzhugh_nagumo", {"Du*lap(u) + u - u^3/3 - v", "Dv*lap(v) + eps*(u + a - b*v)"}},
      {"brusselator", {"Du*lap(u) + a - (b + 1)*u + u^2*v", "Dv*lap(v) + b*u - u^2*v"}},
      {"schnakenberg", {"Du*lap(u) + gamma*(a - u + u^2*v)", "Dv*lap(v) + gamma*(b - u^2*v)"}},
      {"fisher_kpp", {"Du*lap(u) + r*u*(1 - u)"}}};
  for (ReactionInfo& r : catalog)
    if (const auto it = text.find(r.name); it != text.end()) r.text = it->second;
}

// Parameters are dimensionless: lengths in units of the grid spacing's unit, times in the step's unit.
std::vector<ReactionInfo> make_catalog() {
  std::vector<ReactionInfo> catalog{
      // Seed 000 gives no values; these follow Turk (1991): alpha = 12 (with +-0.1 noise per cell in the
      // examples), beta = 16, s = 1/128, Du = 1/16. At the steady state (4, 4) a Turing instability needs
      // Dv/Du > 4; Dv = 0.26 (ratio 4.16) sits just past that threshold, where the quadratic kinetics
      // select spots (hexagons) over stripes: examples/turing_spots.toml gives spots on the seed's
      // 512x512 grid. Ratios of 6-8 give a labyrinth of stripes with spots mixed in (docs/models.md).
      // The explicit limit 1/(4 Dv) = 0.96 keeps the seed's dt = 0.5 stable.
      {"turing", "Turing's morphogen system (seed 000, eqs. 3-4)",
       "f = s (u v - u - alpha),  g = s (beta - u v)",
       {{"alpha", 12.0, "decay rate of u", "1", 0, 24},
        {"beta", 16.0, "growth rate of v", "1", 0, 32},
        {"s", 1.0 / 128.0, "reaction rate", "1/time", 0, 1.0 / 32},
        {"Du", 1.0 / 16.0, "diffusivity of u", "length^2/time", 0, 0.5},
        {"Dv", 0.26, "diffusivity of v", "length^2/time", 0, 1}},
       true, {4.0, 4.0}, 0.5},
      {"gray_scott", "Gray-Scott (Pearson 1993)", "f = -u v^2 + F (1 - u),  g = u v^2 - (F + k) v",
       {{"F", 0.0367, "feed rate", "1/time", 0, 0.1},
        {"k", 0.0649, "kill rate", "1/time", 0, 0.1},
        {"Du", 0.2097, "diffusivity of u", "length^2/time", 0, 0.5},
        {"Dv", 0.105, "diffusivity of v", "length^2/time", 0, 0.5}},
       true, {1.0, 0.0}, 1.0},
      {"fitzhugh_nagumo", "FitzHugh-Nagumo excitable medium", "f = u - u^3/3 - v,  g = eps (u + a - b v)",
       {{"a", 0.7, "offset of the recovery nullcline", "1", -1, 2},
        {"b", 0.8, "slope of the recovery nullcline", "1", 0, 2},
        {"eps", 0.08, "time-scale ratio of recovery to excitation", "1", 0, 0.5},
        {"Du", 1.0, "diffusivity of u", "length^2/time", 0, 4},
        {"Dv", 0.0, "diffusivity of v", "length^2/time", 0, 4}},
       false, {-1.2, -0.62}, 0.1},
      {"brusselator", "Brusselator (Prigogine-Lefever)", "f = a - (b + 1) u + u^2 v,  g = b u - u^2 v",
       {{"a", 3.0, "input rate", "1/time", 0, 6},
        {"b", 9.0, "conversion rate", "1/time", 0, 18},
        {"Du", 1.0, "diffusivity of u", "length^2/time", 0, 4},
        {"Dv", 8.0, "diffusivity of v", "length^2/time", 0, 32}},
       true, {3.0, 3.0}, 0.005},  // dt: the pattern's peaks (u ~ 11) make the reaction stiff (-u^2 ~ -130)
      {"schnakenberg", "Schnakenberg", "f = gamma (a - u + u^2 v),  g = gamma (b - u^2 v)",
       {{"a", 0.1, "production of u", "1/time", 0, 1},
        {"b", 0.9, "production of v", "1/time", 0, 2},
        {"gamma", 1.0, "reaction strength", "1", 0, 4},
        {"Du", 1.0, "diffusivity of u", "length^2/time", 0, 4},
        {"Dv", 40.0, "diffusivity of v", "length^2/time", 0, 100}},
       true, {1.0, 0.9}, 0.005},
      // Fisher-KPP: the N = 1 case; a front from a step travels at 2 sqrt(D r).
      {"fisher_kpp", "Fisher-KPP (Fisher 1937; Kolmogorov, Petrovsky and Piskunov 1937)", "f = r u (1 - u)",
       {{"r", 1.0, "growth rate", "1/time", 0, 4},
        {"Du", 1.0, "diffusivity of u", "length^2/time", 0, 4}},
       true, {0.0}, 0.1, {"u"}},
      // May-Leonard (1975): rock-paper-scissors competition of three species; alpha < 1 < beta with
      // alpha + beta > 2 makes the coexistence state unstable, and with diffusion rotating spirals form.
      cyclic_competition("may_leonard", "May-Leonard cyclic competition, rock-paper-scissors (May and Leonard 1975)",
                         "f_i = u_i (1 - u_i - alpha u_{i+1} - beta u_{i-1}), i = 1, 2, 3 cyclically", 3),
      // The same among four species, the one opposite competing with weight 1.
      cyclic_competition("cyclic_competition_4", "cyclic competition of four species (May-Leonard for N = 4)",
                         "f_i = u_i (1 - u_i - alpha u_{i+1} - beta u_{i-1} - u_{i+2}), i = 1..4 cyclically", 4),
  };
  add_text(catalog);
  return catalog;
}
}  // namespace

const std::vector<ReactionInfo>& ard_catalog() {
  static const std::vector<ReactionInfo> catalog = make_catalog();
  return catalog;
}

const ReactionInfo& ard_reaction(const std::string& name) {
  std::string known;
  for (const auto& r : ard_catalog()) {
    if (r.name == name) return r;
    known += (known.empty() ? "" : ", ") + r.name;
  }
  throw InputError("unknown model '" + name + "': expected one of " + known + " (see `pdex list`)");
}

}  // namespace pdex
