#!/usr/bin/env bash
# Rebuilds the agent example's WebAssembly tool from source:
#   tools/word-stats/ -> tools/word-stats/word-stats.wasm
# A Go wasip1 reactor wrapped into a component by build.mjs with jco and
# the preview1 reactor adapter. Needs Go and Node 20+; the JS toolchain is
# the one pinned in guests/ (npm ci there is the only network use).
# Unchanged sources give byte-identical output. The native tool
# (tools/fingerprint) is built by publish.sh for the host, and the driver
# is the repository's scripted test driver (guests/out/scripted-go.wasm).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
guests="$repo/guests"

# The same lockfile stamp guests/build.sh uses: npm ci only when the
# installed toolchain no longer matches the lockfile.
stamp="$guests/node_modules/.installed-package-lock.json"
if ! cmp -s "$guests/package-lock.json" "$stamp" 2>/dev/null; then
	(cd "$guests" && npm ci --no-audit --no-fund --loglevel=error)
	cp "$guests/package-lock.json" "$stamp"
fi

mkdir -p "$here/build"
cd "$repo"
# -trimpath, -buildvcs=false: no local paths or commit state in the output;
# -s -w: no symbol table or DWARF.
GOOS=wasip1 GOARCH=wasm CGO_ENABLED=0 GOFLAGS= go build \
	-buildmode=c-shared -trimpath -buildvcs=false -ldflags='-s -w' \
	-o "$here/build/word-stats.core.wasm" ./examples/agent/tools/word-stats

node "$here/build.mjs"
