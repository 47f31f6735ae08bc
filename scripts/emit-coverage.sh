#!/usr/bin/env bash
# How much of a corpus of HLO modules `idxmap emit` turns into kernels: every `*.hlo` file under
# the folders given (a file of several modules is split at its `HloModule` lines), each module
# emitted as C++; prints the share emitted and, for the rest, the first problem's kind counted
# (the opcode and the reason, names and shapes dropped).
#   scripts/emit-coverage.sh [--idxmap PATH] DIR...
set -euo pipefail
idxmap="$(dirname "$0")/../build/idxmap"
if [[ "${1:-}" == "--idxmap" ]]; then
  idxmap="$2"
  shift 2
fi
if [[ $# -eq 0 ]]; then
  echo "usage: scripts/emit-coverage.sh [--idxmap PATH] DIR..." >&2
  exit 2
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
find "$@" -name '*.hlo' -type f | sort | while read -r file; do
  awk -v out="$work/$(basename "$file")" '
    /^HloModule / { n++ }
    { print > (out "." (n ? n : 1) ".hlo") }' "$file"
done
modules=0
emitted=0
: >"$work/reasons"
for module in "$work"/*.hlo; do
  modules=$((modules + 1))
  if "$idxmap" emit "$module" -o "$work/out.cpp" >/dev/null 2>"$work/err"; then
    emitted=$((emitted + 1))
  else
    grep -m1 -o 'error: .*' "$work/err" | sed -E 's/ \([^)]*\)//; s/[a-z0-9]+\[[^]]*\](\{[^}]*\})?/T/g' \
      | cut -c1-100 >>"$work/reasons" || echo "error: (no diagnostic)" >>"$work/reasons"
  fi
done
echo "emit-coverage: $emitted of $modules modules emitted"
sort "$work/reasons" | uniq -c | sort -rn | head -25
