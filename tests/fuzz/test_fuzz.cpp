// Bounded random-mutation fuzzing of the readers of users' files, run by CI in every build (the
// sanitized one too): seeds (every example configuration, .npy files of every dtype the reader takes,
// Matrix Market files of every kind) changed by a fixed-seed sequence of mutations (mutate.hpp). Every
// case must be read or refused with pdex::Error, within case_limit. A failure names the case and shows
// its input in hex (docs/testing.md says how to replay it); PDEX_FUZZ_CASES=n runs n cases per reader.
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <typeinfo>
#include <vector>

#include "fuzz/fuzz_targets.hpp"
#include "fuzz/mutate.hpp"
#include "io/npy_bytes.hpp"
#include "support/scratch_dir.hpp"

namespace pdex::fuzz {
namespace {

using Clock = std::chrono::steady_clock;
using Reader = Outcome (*)(std::string_view);

// Far above any case's time, sanitized, on a busy machine: a case that takes this long hangs.
constexpr std::chrono::seconds case_limit{30};

// What the process is doing, written to stderr when it dies of a signal: a crash, a sanitizer's abort
// (abort_on_error=1, scripts/sanitize.sh) or the watchdog's.
std::atomic<const std::string*> running_case{nullptr};
struct sigaction previous_action[NSIG];
const int fatal_signals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};

void show_running_case(int sig) {
  if (const std::string* what = running_case.load()) {
    const std::string_view head = "\nfuzz: the process died in ";
    (void)!::write(STDERR_FILENO, head.data(), head.size());
    (void)!::write(STDERR_FILENO, what->data(), what->size());
    (void)!::write(STDERR_FILENO, "\n", 1);
  }
  // The previous handler (a sanitizer's, or the default) takes the signal again from here.
  ::sigaction(sig, &previous_action[sig], nullptr);
}

// Once: installed twice, the handler would hand a signal back to itself.
void show_case_on_fatal_signals() {
  static const bool installed = [] {
    struct sigaction action {};
    action.sa_handler = show_running_case;
    for (int sig : fatal_signals) ::sigaction(sig, &action, &previous_action[sig]);
    return true;
  }();
  (void)installed;
}

// Aborts the process when a case runs past case_limit: a hang is a finding too.
class Watchdog {
 public:
  Watchdog() : thread_([this] { watch(); }) {}
  Watchdog(const Watchdog&) = delete;
  Watchdog& operator=(const Watchdog&) = delete;
  ~Watchdog() {
    {
      std::lock_guard lock(mutex_);
      done_ = true;
    }
    wake_.notify_one();
    thread_.join();
  }

  void start() { set(Clock::now() + case_limit); }
  void stop() { set(std::nullopt); }

 private:
  void set(std::optional<Clock::time_point> deadline) {
    {
      std::lock_guard lock(mutex_);
      deadline_ = deadline;
    }
    wake_.notify_one();
  }

  void watch() {
    std::unique_lock lock(mutex_);
    while (!done_) {
      if (deadline_ && Clock::now() >= *deadline_) {
        std::fprintf(stderr, "fuzz: a case ran longer than %lld s\n", static_cast<long long>(case_limit.count()));
        std::abort();
      }
      if (deadline_) wake_.wait_until(lock, *deadline_);
      else wake_.wait(lock);
    }
  }

  std::mutex mutex_;
  std::condition_variable wake_;
  std::optional<Clock::time_point> deadline_;
  bool done_ = false;
  std::thread thread_;
};

std::string hex(std::string_view bytes) {
  static const char digits[] = "0123456789abcdef";
  std::string out;
  for (unsigned char c : bytes) out += {digits[c >> 4], digits[c & 15]};
  return out;
}

std::size_t case_count(std::size_t fallback) {
  const char* n = std::getenv("PDEX_FUZZ_CASES");
  return n && *n ? std::stoul(n) : fallback;
}

struct Tally {
  std::size_t read = 0, refused = 0, skipped = 0;
};

// Runs `cases` mutated seeds through `read`; case n is mutation sequence n of seed n mod the seeds.
Tally fuzz(const char* name, Reader read, const std::vector<std::string>& seeds, std::size_t cases) {
  const std::vector<std::string> dictionary = dictionary_for(seeds);
  show_case_on_fatal_signals();
  Watchdog watchdog;
  Tally tally;
  int failures = 0;
  for (std::size_t n = 0; n < cases && failures < 5; ++n) {
    Random rng(n);
    const std::string input = mutate(seeds[n % seeds.size()], dictionary, rng);
    const std::string what = std::string(name) + " case " + std::to_string(n) + ", input in hex:\n" + hex(input);
    running_case = &what;
    watchdog.start();
    try {
      const Outcome outcome = read(input);
      ++(outcome.kind == Outcome::read ? tally.read : outcome.kind == Outcome::refused ? tally.refused : tally.skipped);
    } catch (const std::exception& e) {
      ++failures;
      ADD_FAILURE() << typeid(e).name() << " escaped (\"" << e.what() << "\"), not pdex::Error, in " << what;
    } catch (...) {
      ++failures;
      ADD_FAILURE() << "an exception not derived from std::exception escaped in " << what;
    }
    watchdog.stop();
    running_case = nullptr;
  }
  std::printf("%s: %zu cases: %zu read, %zu refused, %zu skipped\n", name, cases, tally.read, tally.refused, tally.skipped);
  return tally;
}

template <class T>
std::string values(std::size_t count) {
  std::string out;
  for (std::size_t i = 0; i < count; ++i) {
    const T v = static_cast<T>(i % 3);
    out.append(reinterpret_cast<const char*>(&v), sizeof v);
  }
  return out;
}

std::string npy_dict(const std::string& descr, const std::string& shape, bool fortran = false) {
  return "{'descr': '" + descr + "', 'fortran_order': " + (fortran ? "True" : "False") + ", 'shape': " + shape + ", }";
}

// Every dtype in C order (header 1.0), every header version, 0-d, empty and Python 2 shapes, and a
// Fortran-order array (refused, but its mutations need not be).
std::vector<std::string> npy_seeds() {
  using io::testing::npy_file_bytes;
  const std::pair<const char*, std::string> typed[] = {
      {"<f4", values<float>(6)},        {"<f8", values<double>(6)},      {"<i4", values<std::int32_t>(6)},
      {"<i8", values<std::int64_t>(6)}, {"|u1", values<std::uint8_t>(6)}, {"|b1", values<bool>(6)}};
  std::vector<std::string> seeds;
  for (const auto& [descr, payload] : typed) seeds.push_back(npy_file_bytes(1, npy_dict(descr, "(2, 3)"), payload));
  seeds.push_back(npy_file_bytes(2, npy_dict("<f8", "(6,)"), values<double>(6)));
  seeds.push_back(npy_file_bytes(3, npy_dict("<i4", "(3, 2)"), values<std::int32_t>(6)));
  seeds.push_back(npy_file_bytes(1, npy_dict("<f8", "()"), values<double>(1)));
  seeds.push_back(npy_file_bytes(1, npy_dict("<f4", "(0, 4)"), ""));
  seeds.push_back(npy_file_bytes(1, npy_dict("<i8", "(2L, 1L, 3L)"), values<std::int64_t>(6)));
  seeds.push_back(npy_file_bytes(1, npy_dict("<f8", "(3, 2)", true), values<double>(6)));
  return seeds;
}

// Every format, field and symmetry the reader takes, with comments and blank lines; matrices and vectors.
std::vector<std::string> matrix_market_seeds() {
  return {
      "%%MatrixMarket matrix coordinate real general\n% a comment\n3 3 4\n1 1 4.0\n2 2 -1.5e-3\n3 1 2\n3 3 1e2\n",
      "%%MatrixMarket matrix coordinate integer symmetric\n5 5 9\n1 1 2\n2 1 -1\n2 2 2\n3 2 -1\n3 3 2\n4 3 -1\n4 4 2\n"
      "5 4 -1\n5 5 2\n",
      "%%MatrixMarket matrix coordinate real skew-symmetric\n3 3 2\n2 1 0.5\n2 3 -0.25\n",
      "%%MatrixMarket matrix coordinate pattern general\n2 3 3\n1 1\n1 3\n2 2\n",
      "%%MatrixMarket matrix coordinate double general\n\n2 2 2\n1 2 1\n2 1 1\n",
      "%%MatrixMarket matrix coordinate real general\n5 1 2\n1 1 1.0\n5 1 -1.0\n",
      "%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n4\n",
      "%%MatrixMarket matrix array integer general\n% vector\n3 1\n5\n6\n7\n",
      "%%MatrixMarket matrix array real general\n1 3\n0.5\n-0.5\n1e-3\n",
  };
}

// Every example configuration, as shipped.
std::vector<std::string> config_seeds() {
  std::vector<std::filesystem::path> files;
  for (const auto& e : std::filesystem::directory_iterator(std::filesystem::path(PDEX_SOURCE_DIR) / "examples"))
    if (e.path().extension() == ".toml") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  std::vector<std::string> seeds;
  for (const auto& f : files) seeds.push_back(pdex::testing::read_file_bytes(f));
  return seeds;
}

TEST(Fuzz, NpyReaderReadsOrRefusesEveryMutatedFile) {
  const std::size_t cases = case_count(4000);
  const Tally t = fuzz("npy", read_npy_bytes, npy_seeds(), cases);
  EXPECT_GT(t.read, cases / 100) << "the mutations should leave some files readable";
  EXPECT_EQ(t.skipped, 0u);
}

TEST(Fuzz, MatrixMarketReaderReadsOrRefusesEveryMutatedFile) {
  const std::size_t cases = case_count(4000);
  const Tally t = fuzz("matrix_market", read_matrix_market_bytes, matrix_market_seeds(), cases);
  EXPECT_GT(t.read, cases / 100) << "the mutations should leave some files readable";
  EXPECT_LT(t.skipped, cases / 10) << "most cases should be read or refused, not be skipped for their size";
}

TEST(Fuzz, ConfigurationLoaderLoadsOrRefusesEveryMutatedFile) {
  const std::vector<std::string> seeds = config_seeds();
  ASSERT_GE(seeds.size(), 10u) << "examples/ should hold the documented examples";
  const std::size_t cases = case_count(2000);
  const Tally t = fuzz("config", load_config_bytes, seeds, cases);
  EXPECT_GT(t.read, cases / 100) << "the mutations should leave some configurations loadable";
  EXPECT_LT(t.skipped, cases / 10) << "most cases should load or be refused, not be skipped for their grid";
}

// Inputs that fuzzing found mishandled, each refused since (docs/testing.md).
TEST(Fuzz, EarlierFindingsAreRefused) {
  // A symmetric matrix that is not square: its mirrored entry was written past the row pointers.
  EXPECT_EQ(read_matrix_market_bytes("%%MatrixMarket matrix coordinate real symmetric\n1 3 1\n1 3 2.0\n").kind,
            Outcome::refused);
  // An ensemble's count of values: they were allocated before anything checked it (std::bad_alloc).
  const auto example = std::filesystem::path(PDEX_SOURCE_DIR) / "examples" / "gray_scott_pearson_map.toml";
  std::string config = pdex::testing::read_file_bytes(example);
  config.replace(config.find("count = 32"), 10, "count = 4000000000000");
  const Outcome outcome = load_config_bytes(config);
  EXPECT_EQ(outcome.kind, Outcome::refused);
  EXPECT_NE(outcome.message.find("ensemble.F.count"), std::string::npos) << outcome.message;
}

}  // namespace
}  // namespace pdex::fuzz
