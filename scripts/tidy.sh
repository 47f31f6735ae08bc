#!/usr/bin/env bash
# clang-tidy with the repository's .clang-tidy on the library and CLI sources.
#   ./scripts/tidy.sh            # the .cpp files changed by the last commit (what CI runs)
#   ./scripts/tidy.sh --all      # every library and CLI source (about 90 s on 2 cores)
#   ./scripts/tidy.sh FILE...    # these files
# It needs only a configured tree (build-tidy/, without precompiled headers, which clang
# cannot read from GCC), not a build. A header is checked through the sources including it.
# Exits non-zero on any finding. Sources that passed unchanged are not checked again
# (scripts/tidy_cache.py; the cache is $HOME/.cache/idxmap-tidy, or IDXMAP_TIDY_CACHE).
set -euo pipefail
cd "$(dirname "$0")/.."

sources='^(core|simplifier|ops|verify|codegen|api|cli)/.*\.cpp$'
if [[ ${1:-} == --all ]]; then
  mapfile -t files < <(git ls-files | grep -E "$sources")
elif [[ $# -gt 0 ]]; then
  files=("$@")
elif git rev-parse -q --verify HEAD~1 >/dev/null; then
  # A changed header stands for every source that includes it directly.
  mapfile -t changed < <(git diff --name-only --diff-filter=AMR HEAD~1 HEAD)
  files=()
  for file in "${changed[@]}"; do
    if [[ $file =~ $sources ]]; then files+=("$file"); fi
    if [[ $file =~ ^(core|simplifier|ops|verify|codegen|cli)/.*\.h$ ]]; then
      mapfile -t -O "${#files[@]}" files < <(git grep -l "#include \"$file\"" -- '*.cpp' |
        grep -E "$sources" || true)
    fi
  done
  mapfile -t files < <(printf '%s\n' "${files[@]}" | sort -u | grep . || true)
else
  files=()
fi
if [[ ${#files[@]} -eq 0 ]]; then
  echo "tidy.sh: no library or CLI source to check"
  exit 0
fi

tidy=$(command -v clang-tidy-14 || command -v clang-tidy)
runner=$(command -v run-clang-tidy-14 || command -v run-clang-tidy)
cmake -S . -B build-tidy -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_DISABLE_PRECOMPILE_HEADERS=ON -DIDXMAP_BUILD_BENCH=OFF -DIDXMAP_BUILD_TESTS=OFF \
  >/dev/null
# A source that passed before, with the same preprocessed text, flags, checks and clang-tidy,
# passes again: scripts/tidy_cache.py remembers passes under the home folder (CI's warm runs).
cache=${IDXMAP_TIDY_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/idxmap-tidy}
remember=(/usr/bin/python3 scripts/tidy_cache.py -p build-tidy --tidy "$tidy" --cache "$cache")
missed=$("${remember[@]:0:2}" misses "${remember[@]:2}" "${files[@]}")
mapfile -t misses < <(grep . <<<"$missed" || true)
echo "tidy.sh: ${#files[@]} file(s); $((${#files[@]} - ${#misses[@]})) passed before unchanged" \
  "($cache)"
if [[ ${#misses[@]} -eq 0 ]]; then exit 0; fi
"$runner" -clang-tidy-binary "$tidy" -p build-tidy -quiet -j "${IDXMAP_JOBS:-$(nproc)}" \
  "${misses[@]/#/$PWD/}"
"${remember[@]:0:2}" record "${remember[@]:2}" "${misses[@]}"
