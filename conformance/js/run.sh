#!/usr/bin/env bash
# Runs the official A2A JS SDK client (check.mjs, @a2a-js/sdk pinned in
# package-lock.json) against a capsule served by mur-go's A2A server.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
npm ci --no-audit --no-fund --silent
bin="$(mktemp -d)"
trap 'rm -rf "$bin"' EXIT
CGO_ENABLED=0 go build -o "$bin/echocapsule" ../../bench/a2a/echocapsule
# The capsule serves until its stdin closes: the fifo's writer is this
# script, so it ends with it.
mkfifo "$bin/stdin" "$bin/stdout"
"$bin/echocapsule" <"$bin/stdin" >"$bin/stdout" &
exec 3>"$bin/stdin" 4<"$bin/stdout"
read -r word url <&4 || true
[[ "$word" == url && -n "$url" ]] || { echo "echocapsule did not start" >&2; exit 1; }
node check.mjs "http://$url"
exec 3>&-
wait
