#!/usr/bin/env bash
# Encodes the component model's reference tests
# (engine/component/testdata/reference/wast/**/*.wast, pinned in SOURCE) into
# one JSON file per .wast with jco parse, and refreshes sums.sha256, which
# engine/component/reference_test.go checks. Needs Node 20+ and npm; the only
# network use is `npm ci` against the registry.
set -euo pipefail

guests="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$guests"

./npm-ci.sh

node build-reference.mjs
