#!/usr/bin/env bash
# Installs wrk from Debian when it is missing, so the full benchmark run can measure the loopback
# server alone. Needs root (or sudo) and the Debian package index; prints why when it cannot.
set -euo pipefail

if command -v wrk >/dev/null 2>&1; then
  exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "ensure-wrk: no apt-get here; install wrk by hand to measure the server alone" >&2
  exit 1
fi
run() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo -n "$@"; fi; }
export DEBIAN_FRONTEND=noninteractive
if ! run apt-get install -y --no-install-recommends wrk >/dev/null 2>&1; then
  # The package index may be missing or stale on a fresh machine.
  run apt-get update >/dev/null
  run apt-get install -y --no-install-recommends wrk >/dev/null
fi
command -v wrk >/dev/null
