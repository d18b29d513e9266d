#!/usr/bin/env bash
# Proves that a package depending on ECNetworking with its default traits resolves no other
# package: a throwaway consumer in a temporary folder depends on this one by path, and
# `swift package resolve` must leave neither a checkout nor a pin. The same consumer then enables
# the AsyncHTTPClient trait and must resolve async-http-client, which shows the check can fail.
set -euo pipefail
package_root="$(cd "$(dirname "$0")/.." && pwd)"
consumer="$(mktemp -d "${TMPDIR:-/tmp}/ecnetworking-consumer.XXXXXX")"
trap 'rm -rf "$consumer"' EXIT

# Writes the consumer's manifest; $1 is the text after the path in its `.package(...)` line.
write_consumer() {
  mkdir -p "$consumer/Sources/Consumer"
  echo 'import ECNetworking' >"$consumer/Sources/Consumer/Consumer.swift"
  cat >"$consumer/Package.swift" <<MANIFEST
// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "Consumer",
    dependencies: [.package(path: "$package_root"$1)],
    targets: [.target(name: "Consumer", dependencies: [.product(name: "ECNetworking", package: "$(basename "$package_root")")])]
)
MANIFEST
  rm -rf "$consumer/.build" "$consumer/Package.resolved"
}

# The packages other than ECNetworking that the consumer resolved, one a line.
resolved_packages() {
  swift package resolve --package-path "$consumer" >"$consumer/resolve.log" 2>&1 || {
    cat "$consumer/resolve.log" >&2
    echo "check-default-dependencies: swift package resolve failed" >&2
    exit 1
  }
  {
    ls "$consumer/.build/checkouts" 2>/dev/null || true
    if [ -f "$consumer/Package.resolved" ]; then
      grep -o '"identity" *: *"[^"]*"' "$consumer/Package.resolved" | sed 's/.*: *"\(.*\)"/\1/'
    fi
  } | sort -u
}

write_consumer ""
extra="$(resolved_packages)"
if [ -n "$extra" ]; then
  echo "check-default-dependencies: with default traits, a consumer resolves other packages:" >&2
  echo "$extra" >&2
  exit 1
fi
echo "default traits: the consumer resolves ECNetworking alone"

write_consumer ', traits: ["AsyncHTTPClient"]'
if ! resolved_packages | grep -qx 'async-http-client'; then
  echo "check-default-dependencies: with the AsyncHTTPClient trait the consumer did not resolve" \
    "async-http-client, so this check cannot tell a dependency when there is one" >&2
  exit 1
fi
echo "AsyncHTTPClient trait: the consumer resolves async-http-client, as it should"
