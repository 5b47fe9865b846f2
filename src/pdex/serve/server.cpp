#include "pdex/serve/server.hpp"

#include <boost/asio/signal_set.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>

#include <atomic>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <set>
#include <thread>

#include "pdex/core/error.hpp"
#include "pdex/serve/frame.hpp"

namespace pdex::serve {

namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
namespace net = boost::asio;
using tcp = net::ip::tcp;

namespace {

constexpr std::size_t max_message = 256 * 1024;        // a message longer than this is answered with an error
constexpr std::size_t max_ws_read = 16 * 1024 * 1024;   // beyond this the socket closes (1009, too big)

std::string random_token() {
  std::random_device rd;  // /dev/urandom
  std::string t;
  const char* hex = "0123456789abcdef";
  for (int k = 0; k < 48; ++k) t += hex[rd() & 15];
  return t;
}

// Compares in time independent of where the strings differ.
bool same_token(std::string_view a, std::string_view b) {
  unsigned diff = a.size() == b.size() ? 0u : 1u;
  for (std::size_t k = 0; k < a.size(); ++k) diff |= unsigned(a[k]) ^ unsigned(k < b.size() ? b[k] : 0);
  return diff == 0 && !b.empty();
}

// The value of `name` in "a=1&b=2" or "a=1; b=2", or empty.
std::string find_value(std::string_view text, std::string_view name, char sep) {
  std::size_t pos = 0;
  while (pos <= text.size()) {
    std::size_t end = text.find(sep, pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view item = text.substr(pos, end - pos);
    while (!item.empty() && item.front() == ' ') item.remove_prefix(1);
    if (item.size() > name.size() && item.substr(0, name.size()) == name && item[name.size()] == '=')
      return std::string(item.substr(name.size() + 1));
    pos = end + 1;
  }
  return {};
}

struct Command {
  nlohmann::json msg;
  std::function<void(nlohmann::json)> reply;  // called on the simulation thread
};

class WsSession;

// What the network thread and the simulation thread share. Sessions are touched on the network thread
// only; the rest is guarded or atomic.
struct Hub {
  Hub(net::io_context& io, std::string tok, std::string name) : ioc(io), token(std::move(tok)), cookie(std::move(name)) {}
  net::io_context& ioc;
  std::string token, cookie;
  std::set<WsSession*> sessions;

  std::mutex mutex;
  std::condition_variable wake;
  std::deque<Command> commands;
  std::atomic<int> ready{0};          // sessions that would send a new frame at once
  std::atomic<bool> force{false};     // a new session needs a frame even if nothing changed
  std::atomic<bool> stop{false};

  void submit(Command c) {
    {
      std::lock_guard<std::mutex> lock(mutex);
      commands.push_back(std::move(c));
    }
    wake.notify_one();
  }
  std::deque<Command> take(std::chrono::milliseconds wait) {
    std::unique_lock<std::mutex> lock(mutex);
    if (commands.empty() && wait.count() > 0) wake.wait_for(lock, wait, [&] { return !commands.empty() || stop.load(); });
    return std::exchange(commands, {});
  }
  bool authorized(std::string_view target, std::string_view cookies) const {
    const std::size_t q = target.find('?');
    return same_token(token, q == std::string_view::npos ? std::string() : find_value(target.substr(q + 1), "token", '&')) ||
           same_token(token, find_value(cookies, cookie, ';'));
  }
  void broadcast_text(const std::string& text);
  void broadcast_frame(std::shared_ptr<const std::string> frame);
};

nlohmann::json error_reply(const std::string& what) { return {{"ok", false}, {"error", what}}; }

// One page's WebSocket: JSON commands in; replies, notices and frames out. Text messages queue; a frame
// goes out only once the page has said it drew the previous one ({"type": "drawn"}), and of the frames
// made meanwhile only the newest waits: a slow browser gets fewer frames, never late ones, and never
// slows the run.
class WsSession : public std::enable_shared_from_this<WsSession> {
 public:
  WsSession(tcp::socket&& socket, Hub& hub) : ws_(std::move(socket)), hub_(hub) {}

  void run(http::request<http::string_body> req) {
    ws_.set_option(websocket::stream_base::timeout::suggested(beast::role_type::server));
    ws_.read_message_max(max_ws_read);
    ws_.async_accept(req, [self = shared_from_this()](beast::error_code ec) { self->on_accept(ec); });
  }

  void send_text(std::string text) {
    texts_.push_back(std::move(text));
    write_next();
  }
  void send_frame(std::shared_ptr<const std::string> frame) {
    pending_ = std::move(frame);
    write_next();
  }
  void close() {
    if (!open_) return;
    beast::error_code ec;
    beast::get_lowest_layer(ws_).socket().close(ec);
  }

 private:
  void on_accept(beast::error_code ec) {
    if (ec) return;
    open_ = true;
    hub_.sessions.insert(this);
    update_ready();
    hub_.force = true;
    command({{"type", "describe"}});
    read();
  }

  void read() {
    ws_.async_read(buffer_, [self = shared_from_this()](beast::error_code ec, std::size_t) { self->on_read(ec); });
  }

  void on_read(beast::error_code ec) {
    if (ec) return finish();
    const std::string text = beast::buffers_to_string(buffer_.data());
    buffer_.consume(buffer_.size());
    if (!ws_.got_text()) {
      send_text(error_reply("expected a JSON text message, got a binary one").dump());
    } else if (text.size() > max_message) {
      send_text(error_reply("message of " + std::to_string(text.size()) + " bytes: at most " + std::to_string(max_message)).dump());
    } else {
      nlohmann::json msg = nlohmann::json::parse(text, nullptr, false);
      if (msg.is_discarded()) {
        send_text(error_reply("not JSON: " + text.substr(0, 80)).dump());
      } else if (msg.is_object() && msg.value("type", "") == "drawn") {
        drawing_ = false;
        write_next();
      } else {
        command(std::move(msg));
      }
    }
    read();
  }

  // The reply goes back on the network thread, to this session if it is still there.
  void command(nlohmann::json msg) {
    std::weak_ptr<WsSession> weak = shared_from_this();
    net::io_context& ioc = hub_.ioc;
    hub_.submit({std::move(msg), [weak, &ioc](nlohmann::json reply) {
                   net::post(ioc, [weak, text = reply.dump()] {
                     if (auto self = weak.lock()) self->send_text(text);
                   });
                 }});
  }

  void write_next() {
    if (writing_ || !open_) return;
    std::shared_ptr<const std::string> frame;
    if (texts_.empty()) {
      if (!pending_ || drawing_) return update_ready();
      frame = std::exchange(pending_, nullptr);
      drawing_ = true;
    }
    writing_ = true;
    update_ready();
    ws_.binary(bool(frame));
    auto done = [self = shared_from_this(), frame](beast::error_code ec, std::size_t) { self->on_write(ec, bool(frame)); };
    if (frame) {
      ws_.async_write(net::buffer(*frame), std::move(done));
    } else {
      ws_.async_write(net::buffer(texts_.front()), std::move(done));
    }
  }

  void on_write(beast::error_code ec, bool was_frame) {
    writing_ = false;
    if (!was_frame) texts_.pop_front();
    if (ec) return finish();
    write_next();
  }

  void finish() {
    if (!open_) return;
    open_ = false;
    hub_.sessions.erase(this);
    update_ready();
  }

  // Hub::ready counts the open sessions that would send a frame at once.
  void update_ready() {
    const bool ready = open_ && !writing_ && !drawing_;
    if (ready == ready_) return;
    ready_ = ready;
    hub_.ready += ready ? 1 : -1;
  }

  websocket::stream<beast::tcp_stream> ws_;
  Hub& hub_;
  beast::flat_buffer buffer_;
  std::deque<std::string> texts_;
  std::shared_ptr<const std::string> pending_;
  bool writing_ = false, open_ = false, ready_ = false;
  bool drawing_ = false;  // a frame was sent and the page has not said it drew it
};

void Hub::broadcast_text(const std::string& text) {
  for (WsSession* s : sessions) s->send_text(text);
}
void Hub::broadcast_frame(std::shared_ptr<const std::string> frame) {
  for (WsSession* s : sessions) s->send_frame(frame);
}

const PageFile* find_page(std::string_view name) {
  for (const PageFile& f : page_files())
    if (name == f.name) return &f;
  return nullptr;
}

std::string content_type(std::string_view name) {
  if (name.ends_with(".js")) return "text/javascript; charset=utf-8";
  if (name.ends_with(".css")) return "text/css; charset=utf-8";
  return "text/html; charset=utf-8";
}

// One HTTP connection: the page's files, the API (GET /api/state, GET /api/describe, POST /api/command)
// and the upgrade to the WebSocket (/ws). Everything needs the token, in the query or the cookie that
// the page's first load sets.
class HttpSession : public std::enable_shared_from_this<HttpSession> {
 public:
  HttpSession(tcp::socket&& socket, Hub& hub) : stream_(std::move(socket)), hub_(hub) {}
  void run() { read(); }

 private:
  void read() {
    parser_.emplace();
    parser_->body_limit(max_message);
    stream_.expires_after(std::chrono::seconds(60));
    http::async_read(stream_, buffer_, *parser_, [self = shared_from_this()](beast::error_code ec, std::size_t) { self->on_read(ec); });
  }

  void on_read(beast::error_code ec) {
    if (ec == http::error::body_limit) return respond(http::status::payload_too_large, "text/plain", "request body too large\n", false);
    if (ec) return close();
    http::request<http::string_body> req = parser_->release();
    const std::string target(req.target());
    const std::string path = target.substr(0, target.find('?'));
    const beast::string_view cookies = req[http::field::cookie];
    if (!hub_.authorized(target, std::string_view(cookies.data(), cookies.size())))
      return respond(http::status::forbidden, "text/plain",
                     "pdex serve: this page needs the access token: open the URL that pdex serve printed\n", req.keep_alive());
    if (websocket::is_upgrade(req)) {
      if (path != "/ws") return respond(http::status::not_found, "text/plain", "no WebSocket at " + path + "\n", false);
      stream_.expires_never();
      std::make_shared<WsSession>(stream_.release_socket(), hub_)->run(std::move(req));
      return;
    }
    handle(req, path);
  }

  void handle(const http::request<http::string_body>& req, const std::string& path) {
    const bool keep = req.keep_alive();
    if (path.rfind("/api/", 0) == 0) return api(req, path);
    if (req.method() != http::verb::get) return respond(http::status::method_not_allowed, "text/plain", "GET only\n", keep);
    const std::string name = path == "/" ? "index.html" : path.substr(1);
    const PageFile* f = find_page(name);
    if (!f) return respond(http::status::not_found, "text/plain", "not found: " + path + "\n", keep);
    respond(http::status::ok, content_type(name), f->text, keep, name == "index.html");
  }

  void api(const http::request<http::string_body>& req, const std::string& path) {
    nlohmann::json msg;
    if (path == "/api/state" && req.method() == http::verb::get) {
      msg = {{"type", "get"}};
    } else if (path == "/api/describe" && req.method() == http::verb::get) {
      msg = {{"type", "describe"}};
    } else if (path == "/api/command" && req.method() == http::verb::post) {
      msg = nlohmann::json::parse(req.body(), nullptr, false);
      if (msg.is_discarded()) return respond(http::status::bad_request, "application/json", error_reply("the body is not JSON").dump(), req.keep_alive());
    } else {
      return respond(http::status::not_found, "application/json", error_reply("no API at " + path).dump(), req.keep_alive());
    }
    // The command holds the session until the simulation thread has answered it.
    net::io_context& ioc = hub_.ioc;
    hub_.submit({std::move(msg), [self = shared_from_this(), &ioc, keep = req.keep_alive()](nlohmann::json reply) {
                   net::post(ioc, [self, keep, reply = std::move(reply)] {
                     self->respond(reply.value("ok", false) ? http::status::ok : http::status::bad_request,
                                   "application/json", reply.dump(), keep);
                   });
                 }});
  }

  void respond(http::status status, const std::string& type, std::string body, bool keep, bool set_cookie = false) {
    auto res = std::make_shared<http::response<http::string_body>>(status, 11);
    res->set(http::field::server, "pdex");
    res->set(http::field::content_type, type);
    res->set(http::field::cache_control, "no-store");
    if (set_cookie) res->set(http::field::set_cookie, hub_.cookie + "=" + hub_.token + "; Path=/; HttpOnly; SameSite=Strict");
    res->keep_alive(keep);
    res->body() = std::move(body);
    res->prepare_payload();
    http::async_write(stream_, *res, [self = shared_from_this(), res, keep](beast::error_code ec, std::size_t) {
      if (ec || !keep) return self->close();
      self->read();
    });
  }

  void close() {
    beast::error_code ec;
    stream_.socket().shutdown(tcp::socket::shutdown_send, ec);
  }

  beast::tcp_stream stream_;
  Hub& hub_;
  beast::flat_buffer buffer_;
  std::optional<http::request_parser<http::string_body>> parser_;
};

void accept(tcp::acceptor& acceptor, Hub& hub) {
  acceptor.async_accept([&acceptor, &hub](beast::error_code ec, tcp::socket socket) {
    if (!ec) {
      socket.set_option(tcp::no_delay(true), ec);  // small replies and frames go out at once, not after an ACK
      std::make_shared<HttpSession>(std::move(socket), hub)->run();
    }
    if (!hub.stop) accept(acceptor, hub);
  });
}

// Binds host:port; the default port moves up to the next free one, an explicit one must be free.
tcp::acceptor listen(net::io_context& ioc, const ServeOptions& o) {
  const net::ip::address address = net::ip::make_address(o.host == "localhost" ? "127.0.0.1" : o.host);
  for (int port = o.port;; ++port) {
    tcp::acceptor acceptor(ioc);
    beast::error_code ec;
    const tcp::endpoint ep(address, static_cast<unsigned short>(port));
    acceptor.open(ep.protocol(), ec);
    if (!ec) acceptor.set_option(net::socket_base::reuse_address(true), ec);
    if (!ec) acceptor.bind(ep, ec);
    if (!ec) acceptor.listen(net::socket_base::max_listen_connections, ec);
    if (!ec) return acceptor;
    if (o.port_given || o.port == 0 || port >= o.port + 20)
      throw InputError("--port " + std::to_string(port) + ": cannot listen on " + o.host + ":" + std::to_string(port) + " (" +
                       ec.message() + "); choose another port, or --port 0 for any free one");
  }
}

// The simulation thread: commands between frames, a frame's steps, and a snapshot whenever a page is
// ready for one, the state has changed, and 1/max_fps has passed since the last.
void simulate(LiveRun& live, Hub& hub, double max_fps) {
  using Clock = std::chrono::steady_clock;
  const auto gap = std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(1.0 / max_fps));
  uint64_t published = 0;
  Clock::time_point last_frame{};
  while (!hub.stop) {
    for (Command& c : hub.take(std::chrono::milliseconds(live.playing() ? 0 : 20))) {
      nlohmann::json reply;
      try {
        reply = live.command(c.msg);
      } catch (const std::exception& e) {
        reply = error_reply(e.what());
      }
      if (c.msg.is_object() && c.msg.contains("id")) reply["id"] = c.msg["id"];
      reply["reply_to"] = c.msg.is_object() ? c.msg.value("type", "") : "";
      c.reply(std::move(reply));
    }
    live.tick();
    for (const nlohmann::json& n : live.take_notices())
      net::post(hub.ioc, [&hub, text = n.dump()] { hub.broadcast_text(text); });
    const bool changed = live.version() != published;
    if ((changed && hub.ready > 0 && Clock::now() - last_frame >= gap) || hub.force.exchange(false)) {
      published = live.version();
      last_frame = Clock::now();
      auto snap = std::make_shared<Snapshot>(live.snapshot());
      net::post(hub.ioc, [&hub, snap] { hub.broadcast_frame(std::make_shared<const std::string>(encode_frame(*snap))); });
    }
  }
}

bool loopback(const std::string& host) { return host == "127.0.0.1" || host == "localhost" || host == "::1"; }

}  // namespace

int run_server(LiveRun& live, ServeOptions o) {
  net::io_context ioc(1);
  tcp::acceptor acceptor = listen(ioc, o);
  const int port = acceptor.local_endpoint().port();
  Hub hub(ioc, o.token.empty() ? random_token() : o.token, "pdex_token_" + std::to_string(port));
  if (!loopback(o.host))
    std::fprintf(stderr, "pdex serve: warning: listening on %s, not only on this machine (127.0.0.1): whoever reaches it "
                 "with the token can steer this run and write into %s\n", o.host.c_str(), live.config().output.dir.c_str());
  const std::string shown_host = o.host.find(':') != std::string::npos ? "[" + o.host + "]" : o.host;
  const std::string url = "http://" + shown_host + ":" + std::to_string(port) + "/?token=" + hub.token;
  std::printf("pdex serve: %s on %s, %s\n    %s\nCtrl-C stops it and writes %s/summary.json\n", live.config().file.c_str(),
              live.config().model.c_str(), std::string(backend_name(live.config().backend)).c_str(), url.c_str(), live.config().output.dir.c_str());
  std::fflush(stdout);
  if (o.open_browser && std::system(("xdg-open '" + url + "' >/dev/null 2>&1 &").c_str()) != 0)
    std::fprintf(stderr, "pdex serve: could not open a browser (xdg-open); open the URL above\n");

  net::signal_set signals(ioc, SIGINT, SIGTERM);
  signals.async_wait([&](beast::error_code, int) {
    hub.stop = true;
    hub.wake.notify_all();
    ioc.stop();
  });
  accept(acceptor, hub);
  std::exception_ptr failure;
  std::thread sim([&] {
    try {
      simulate(live, hub, o.max_fps);
    } catch (...) {
      failure = std::current_exception();
      net::post(ioc, [&] { ioc.stop(); });
    }
  });
  ioc.run();
  hub.stop = true;
  hub.wake.notify_all();
  sim.join();
  live.write_summary();
  std::printf("\npdex serve: stopped; summary in %s/summary.json\n", live.config().output.dir.c_str());
  if (failure) std::rethrow_exception(failure);
  return 0;
}

}  // namespace pdex::serve
