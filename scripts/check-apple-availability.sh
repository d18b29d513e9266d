#!/usr/bin/env bash
# Fails on a use, outside code compiled only off Apple platforms, of an API that Apple platforms
# have only above this package's deployment targets (macOS 13, iOS 16, tvOS 16, watchOS 9), or not
# at all. This machine has no Apple SDK, so the compiler never sees those builds: on Linux the
# standard library's `@available(macOS 15, …)` marks are ignored, and `String(validating:as:)` once
# broke every Apple build of the library unnoticed. A lookup by name, not a compiler: it knows the
# APIs listed below and the `#if` branches that leave Apple platforms out.
set -euo pipefail
cd "$(dirname "$0")/.."

# Needs macOS 15 / iOS 18 (Synchronization, String's validating initialiser, spans), macOS 26
# (InlineArray, Task.immediate), or is a Linux-only module.
denied='String[(]validating:|(^|[^A-Za-z0-9_])(Mutex|Atomic)<|import Synchronization|(^|[^A-Za-z0-9_])(InlineArray|RawSpan|MutableSpan|UTF8Span)([^A-Za-z0-9_]|$)|Task[.]immediate|import FoundationEssentials'

status=0
while IFS= read -r file; do
  awk -v denied="$denied" -v file="$file" '
    # A branch leaves Apple platforms out when its condition names a platform that is not one.
    function offApple(condition) {
      return condition ~ /!canImport\(Darwin\)|canImport\(FoundationNetworking\)|canImport\(Glibc\)|canImport\(Musl\)|os\(Linux\)|os\(Windows\)|os\(Android\)/
    }
    function onlyApple(condition) {
      return condition ~ /^[[:space:]]*#(else)?if[[:space:]]+(canImport\(Darwin\)|os\(macOS\)|os\(iOS\)|canImport\(ObjectiveC\))[[:space:]]*$/
    }
    function excluded(   i) { for (i = 1; i <= depth; i++) if (off[i]) return 1; return 0 }
    /^[[:space:]]*#if/     { depth++; off[depth] = offApple($0); apple[depth] = onlyApple($0); next }
    /^[[:space:]]*#elseif/ { off[depth] = offApple($0); apple[depth] = onlyApple($0); next }
    /^[[:space:]]*#else/   { off[depth] = apple[depth]; apple[depth] = 0; next }
    /^[[:space:]]*#endif/  { depth--; next }
    /^[[:space:]]*\/\// { next }
    $0 ~ denied && !excluded() { printf "%s:%d: not on Apple platforms at the deployment targets: %s\n", file, NR, $0; found = 1 }
    END { exit found }
  ' "$file" || status=1
done < <(find Sources Tests Example/Sources Example/Tests -name '*.swift' 2>/dev/null | sort)

if [ "$status" -ne 0 ]; then
  echo "Gate these with #if !canImport(Darwin) or if #available, or use an API the deployment targets have." >&2
fi
exit "$status"
