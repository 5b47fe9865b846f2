#pragma once
// Movies of a run: pictures of one size (render_field's frames) piped to an ffmpeg child process as
// raw RGB, which encodes them as they come, so that no frame is kept in memory.
//
// The file's extension chooses the format: ".mp4" is H.264 (libx264, CRF 18, yuv420p with BT.709
// colours), each frame padded with a white column or row to even sides as yuv420p requires; ".gif"
// gets one palette made from all its frames (ffmpeg's palettegen and paletteuse).
// ffmpeg writes "<file>.<pid>.partial<ext>", renamed into place by close(), so that the movie is
// whole or absent. It runs in its own process group: Ctrl-C in the terminal reaches pdex alone, which
// may still close the movie with the frames so far.
#include <sys/types.h>

#include <filesystem>

#include "pdex/io/png_writer.hpp"

namespace pdex::io {

// Whether an executable named ffmpeg is on PATH: a run that writes movies checks before it starts.
bool ffmpeg_available();

class MovieWriter {
 public:
  // Starts ffmpeg for frames of width by height pixels shown at fps frames a second. Throws
  // pdex::InputError naming the file for an extension other than .mp4 or .gif, a size below 1 or an fps
  // that is not finite and positive, and when ffmpeg is not on PATH; pdex::Error when it cannot start.
  MovieWriter(std::filesystem::path file, int width, int height, double fps);
  // Without close(): stops ffmpeg and removes the partial file. Never throws.
  ~MovieWriter();
  MovieWriter(const MovieWriter&) = delete;
  MovieWriter& operator=(const MovieWriter&) = delete;

  // Throws pdex::Error naming the file for a frame of another size, after close(), or when ffmpeg has
  // stopped (its exit status and the last lines of its log in the message; nothing is left behind).
  void add_frame(const Image& frame);
  // Ends the movie, waits for ffmpeg and renames the file into place. Throws pdex::Error naming the
  // file, with ffmpeg's exit status and the last lines of its log, when it fails or when no frame was
  // added; nothing is left behind then. Once the movie is closed, or add_frame has failed, it does
  // nothing.
  void close();
  int frames() const { return frames_; }

 private:
  // Closes ffmpeg's stdin and waits for it to end; returns its wait status.
  int wait_child();

  std::filesystem::path file_, partial_, log_;
  int width_, height_;
  int frames_ = 0;
  pid_t child_ = -1;  // -1 once ffmpeg has been reaped
  int pipe_ = -1;     // the write end of ffmpeg's stdin
};

}  // namespace pdex::io
