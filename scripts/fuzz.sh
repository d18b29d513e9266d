#!/usr/bin/env bash
# Builds the fuzz targets of Fuzz/ with libFuzzer and AddressSanitizer (Linux, the Swift toolchain's
# own libFuzzer) and runs them. Every target runs with its seed corpus, Fuzz/Corpus/<target>, and
# fails on a crash, a failed invariant, a sanitizer report, a hang, or an input that takes more than
# 100 ms of CPU time (ECNETWORKING_FUZZ_SLOW_MS changes the limit).
#
#   scripts/fuzz.sh                          build only
#   scripts/fuzz.sh --smoke [seconds]        build, then run each target for a few seconds (default 3)
#   scripts/fuzz.sh --long [seconds] [target ...]
#                                            run each target (or those named) for 600 seconds or as
#                                            given, one after another, and report executions per target
#
# A long run keeps what it finds in .build/fuzz-optimized/corpus/<target>, and each run starts from
# it and the seeds. A failing input is written to artifacts/<target>/ of the run's build folder;
# reproduce it with `bin/<target> <file>` of the same folder (shrink it with `-minimize_crash=1
# -runs=10000`). Keep an input that found a bug as a seed, named for what it shows.
#
# Built with swiftc directly rather than SwiftPM: libFuzzer's `main` must be the one linked, and the
# library must be built with coverage and -enable-testing for the targets to reach its internal
# parsers (no API is added for them). The build and smoke runs use one whole-module -Onone build,
# the fastest that instruments it (about 35 s of CPU), kept in .build/fuzz. Long runs use an -O
# build, kept in .build/fuzz-optimized (about three minutes of CPU): the 100 ms bar is about how
# the parsers scale on what a server sends, as users run them, and unoptimized generic code spends
# ten times as long per byte on calls an optimized build inlines, which would hide the one behind
# the other. Either build is redone only when a source or a flag changes.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ "$(uname -s)" != Linux ]; then
  echo "fuzz.sh: libFuzzer ships with the Swift toolchain on Linux only" >&2
  exit 1
fi

mode=build
seconds=
case "${1:-}" in
  --smoke) mode=smoke; seconds=${2:-3} ;;
  --long) mode=long; seconds=${2:-600}; shift $(( $# < 2 ? $# : 2 )) ;;
  "") ;;
  *) mode=usage ;;
esac
if [ "$mode" = usage ] || { [ "$mode" != build ] && ! [[ $seconds =~ ^[0-9]+$ ]]; }; then
  echo "usage: $0 [--smoke [seconds] | --long [seconds] [target ...]]" >&2
  exit 2
fi

build=.build/fuzz
optimization=-Onone
if [ "$mode" = long ]; then build=.build/fuzz-optimized; optimization=-O; fi
sanitizers=fuzzer,address
common=(-swift-version 6 "$optimization" -g -parse-as-library -sanitize="$sanitizers" -warnings-as-errors)

# Runs the command that follows the stamp and output paths, unless the stamp says it already ran
# with the same command line (flags and file names) on the same contents of the files in `inputs`.
build_if_changed() {
  local stamp=$1 output=$2; shift 2
  local digest
  digest=$({ printf '%s\n' "$*"; cat "${inputs[@]}"; } | sha256sum | cut -d' ' -f1)
  if [ -f "$output" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$digest" ]; then return 0; fi
  # The output goes too: swiftc adds its objects to an archive that exists, so the objects of a
  # source file since removed or renamed would stay in it, and the linker could take a stale one.
  rm -f "$stamp" "$output"
  "$@"
  echo "$digest" > "$stamp"
}

mkdir -p "$build/library" "$build/bin"
started=$(date +%s)

library_sources=()
while IFS= read -r file; do library_sources+=("$file"); done < <(find Sources/ECNetworking -name '*.swift' | LC_ALL=C sort)
inputs=("${library_sources[@]}")
build_if_changed "$build/library/stamp" "$build/library/libECNetworking.a" \
  swiftc "${common[@]}" -module-name ECNetworking -package-name ECNetworking -wmo -num-threads 2 -enable-testing \
  -emit-module -emit-module-path "$build/library/ECNetworking.swiftmodule" \
  -emit-library -static -o "$build/library/libECNetworking.a" "${library_sources[@]}"

fuzz_sources=(Fuzz/Sources/*.swift)
inputs=("${fuzz_sources[@]}" "$build/library/stamp")
build_if_changed "$build/bin/stamp" "$build/bin/ecnetworking-fuzz" \
  swiftc "${common[@]}" -module-name ECNetworkingFuzz -I "$build/library" -L "$build/library" -lECNetworking \
  -lFoundationNetworking -use-ld=lld -o "$build/bin/ecnetworking-fuzz" "${fuzz_sources[@]}"

# One link per target, named after its corpus folder: the name picks the target.
targets=()
for folder in Fuzz/Corpus/*/; do
  target=$(basename "$folder")
  targets+=("$target")
  ln -sf ecnetworking-fuzz "$build/bin/$target"
done
echo "fuzz: built ${#targets[@]} targets in $(( $(date +%s) - started )) s: ${targets[*]}"
[ "$mode" = build ] && exit 0

if [ "$mode" = long ] && [ $# -gt 0 ]; then targets=("$@"); fi

# Swift's own crash backtracer reads the stack in a way AddressSanitizer reports, after the failed
# check's message; libFuzzer prints the stack itself.
export SWIFT_BACKTRACE=enable=no
# Five frames of each allocation's stack, not thirty: recording them is a fifth of the run's time.
export ASAN_OPTIONS="malloc_context_size=5${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
failed=()
for target in "${targets[@]}"; do
  work="$build/corpus/$target"
  # A smoke run starts from the seeds alone, so that it does the same work every time.
  if [ "$mode" = smoke ]; then rm -rf "$work"; fi
  mkdir -p "$work" "$build/artifacts/$target" "$build/logs"
  log="$build/logs/$target.log"
  options=(-max_total_time="$seconds" -timeout=2 -rss_limit_mb=2048 -print_final_stats=1
    -artifact_prefix="$build/artifacts/$target/")
  if [ -f "Fuzz/Dictionaries/$target.dict" ]; then options+=(-dict="Fuzz/Dictionaries/$target.dict"); fi
  status=0
  "$build/bin/$target" "${options[@]}" "$work" "Fuzz/Corpus/$target" > "$log" 2>&1 || status=$?
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
  if [ "$status" -eq 0 ]; then
    printf 'fuzz: %-14s ok      %10s executions  %6s/s  corpus %s\n' "$target" "${runs:-?}" "${rate:-?}" \
      "$(find "$work" -type f | wc -l)"
  else
    printf 'fuzz: %-14s FAILED  (exit %s), log %s\n' "$target" "$status" "$log"
    grep -E 'ERROR|Fatal error|slow input|SUMMARY|Test unit written|==[0-9]+==' "$log" | head -20 || true
    failed+=("$target")
  fi
done
echo "fuzz: $mode run finished in $(( $(date +%s) - started )) s"
if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzz: failed: ${failed[*]}" >&2
  exit 1
fi
