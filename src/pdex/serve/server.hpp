#pragma once
// `pdex serve`: the live explorer's web server (Boost.Beast): the page, its WebSocket, a small HTTP API,
// all behind a random access token, and the thread that steps the run (docs/explorer.md).
#include <string>

#include "pdex/serve/live_run.hpp"

namespace pdex::serve {

struct ServeOptions {
  std::string host = "127.0.0.1";
  int port = 8765;            // 0: any free port; the default moves up to the next free one
  bool port_given = false;    // an explicit --port must be free
  std::string token;          // empty: a random one
  bool open_browser = false;
  double max_fps = 120;       // frames a second at most: more than a screen shows costs the run steps
};

// Serves `live` until SIGINT or SIGTERM, then writes its summary. Returns the exit status.
int run_server(LiveRun& live, ServeOptions options);

// The page's files, built into pdex (cmake/embed_files.cmake): name -> contents.
struct PageFile {
  const char* name;
  const char* text;
};
const std::vector<PageFile>& page_files();

}  // namespace pdex::serve
