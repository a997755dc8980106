#!/usr/bin/env bash
# Runs the official A2A JS SDK client (check.mjs, @a2a-js/sdk pinned in
# package-lock.json) against agent capsules served by `mur run`: the real
# loop with the scripted driver (guests/out/scripted-go.wasm), which
# replays one script for every task, so each behaviour the check needs is
# its own capsule: "answer" calls the WASM echo tool then answers, "sleeper"
# runs a shell sleep until cancelled, "asker" calls a WASM tool that asks
# its task for input.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
cd "$here"
npm ci --no-audit --no-fund --silent
tmp="$(mktemp -d)"
pids=()
cleanup() {
	for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
	wait || true
	rm -rf "$tmp"
}
trap cleanup EXIT
(cd "$root" && CGO_ENABLED=0 go build -o "$tmp/mur" ./cmd/mur)
mur="$tmp/mur"
# The capsules get a home and cache of their own (after the build, which
# keeps the user's Go caches): the check never touches the user's Murmur.
export HOME="$tmp/home" MUR_CACHE_DIR="$tmp/cache"
mkdir -p "$HOME" "$tmp/pkgs"

# package NAME RUNTIME GUEST builds NAME-0.1.0.mur.zip from guests/out.
package() {
	local dir="$tmp/src/$1"
	mkdir -p "$dir"
	cp "$root/guests/out/$3.wasm" "$dir/$1.wasm"
	printf 'name: %s\nversion: "0.1.0"\nruntime: %s\ndescription: test %s %s\nrequires_files: [%s.wasm]\n' \
		"$1" "$2" "$2" "$1" "$1" >"$dir/murmur.yaml"
	"$mur" build "$dir" -o "$tmp/pkgs" >/dev/null
}
package scripted driver scripted-go
package echo tool toolrun-go
package ask tool tool-io

# serve NAME TURNS [TOOL] [EXTRA] writes capsule NAME whose driver replays
# TURNS, starts `mur run --json` and sets url to the URL its launch line
# names; the rest of its output drains to a file, so it never blocks.
serve() {
	local name="$1" turns="${2//$'\n'/ }" tool="${3:-}" extra="${4:-}" dir="$tmp/capsules/$1"
	mkdir -p "$dir"
	{
		printf 'name: %s\nversion: "0.1.0"\ndescription: %s, served for the JS SDK check\n' "$name" "$name"
		printf 'inference:\n  endpoint: http://localhost:9\n  model: scripted-model\n'
		printf '  driver:\n    artifact: scripted\n    config: {"turns": %s}\n' "$turns"
		printf 'artifacts:\n  - {name: scripted, version: "0.1.0", runtime: driver}\n'
		[[ -n "$tool" ]] && printf '  - {name: %s, version: "0.1.0", runtime: tool}\n' "$tool"
		printf 'lifecycle:\n  task_acceptance: queue\n  after_task: sleep\n  queue_depth: 64\n%s' "$extra"
	} >"$dir/murmur.yaml"
	(cd "$dir" && "$mur" install "$tmp/pkgs/scripted-0.1.0.mur.zip" >/dev/null)
	[[ -n "$tool" ]] && (cd "$dir" && "$mur" install "$tmp/pkgs/$tool-0.1.0.mur.zip" >/dev/null)
	mkfifo "$dir/launch"
	(cd "$dir" && exec "$mur" run --json >"$dir/launch" 2>"$dir/stderr") &
	pids+=($!)
	local line fd
	exec {fd}<"$dir/launch"
	if ! read -r -u "$fd" line; then
		echo "capsule $name did not start:" >&2
		cat "$dir/stderr" >&2
		exit 1
	fi
	cat <&"$fd" >"$dir/stdout" &
	exec {fd}<&-
	[[ "$line" =~ \"url\":\"([^\"]+)\" ]] || { echo "capsule $name: no URL in $line" >&2; exit 1; }
	url="http://${BASH_REMATCH[1]}"
}

# The echo tool answers its input reversed: {"text":"hello"} comes back as
# }"olleh":"txet"{, which the driver checks before it answers.
serve answer '[{"tool_calls": [{"id": "e", "name": "echo", "input": {"text": "hello"}}]},
  {"expect_results": [{"tool_call_id": "e", "is_error": false, "text": "}\"olleh\":\"txet\"{"}], "text": "reversed: olleh"}]' echo
answer="$url"
serve sleeper '[{"tool_calls": [{"id": "s", "name": "sh", "input": {"command": "sleep 600"}}]}, {"text": "never"}]' "" \
	$'capabilities:\n  shell:\n    allow: [sh, sleep]\n'
sleeper="$url"
serve asker '[{"tool_calls": [{"id": "q", "name": "ask", "input": {"why": "ask"}}]},
  {"expect_results": [{"tool_call_id": "q", "is_error": false, "text": "blue"}], "text": "the answer was heard"}]' ask
asker="$url"
node check.mjs "$answer" "$sleeper" "$asker"
