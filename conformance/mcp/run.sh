#!/usr/bin/env bash
# Runs the official MCP TypeScript SDK client (check.mjs,
# @modelcontextprotocol/sdk pinned in package-lock.json) against
# `mur mcp serve` serving the agent example (examples/agent), installed
# here as publish.sh --install would: mur and the native tool built, the
# three artifacts packed with `mur build` and installed into a copy of
# the project, which has a home and compilation cache of its own.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
cd "$here"
npm ci --no-audit --no-fund --silent
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
example="$root/examples/agent"
(cd "$root" && CGO_ENABLED=0 go build -o "$tmp/mur" ./cmd/mur &&
	CGO_ENABLED=0 go build -o "$tmp/src/fingerprint/bin/fingerprint" ./examples/agent/tools/fingerprint)
mur="$tmp/mur"
export HOME="$tmp/home" MUR_CACHE_DIR="$tmp/cache"
mkdir -p "$HOME" "$tmp/pkgs" "$tmp/project" "$tmp/workdir" "$tmp/src/scripted" "$tmp/src/word-stats"
cp "$example/drivers/scripted/murmur.yaml" "$tmp/src/scripted/"
cp "$root/guests/out/scripted-go.wasm" "$tmp/src/scripted/scripted.wasm"
cp "$example/tools/word-stats/murmur.yaml" "$example/tools/word-stats/word-stats.wasm" "$tmp/src/word-stats/"
cp "$example/tools/fingerprint/murmur.yaml" "$tmp/src/fingerprint/"
for a in scripted word-stats fingerprint; do
	"$mur" build "$tmp/src/$a" -o "$tmp/pkgs" >/dev/null
done
cp "$example/murmur.yaml" "$example/task.md" "$tmp/project/"
cp "$example/task.md" "$tmp/workdir/"
for zip in "$tmp"/pkgs/*.mur.zip; do
	(cd "$tmp/project" && "$mur" install "$zip" >/dev/null)
done
node check.mjs "$mur" "$tmp/project" "$tmp/workdir" "$HOME"
