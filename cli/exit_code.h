// The exit statuses of every idxmap command (DESIGN.md, "Command-line contract").
#pragma once

namespace idxmap::cli {

enum ExitCode : int {
  kSuccess = 0,         // done; with --check, every output proven
  kRefuted = 1,         // a check found a counterexample (printed)
  kInvalidInput = 2,    // malformed input, unreadable file or bad usage (message on stderr)
  kUnknown = 3,         // a check could neither prove nor refute (timeout, unsupported)
  kEqualOverReals = 4,  // prove-equal: equal with float ops read as arithmetic on reals only
};

}  // namespace idxmap::cli
