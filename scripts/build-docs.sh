#!/usr/bin/env bash
# Builds the DocC documentation of ECNetworking and ECNetworkingTesting with the toolchain's own
# docc, no package plugin: symbol graphs are extracted from the default debug build (the one
# scripts/test-all.sh makes, with the same flags, so in CI nothing is compiled again), then each
# catalog is converted with warnings as errors, so a broken link, an unknown symbol or an
# undocumented parameter fails. docc renders a symbol without a doc comment without complaint, so
# scripts/check-documented-symbols.swift fails on those and names them.
#
# Usage: scripts/build-docs.sh [--skip-build]
#   --skip-build   use the debug build as it is (after `swift build --build-tests -Xswiftc -warnings-as-errors`)
# The archives land in .build/documentation/<Module>.doccarchive; preview one with
# `docc preview Sources/ECNetworking/ECNetworking.docc --additional-symbol-graph-dir .build/documentation/symbol-graphs/ECNetworking`.
set -euo pipefail
cd "$(dirname "$0")/.."

modules=(ECNetworking ECNetworkingTesting)
output=.build/documentation

if [ "${1:-}" != "--skip-build" ]; then
  swift build --build-tests -Xswiftc -warnings-as-errors
fi

tool() {
  # docc and swift-symbolgraph-extract sit beside swift in a toolchain; Xcode finds them with xcrun.
  local swift_dir
  swift_dir="$(dirname "$(readlink -f "$(command -v swift)")")"
  if [ -x "$swift_dir/$1" ]; then echo "$swift_dir/$1"
  elif command -v "$1" >/dev/null; then command -v "$1"
  else xcrun --find "$1"
  fi
}
docc="$(tool docc)"
extract="$(tool swift-symbolgraph-extract)"
modules_dir="$(swift build --show-bin-path)/Modules"
triple="$(swiftc -print-target-info | sed -n 's/^ *"triple": "\(.*\)",*$/\1/p' | head -n 1)"
sdk=()
if [ "$(uname)" = Darwin ]; then sdk=(-sdk "$(xcrun --show-sdk-path)"); fi

rm -rf "$output"
for module in "${modules[@]}"; do
  graphs="$output/symbol-graphs/$module"
  mkdir -p "$graphs"
  # Public symbols only; members a protocol extension or superclass supplies are documented where
  # they are declared; a symbol's documentation must be its own (-skip-inherited-docs) for the
  # check below to mean anything.
  "$extract" -module-name "$module" -target "$triple" "${sdk[@]}" -I "$modules_dir" \
    -minimum-access-level public -skip-synthesized-members -skip-inherited-docs -output-dir "$graphs"
  "$docc" convert "Sources/$module/$module.docc" \
    --additional-symbol-graph-dir "$graphs" \
    --fallback-display-name "$module" --fallback-bundle-identifier "$module" \
    --output-path "$output/$module.doccarchive" \
    --warnings-as-errors

  # The way Swift Package Index and `swift package generate-documentation` build it: synthesized
  # members and inherited documentation included, extensions as blocks of their own. A link in a
  # protocol extension's doc comment is then read again on every conforming type, where a relative
  # link that resolved above may not.
  published="$output/published-symbol-graphs/$module"
  mkdir -p "$published" "$output/published"
  "$extract" -module-name "$module" -target "$triple" "${sdk[@]}" -I "$modules_dir" \
    -minimum-access-level public -emit-extension-block-symbols -output-dir "$published"
  "$docc" convert "Sources/$module/$module.docc" \
    --additional-symbol-graph-dir "$published" \
    --fallback-display-name "$module" --fallback-bundle-identifier "$module" \
    --output-path "$output/published/$module.doccarchive" \
    --warnings-as-errors
done

swift scripts/check-documented-symbols.swift "${modules[@]/#/$output/symbol-graphs/}"
