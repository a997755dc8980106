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
for guest in toolrun wasitest fsattack scripted cmdrun driver-openai driver-anthropic keyspy keythief compact guard; do
	GOOS=wasip1 GOARCH=wasm CGO_ENABLED=0 GOFLAGS= go build \
		-buildmode=c-shared -trimpath -buildvcs=false -ldflags='-s -w' \
		-o "build/$guest-go.core.wasm" "./go/$guest"
done

# The Rust driver (rust/driver) needs a Rust compiler with the wasm32
# standard library: Debian's rustc with libstd-rust-dev-wasm32 and lld
# (rustup's wasm32-unknown-unknown target works too). Without one,
# build.mjs keeps the committed out/driver-rust.wasm while its sources are
# unchanged; CI never rebuilds it.
rm -f build/driver-rust.core.wasm
rustc=""
for candidate in ${RUSTC:-} /usr/bin/rustc rustc; do
	sysroot="$("$candidate" --print sysroot 2>/dev/null)" || continue
	if [[ -d "$sysroot/lib/rustlib/wasm32-unknown-unknown" ]]; then
		rustc="$candidate"
		break
	fi
done
if [[ -n "$rustc" ]]; then
	# --remap-path-prefix keeps this checkout's path out of the output.
	"$rustc" --edition 2021 --crate-type cdylib --crate-name driver_rust \
		--target wasm32-unknown-unknown -C opt-level=s -C panic=abort \
		-C strip=symbols -C debuginfo=0 --remap-path-prefix="$guests=." \
		-o build/driver-rust.core.wasm rust/driver/src/lib.rs
else
	echo "build.sh: no rustc with the wasm32-unknown-unknown standard library; keeping out/driver-rust.wasm" \
		"(apt-get install rustc libstd-rust-dev-wasm32 lld to rebuild it)" >&2
fi

node build.mjs "$@"
