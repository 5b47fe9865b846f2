// `pdex bench serve-client URL`: a client of `pdex serve` for machines without a browser (the GPU
// machine): it takes frames as a page does (decoding each header and acknowledging it as drawn), counts
// them, then measures the latency from a parameter change to the first frame that has it. JSON out.
// bench/serve_bench.py runs it, or drives headless chromium where there is one.
#include <CLI/CLI.hpp>
#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <regex>
#include <string>
#include <vector>

#include "bench_util.hpp"
#include "pdex/app/suite_args.hpp"
#include "pdex/core/error.hpp"

namespace pdex {

namespace {

namespace beast = boost::beast;
namespace websocket = beast::websocket;
using tcp = boost::asio::ip::tcp;
using Clock = std::chrono::steady_clock;

class Client {
 public:
  Client(const std::string& host, const std::string& port, const std::string& token) : ws_(ioc_) {
    tcp::resolver resolver(ioc_);
    boost::asio::connect(ws_.next_layer(), resolver.resolve(host, port));
    ws_.next_layer().set_option(tcp::no_delay(true));  // as browsers do: each "drawn" goes out at once
    ws_.handshake(host + ":" + port, "/ws?token=" + token);
  }

  // Reads one message; a frame is acknowledged as drawn and its version returned, text gives -1.
  int64_t next(nlohmann::json& text) {
    buffer_.clear();
    ws_.read(buffer_);
    const std::string data = beast::buffers_to_string(buffer_.data());
    if (ws_.got_text()) {
      text = nlohmann::json::parse(data);
      return -1;
    }
    uint32_t n = 0;
    std::memcpy(&n, data.data(), 4);
    const nlohmann::json head = nlohmann::json::parse(data.substr(4, n));
    send({{"type", "drawn"}});
    return head["version"].get<int64_t>();
  }

  void send(const nlohmann::json& msg) {
    ws_.text(true);
    ws_.write(boost::asio::buffer(msg.dump()));
  }

 private:
  boost::asio::io_context ioc_;
  websocket::stream<tcp::socket> ws_;
  beast::flat_buffer buffer_;
};

// Milliseconds from sending `key = value` to the first frame with its version.
double latency(Client& c, const std::string& key, double value, int id) {
  const auto t0 = Clock::now();
  c.send({{"type", "set"}, {"key", key}, {"value", value}, {"id", id}});
  int64_t wanted = -1;
  for (;;) {
    nlohmann::json text;
    const int64_t version = c.next(text);
    if (version < 0 && text.value("id", -1) == id) {
      if (!text.value("ok", false)) throw InputError("the server refused " + key + ": " + text.value("error", ""));
      wanted = text["version"].get<int64_t>();
    }
    if (wanted >= 0 && version >= wanted) return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
  }
}

}  // namespace

int cmd_bench_serve_client(const std::vector<std::string>& args) {
  CLI::App app{"a client of pdex serve: frames per second and parameter-to-frame latency (JSON on stdout)", "pdex bench serve-client"};
  std::string url, key;
  double seconds = 8;
  std::vector<double> values;
  app.add_option("url", url, "the URL pdex serve printed")->required();
  app.add_option("--seconds", seconds, "how long to count frames");
  app.add_option("--set", key, "the key to change for the latency (e.g. model.params.F)")->required();
  app.add_option("--values", values, "two values to alternate")->delimiter(',')->expected(2);
  if (const auto status = parse_suite_args(app, args)) return *status;
  std::smatch m;
  if (!std::regex_match(url, m, std::regex(R"(http://([^:/]+):(\d+)/\?token=(\w+))")))
    throw InputError("expected the URL pdex serve printed, http://HOST:PORT/?token=..., got " + url);
  Client c(m[1], m[2], m[3]);
  nlohmann::json text;
  int64_t frames = 0;
  const auto start = Clock::now();
  while (std::chrono::duration<double>(Clock::now() - start).count() < seconds)
    if (c.next(text) >= 0) ++frames;
  const double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
  std::vector<double> ms;
  for (int k = 0; k < 15; ++k) ms.push_back(latency(c, key, values[std::size_t(k % 2)], k + 1));
  std::vector<double> sorted = ms;
  std::sort(sorted.begin(), sorted.end());
  const nlohmann::json out = {{"frames_per_second", double(frames) / elapsed},
                              {"latency_ms", {{"median", sorted[sorted.size() / 2]}, {"max", sorted.back()}, {"all", ms}}}};
  std::printf("%s\n", out.dump().c_str());
  return 0;
}

}  // namespace pdex
