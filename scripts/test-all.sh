#!/usr/bin/env bash
# Runs every test suite of the project: the library (plain and under ThreadSanitizer), the
# Example's end-to-end tests against its real server, and the benchmarks in quick mode so they
# never rot. Also fails on compiler warnings in the library and on swift-format findings.
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n==> %s\n' "$*"; }

step "swift format lint"
swift format lint --strict --recursive Sources Tests $(ls -d Example/Sources Example/Tests Benchmarks/Sources 2>/dev/null)

step "library build, warnings are errors"
swift build --build-tests -Xswiftc -warnings-as-errors

step "library tests"
swift test

step "default traits resolve no other package"
./scripts/check-default-dependencies.sh

step "library tests under ThreadSanitizer"
# The suppressions cover one known false positive of the concurrency runtime; see the file.
TSAN_OPTIONS="suppressions=$PWD/scripts/thread-sanitizer-suppressions.txt ${TSAN_OPTIONS:-}" \
  swift test --sanitize=thread --scratch-path .build/tsan

# The AsyncHTTPClient trait builds async-http-client and SwiftNIO; they get their own build folders
# so the default builds above stay free of them.
step "library build with the AsyncHTTPClient trait, warnings are errors"
swift build --build-tests -Xswiftc -warnings-as-errors --traits AsyncHTTPClient --scratch-path .build/traits

step "library tests with the AsyncHTTPClient trait"
# The same flags as the build above, so the test run reuses it instead of compiling again.
swift test -Xswiftc -warnings-as-errors --traits AsyncHTTPClient --scratch-path .build/traits

step "library tests with the AsyncHTTPClient trait under ThreadSanitizer"
TSAN_OPTIONS="suppressions=$PWD/scripts/thread-sanitizer-suppressions.txt ${TSAN_OPTIONS:-}" \
  swift test --sanitize=thread --traits AsyncHTTPClient --scratch-path .build/tsan-traits

# SwiftPM keeps the build plan of a package that uses this one by path (Example/, Benchmarks/) and
# does not notice source files added here since it was made: the stale plan then fails with
# "cannot find type". Dropping the plan, not the build, makes SwiftPM read the sources again.
for package in Example Benchmarks; do
  if [ -d "$package/.build" ]; then
    find "$package/.build" -maxdepth 3 -name description.json -delete
    rm -f "$package"/.build/*.yaml
  fi
done

if [ -f Example/Package.swift ]; then
  step "Example: end-to-end tests against the embedded server"
  swift test --package-path Example
fi

if [ -f Benchmarks/Package.swift ]; then
  step "Benchmarks, quick mode"
  swift run -c release --package-path Benchmarks Benchmarks --quick
fi

printf '\nAll suites passed.\n'
