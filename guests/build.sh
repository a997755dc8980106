#!/usr/bin/env bash
# Rebuilds every test guest from source into guests/out/ and refreshes
# guests/fixtures.sha256. Needs Go and Node 20+ with npm; the only network
# use is `npm ci` against the registry. Idempotent: unchanged sources give
# byte-identical outputs (the JS guest is reused unless its sources change or
# --rebuild-js is passed; see build.mjs for why).
set -euo pipefail

guests="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$guests"

# npm ci wipes node_modules first, so skip it while the installed tree still
# matches the lockfile: faster, and a concurrent build keeps its toolchain.
stamp=node_modules/.installed-package-lock.json
if ! cmp -s package-lock.json "$stamp" 2>/dev/null; then
	npm ci --no-audit --no-fund --loglevel=error
	cp package-lock.json "$stamp"
fi

mkdir -p build
# -buildvcs=false and -trimpath keep commit state and local paths out of the
# binary; -s -w drops DWARF and the symbol table (about 35 KB of names).
for guest in toolrun wasitest fsattack scripted cmdrun compact guard; do
	GOOS=wasip1 GOARCH=wasm CGO_ENABLED=0 GOFLAGS= go build \
		-buildmode=c-shared -trimpath -buildvcs=false -ldflags='-s -w' \
		-o "build/$guest-go.core.wasm" "./go/$guest"
done

node build.mjs "$@"
