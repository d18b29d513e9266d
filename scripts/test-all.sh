#!/usr/bin/env bash
# Runs every test suite of the project: the library (with default traits, with every trait, and
# with every trait under ThreadSanitizer), the interop suite against nginx and tinyproxy, the
# Example's end-to-end tests against its real server, and the benchmarks in quick mode so they
# never rot. Also fails on compiler warnings in the library, on swift-format findings, on an API
# the Apple deployment targets lack, and on a documentation warning or an undocumented public symbol.
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n==> %s\n' "$*"; }

# The AsyncHTTPClient transport's TLS tests start `openssl s_server` with a throwaway certificate.
if ! command -v openssl >/dev/null 2>&1; then
  step "installing openssl for the TLS tests"
  apt-get update -qq && apt-get install -y -qq openssl
fi

step "swift format lint"
swift format lint --strict --recursive Sources Tests $(ls -d Example/Sources Example/Tests Benchmarks/Sources Fuzz/Sources 2>/dev/null)

# Every package trait the library declares; each is off by default.
all_traits="AsyncHTTPClient,Logging,Tracing,Metrics,OpenAPI"
tsan() {
  # The suppressions cover one known false positive of the concurrency runtime; see the file.
  TSAN_OPTIONS="suppressions=$PWD/scripts/thread-sanitizer-suppressions.txt ${TSAN_OPTIONS:-}" "$@"
}

step "no API above the Apple deployment targets outside Linux-only code"
./scripts/check-apple-availability.sh

step "default traits resolve no other package"
./scripts/check-default-dependencies.sh

# Each variant passes the same flags to its build and its test run, so the run reuses the build.
step "library build with default traits, warnings are errors"
swift build --build-tests -Xswiftc -warnings-as-errors

# Reads the symbol graphs of the build above, so it compiles nothing itself.
step "documentation: both DocC catalogs with warnings as errors, and a doc comment on every public symbol"
./scripts/build-docs.sh --skip-build

# At most eight tests at a time. The concurrency runtime has two threads on two cores, and every
# test's CPU work between suspensions queues on them: with all 800 tests started at once, a login
# due in milliseconds waited 10 to 15 s behind the others in runs beside another build, past the
# bounds the tests allow. Eight keep both cores busy, since most tests wait on sockets and clocks.
width=8
step "library tests with default traits"
SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH=$width swift test -Xswiftc -warnings-as-errors

# The traits build async-http-client and SwiftNIO, so they get their own build folders and the
# default build above stays free of them.
step "library build with every trait ($all_traits), warnings are errors"
swift build --build-tests -Xswiftc -warnings-as-errors --traits "$all_traits" --scratch-path .build/traits

step "library tests with every trait"
SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH=$width \
  swift test -Xswiftc -warnings-as-errors --traits "$all_traits" --scratch-path .build/traits

# Real servers: nginx over HTTP/1.1, HTTPS with HTTP/2 and mutual TLS, and tinyproxy, installed
# from the system's packages when missing; reuses the build above.
step "interoperability: both transports against nginx and tinyproxy"
./scripts/interop.sh

# One ThreadSanitizer run, with every trait: it covers the default code too, and a second
# sanitized build of the whole dependency graph would cost CI ten minutes more. ThreadSanitizer
# runs the code 5 to 15 times slower; with every suite started at once on two cores, sends waiting
# on real sockets and deadlines went 20 s without a turn, past the bounds their tests allow. Six
# tests at a time keep both cores busy without that.
step "library tests with every trait under ThreadSanitizer"
SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH=6 \
  tsan swift test --sanitize=thread --traits "$all_traits" --scratch-path .build/tsan-traits

# SwiftPM keeps the build plan of a package that uses this one by path (Example/, Benchmarks/) and
# does not notice source files added here since it was made: the stale plan then fails with
# "cannot find type". Dropping the plan, not the build, makes SwiftPM read the sources again.
for package in Example Benchmarks; do
  if [ -d "$package/.build" ]; then
    find "$package/.build" -maxdepth 3 -name description.json -delete
    rm -f "$package"/.build/*.yaml
  fi
done

# The parsers a server controls, each fuzzed for a few seconds from its seed corpus (Fuzz/Corpus);
# `./scripts/fuzz.sh --long` runs them for ten minutes each. The smoke run is for crashes, failed
# checks and hangs: it stops only an input over a second of CPU, where a long run holds each input
# to 100 ms (a debug build with AddressSanitizer puts some ordinary header inputs near 100 ms).
step "fuzz targets: built with libFuzzer and AddressSanitizer, 3 s of each from its seeds"
ECNETWORKING_FUZZ_SLOW_MS=1000 ./scripts/fuzz.sh --smoke

if [ -f Example/Package.swift ]; then
  step "Example: end-to-end tests against the embedded server"
  swift test --package-path Example
fi

if [ -f Benchmarks/Package.swift ]; then
  step "Benchmarks, quick mode"
  swift run -c release --package-path Benchmarks Benchmarks --quick
fi

printf '\nAll suites passed.\n'
