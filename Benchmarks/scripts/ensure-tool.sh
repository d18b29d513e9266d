#!/usr/bin/env bash
# Usage: ensure-tool.sh COMMAND PACKAGE...
# Installs the Debian PACKAGEs when COMMAND is missing, for the tools the full benchmark run drives
# (wrk for the server alone, valgrind and strip for instruction counts). Needs root (or sudo) and
# the Debian package index; prints why when it cannot.
set -euo pipefail

command_name=$1
shift
if command -v "$command_name" >/dev/null 2>&1; then
  exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "ensure-tool: no apt-get here; install $* by hand" >&2
  exit 1
fi
run() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo -n "$@"; fi; }
export DEBIAN_FRONTEND=noninteractive
if ! run apt-get install -y --no-install-recommends "$@" >/dev/null 2>&1; then
  # The package index may be missing or stale on a fresh machine.
  run apt-get update >/dev/null
  run apt-get install -y --no-install-recommends "$@" >/dev/null
fi
command -v "$command_name" >/dev/null
