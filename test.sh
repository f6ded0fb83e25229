#!/usr/bin/env bash
# The project's test command (README): every package, with the race detector.
set -euo pipefail
cd "$(dirname "$0")"
exec go test -race -timeout 15m ./... "$@"
