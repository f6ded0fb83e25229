#!/usr/bin/env bash
# The project's test command (README): every package, with the race detector,
# then the tests of the patched copy of santhosh-tekuri/jsonschema
# (third_party/README.md).
set -euo pipefail
cd "$(dirname "$0")"
go test -race -timeout 15m ./... "$@"
cd third_party/jsonschema
exec go test -race -timeout 5m . "$@"
