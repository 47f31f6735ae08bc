// Scratch directories for tests that write files (CLI inputs and outputs, nvcc's PTX, JIT
// caches, ThreadSanitizer programs): each is fresh, lives under GoogleTest's temporary
// directory, and is removed when the test process exits, so that runs do not fill /tmp with one
// directory per command (thousands a CI run). IDXMAP_KEEP_SCRATCH=1 keeps them, to read what a
// failing test wrote.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <mutex>
#include <string>
#include <system_error>
#include <vector>

namespace idxmap::scratch {

class Directories {
 public:
  static Directories& instance() {
    static Directories directories;
    return directories;
  }
  // A fresh directory named `prefix`_<pid>_<n>.
  std::filesystem::path make(const std::string& prefix) {
    const std::filesystem::path dir =
        std::filesystem::path(::testing::TempDir()) /
        (prefix + "_" + std::to_string(getpid()) + "_" + std::to_string(counter_++));
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    const std::lock_guard<std::mutex> hold(lock_);
    made_.push_back(dir);
    return dir;
  }
  Directories(const Directories&) = delete;
  Directories& operator=(const Directories&) = delete;

 private:
  Directories() = default;
  ~Directories() {
    if (const char* keep = std::getenv("IDXMAP_KEEP_SCRATCH"); keep && *keep && *keep != '0')
      return;
    std::error_code ignored;  // a directory a test removed itself is fine
    for (const std::filesystem::path& dir : made_) std::filesystem::remove_all(dir, ignored);
  }
  std::mutex lock_;
  std::atomic<int> counter_ = 0;
  std::vector<std::filesystem::path> made_;
};

// A fresh directory named `prefix`_<pid>_<n>, removed when the process exits.
inline std::filesystem::path directory(const std::string& prefix) {
  return Directories::instance().make(prefix);
}

}  // namespace idxmap::scratch
