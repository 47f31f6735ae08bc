#!/usr/bin/env python3
"""clang-tidy's verdicts remembered, as ccache remembers objects (scripts/tidy.sh uses it).

A source that passed clang-tidy once passes again while nothing it is checked on changes:
its preprocessed text (every header it includes, as clang sees it), its compile flags, the
checks (.clang-tidy) and clang-tidy's version. This script names each source by a hash of
those, and tidy.sh skips the sources whose name is in the cache (under the home folder, so
consecutive CI runs on one machine share it; IDXMAP_TIDY_CACHE moves it).

  tidy_cache.py misses  -p BUILD --tidy BIN --cache DIR FILE...   the files not known to pass
  tidy_cache.py record  -p BUILD --tidy BIN --cache DIR FILE...   remember that they passed

Preprocessing runs on every core; a source that cannot be preprocessed is a miss (clang-tidy
then says why). Line markers are left out and the checkout's path is replaced by `.`, so a
clone elsewhere finds the same names.
"""
import argparse
import concurrent.futures
import hashlib
import json
import os
import shlex
import subprocess
import sys


def compile_arguments(entry):
    if "arguments" in entry:
        return list(entry["arguments"])
    return shlex.split(entry["command"])


def preprocess_command(entry, clang):
    """The entry's compile command with clang, preprocessing only, to standard output."""
    arguments = compile_arguments(entry)[1:]
    out = [clang]
    skip = False
    for argument in arguments:
        if skip:
            skip = False
            continue
        if argument in ("-o", "-MF", "-MT", "-MQ"):
            skip = True
            continue
        if argument in ("-c", "-MD", "-MMD"):
            continue
        out.append(argument)
    return out + ["-E", "-P"]


def name_of(entry, clang, tool_and_checks, root):
    command = preprocess_command(entry, clang)
    result = subprocess.run(command, cwd=entry["directory"], capture_output=True)
    if result.returncode != 0:
        return None
    digest = hashlib.sha256(tool_and_checks)
    digest.update(" ".join(command[1:]).replace(root, ".").encode())
    digest.update(b"\0")
    digest.update(result.stdout.replace(root.encode(), b"."))
    return digest.hexdigest()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("mode", choices=["misses", "record"])
    parser.add_argument("-p", dest="build", required=True)
    parser.add_argument("--tidy", required=True)
    parser.add_argument("--cache", required=True)
    parser.add_argument("files", nargs="*")
    args = parser.parse_intermixed_args()

    root = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
    with open(os.path.join(args.build, "compile_commands.json")) as f:
        entries = {os.path.realpath(e["file"]): e for e in json.load(f)}
    version = subprocess.run([args.tidy, "--version"], capture_output=True).stdout
    with open(os.path.join(root, ".clang-tidy"), "rb") as f:
        tool_and_checks = version + b"\0" + f.read() + b"\0"
    clang = os.environ.get("IDXMAP_TIDY_CLANG", "clang++")

    def name(file):
        entry = entries.get(os.path.realpath(os.path.join(root, file)))
        return name_of(entry, clang, tool_and_checks, root) if entry else None

    with concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 2) as pool:
        names = list(pool.map(name, args.files))
    os.makedirs(args.cache, exist_ok=True)
    for file, key in zip(args.files, names):
        path = os.path.join(args.cache, key) if key else None
        if args.mode == "misses" and (path is None or not os.path.exists(path)):
            print(file)
        elif args.mode == "record" and path is not None:
            with open(path, "w") as f:
                f.write(file + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
