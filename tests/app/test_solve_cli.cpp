// pdex solve A.mtx b.mtx: solves a user's system and writes x; refuses malformed files, non-square
// matrices and mismatched sizes with the file, line and what was expected, and a non-zero exit status.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <sstream>
#include <string>

#include "app_test_support.hpp"
#include "pdex/models/ard/ard_catalog.hpp"

namespace pdex::app_testing {
namespace {

const std::string tridiagonal =
    "%%MatrixMarket matrix coordinate real symmetric\n% 1D Laplacian plus identity\n4 4 7\n"
    "1 1 3\n2 2 3\n3 3 3\n4 4 3\n2 1 -1\n3 2 -1\n4 3 -1\n";
const std::string ones4 = "%%MatrixMarket matrix array real general\n4 1\n1\n1\n1\n1\n";

TEST(SolveCli, SolvesAndWritesTheSolution) {
  ScratchDir dir;
  write_file_bytes(dir.path() / "A.mtx", tridiagonal);
  write_file_bytes(dir.path() / "b.mtx", ones4);
  for (std::string solver : {"cg", "pcg", "bicgstab", "cgls"}) {
    const fs::path x = dir.path() / ("x_" + solver + ".mtx");
    const Outcome o = run_pdex({"solve", (dir.path() / "A.mtx").string(), (dir.path() / "b.mtx").string(), "--solver",
                                solver, "--backend", "serial", "--out", x.string()});
    EXPECT_EQ(o.status, 0) << o.output;
    EXPECT_TRUE(contains(o.output, "converged after")) << o.output;
    // tridiag(-1, 3, -1) x = 1: x1 = x4 = 3/5, x2 = x3 = 4/5.
    const std::string text = read_file_bytes(x);
    std::istringstream in(text);
    std::string banner;
    std::getline(in, banner);
    int n = 0, one = 0;
    in >> n >> one;
    ASSERT_EQ(n, 4) << text;
    double v[4];
    for (double& e : v) in >> e;
    EXPECT_NEAR(v[0], 3.0 / 5, 1e-8) << solver;
    EXPECT_NEAR(v[1], 4.0 / 5, 1e-8) << solver;
    EXPECT_NEAR(v[3], 3.0 / 5, 1e-8) << solver;
  }
}

// `pdex solve` on these files exits with status 2 and a message holding every one of `parts`.
void expect_refused(const std::string& a, const std::string& b, const std::vector<std::string>& parts,
                    const std::string& solver = "cg") {
  ScratchDir dir;
  write_file_bytes(dir.path() / "A.mtx", a);
  write_file_bytes(dir.path() / "b.mtx", b);
  const Outcome o = run_pdex({"solve", (dir.path() / "A.mtx").string(), (dir.path() / "b.mtx").string(), "--solver",
                              solver, "--backend", "serial"});
  EXPECT_EQ(o.status, 2) << o.output;
  for (const auto& p : parts) EXPECT_TRUE(contains(o.output, p)) << "missing '" << p << "' in: " << o.output;
}

TEST(SolveCli, RefusesBadInputWithFileLineAndWhatWasExpected) {
  expect_refused("%%MatrixMarket matrix coordinate real general\n2 2 2\n1 1 1\n2 two 1\n", ones4,
                 {"pdex: error:", "A.mtx:4:", "expected \"row col value\""});
  expect_refused("%%MatrixMarket matrix coordinate real general\n2 2\n", ones4, {"A.mtx:2:", "size line"});
  expect_refused("hello\n", ones4, {"A.mtx:1:", "banner"});
  expect_refused("%%MatrixMarket matrix coordinate real general\n3 2 1\n1 1 1\n", ones4,
                 {"3 x 2, not square", "cgls"});
  expect_refused(tridiagonal, "%%MatrixMarket matrix array real general\n3 1\n1\n1\n1\n",
                 {"sizes do not match", "4 rows", "3 values"});
  expect_refused(tridiagonal, ones4, {"unknown solver 'gmres'", "cg, pcg, bicgstab or cgls"}, "gmres");
  expect_refused(tridiagonal, "%%MatrixMarket matrix array real general\n2 2\n1\n1\n1\n1\n",
                 {"b.mtx", "expected a vector"});
}

}  // namespace
}  // namespace pdex::app_testing

namespace pdex::app_testing {
namespace {

// `pdex bench SUITE --help` reaches the suite, which lists its options; `pdex bench --help` lists the
// suites, and `pdex bench` alone is an error that says what to give.
TEST(BenchCli, EverySuitesHelpListsItsOptions) {
  for (const char* suite : {"explicit", "implicit", "curvature", "chemotaxis", "linalg"}) {
    const Outcome o = run_pdex({"bench", suite, "--help"});
    EXPECT_EQ(o.status, 0) << suite << o.output;
    EXPECT_TRUE(contains(o.output, "--backends")) << suite << o.output;
    EXPECT_TRUE(contains(o.output, std::string("pdex bench ") + suite)) << suite << o.output;
  }
  const Outcome verify = run_pdex({"verify", "curvature", "--help"});
  EXPECT_EQ(verify.status, 0) << verify.output;
  EXPECT_TRUE(contains(verify.output, "--sizes")) << verify.output;
  const Outcome help = run_pdex({"bench", "--help"});
  EXPECT_EQ(help.status, 0) << help.output;
  EXPECT_TRUE(contains(help.output, "explicit | implicit")) << help.output;
  EXPECT_EQ(run_pdex({"bench"}).status, 1);
}

// The explicit suite steps every reaction-diffusion model, whatever its species count; the first also
// written as text, compiled and interpreted (rows whose compile is most of a run's time, and whose
// agreement with the built-in kernels test_equations_run.cpp checks for every model).
TEST(BenchCli, TheExplicitSuiteStepsEveryReactionDiffusionModel) {
  for (const ReactionInfo& r : ard_catalog()) {
    const bool text = &r == &ard_catalog().front();
    const Outcome o = run_pdex({"bench", "explicit", "--backends", "serial", "--sizes", "16", "--precisions", "f64",
                                "--model", r.name, "--table1", "none", "--min-time", "0.001", "--text",
                                text ? "true" : "false"});
    EXPECT_EQ(o.status, 0) << r.name << o.output;
    EXPECT_TRUE(contains(o.output, "serial   step     f64")) << r.name << o.output;
    for (const char* row : {"serial   text     f64", "serial   interp   f64"})
      EXPECT_EQ(contains(o.output, row), text) << r.name << o.output;
  }
}

// --peers runs bench/peers/peers.py after pdex's rows, with the run's model, widths and precisions, and
// sets each peer row beside pdex's fastest row on the same kind of device: NumPy's beside the host
// backends', the ratio that of the two rates, in the JSON and the table.
TEST(BenchCli, PeersStandBesidePdexsFastestRowFromOneRun) {
  const std::string python = PDEX_PYTHON;
  if (python.empty() || std::system((shell_quote(python) + " -c 'import numpy' 2>/dev/null").c_str()) != 0)
    GTEST_SKIP() << "no Python with NumPy (python3-numpy) to run bench/peers/peers.py";
  ScratchDir dir;
  const fs::path json = dir.path() / "bench.json";
  const Outcome o = run_pdex({"bench", "explicit", "--backends", "serial,openmp", "--sizes", "32,48", "--precisions", "f64", "--text",
                              "false", "--table1", "none", "--min-time", "0.01", "--peers", "numpy", "--python", python, "--json",
                              json.string()});
  ASSERT_EQ(o.status, 0) << o.output;
  EXPECT_TRUE(contains(o.output, "pdex / peer")) << o.output;
  const nlohmann::json out = read_json(json);
  ASSERT_EQ(out["peers"].size(), 2u) << out.dump(1);
  for (const nlohmann::json& peer : out["peers"]) {
    EXPECT_EQ(peer["framework"], "numpy");
    EXPECT_EQ(peer["model"], "gray_scott");
    EXPECT_EQ(peer["precision"], "f64");
    double fastest = 0;
    for (const nlohmann::json& row : out["explicit"])
      if (row["nx"] == peer["nx"]) fastest = std::max(fastest, row["gcells_per_s"].get<double>());
    EXPECT_GT(peer["gcells_per_s"].get<double>(), 0);
    EXPECT_EQ(peer["pdex_gcells_per_s"].get<double>(), fastest) << peer.dump();
    EXPECT_DOUBLE_EQ(peer["pdex_over_peer"].get<double>(), fastest / peer["gcells_per_s"].get<double>());
  }
  EXPECT_TRUE(fs::is_regular_file(dir.path() / "bench.peers.json"));
}

// What the peers cannot run is refused before any timing, naming the option.
TEST(BenchCli, PeersRefuseWhatTheyCannotRunBeforeTiming) {
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases{
      {{"--peers", "julia"}, "--peers: unknown framework 'julia'"},
      {{"--peers", "numpy", "--model", "brusselator"}, "gray_scott and turing, not 'brusselator'"},
      {{"--peers", "numpy", "--dims", "3"}, "leave out --dims 3"},
      {{"--peers", "numpy", "--peers-script", "/nonexistent/peers.py"}, "--peers-script: '/nonexistent/peers.py' is not a file"}};
  for (const auto& [extra, message] : cases) {
    std::vector<std::string> args{"bench", "explicit", "--backends", "serial", "--sizes", "16", "--precisions", "f64", "--text", "false",
                                  "--table1", "none", "--min-time", "0.001"};
    args.insert(args.end(), extra.begin(), extra.end());
    const Outcome o = run_pdex(args);
    EXPECT_NE(o.status, 0) << message;
    EXPECT_TRUE(contains(o.output, message)) << o.output;
    EXPECT_FALSE(contains(o.output, "serial   step")) << o.output;
  }
}

}  // namespace
}  // namespace pdex::app_testing
