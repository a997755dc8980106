#!/usr/bin/env bash
# Encodes engine/component/testdata/invalid/*.wat (components the validator must
# reject) and engine/component/testdata/valid/*.wat (components the engine must run)
# into .wasm with jco parse and refreshes their sums.sha256. Needs
# Node 20+ and npm; the only network use is `npm ci` against the registry.
set -euo pipefail

guests="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$guests"

./npm-ci.sh

node build-invalid.mjs
