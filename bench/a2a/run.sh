#!/usr/bin/env bash
# The A2A load benchmark (not a timed test): 10,000 tasks from 16
# concurrent clients through a queue+sleep capsule served by mur-go's A2A
# server (bench/a2a/echocapsule, a scripted stand-in for the loop), beside
# the same clients against a minimal a2a-go SDK echo server, in one run;
# plus the idle RSS of the capsule. Usage: bench/a2a/run.sh [TASKS [CLIENTS]]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
tasks="${1:-10000}" clients="${2:-16}"
bin="$(mktemp -d)"
trap 'exec 3>&- 5>&- ; wait; rm -rf "$bin"' EXIT
export CGO_ENABLED=0
go build -o "$bin/" ./echocapsule ./sdkecho ./load

start() { # NAME FD_IN FD_OUT ARGS...: start a server, print its URL
	local name="$1"; shift
	mkfifo "$bin/$name.in" "$bin/$name.out"
	"$bin/$name" "$@" <"$bin/$name.in" >"$bin/$name.out" &
	echo $! >"$bin/$name.pid"
}
start echocapsule -queue-depth 64
exec 3>"$bin/echocapsule.in" 4<"$bin/echocapsule.out"
read -r _ capsule <&4
start sdkecho
exec 5>"$bin/sdkecho.in" 6<"$bin/sdkecho.out"
read -r _ sdk <&6

echo "idle RSS of the queue+sleep capsule: $(awk '/^VmRSS/{print $2, $3}' "/proc/$(cat "$bin/echocapsule.pid")/status")"
"$bin/load" -tasks "$tasks" -clients "$clients" "mur-go=$capsule" "a2a-go-sdk=$sdk"
echo "RSS of the capsule after the load: $(awk '/^VmRSS/{print $2, $3}' "/proc/$(cat "$bin/echocapsule.pid")/status")"
