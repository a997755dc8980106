#!/usr/bin/env bash
# Rebuilds the hello example's two WebAssembly components from source:
#   capsule/            -> capsule.wasm                   (the script capsule)
#   tools/word-count/   -> tools/word-count/word-count.wasm (its WASM tool)
# Both are Go wasip1 reactors wrapped into components by build.mjs with jco
# and the preview1 reactor adapter, then smoke-tested in jco's own runtime.
# Needs Go and Node 20+; the JS toolchain is the one pinned in guests/
# (npm ci there is the only network use). Unchanged sources give
# byte-identical outputs. The native tool (tools/greet) is built by
# publish.sh for the host, not here.
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
for pkg in capsule tools/word-count; do
	GOOS=wasip1 GOARCH=wasm CGO_ENABLED=0 GOFLAGS= go build \
		-buildmode=c-shared -trimpath -buildvcs=false -ldflags='-s -w' \
		-o "$here/build/$(basename "$pkg").core.wasm" "./examples/hello/$pkg"
done

node "$here/build.mjs"
