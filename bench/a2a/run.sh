#!/usr/bin/env bash
# The A2A load benchmark (not a timed test): TASKS tasks from CLIENTS
# concurrent clients through a queue+sleep agent capsule served by the real
# `mur run` (the loop with the scripted driver, one text answer per task),
# through mur-go's A2A server with a scripted stand-in for the loop
# (bench/a2a/echocapsule), and against a minimal a2a-go SDK echo server,
# the same clients in one run; plus the RSS of both capsules idle before
# the load, right after it, and idle again (for mur run, split into heap,
# compiled code and the mapped binary).
# Usage: bench/a2a/run.sh [TASKS [CLIENTS]] (MUR_TASKS: the mur run
# capsule's tasks, at most 5,000 unless set: at ~75 tasks/s 10,000 alone
# take over two minutes). MUR_CPUPROFILE=PATH in the environment makes the
# mur run capsule write a CPU profile of its whole run to PATH, start-up
# included (go tool pprof -top PATH).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
tasks="${1:-10000}" clients="${2:-16}"
murtasks="${MUR_TASKS:-$((tasks < 5000 ? tasks : 5000))}"
bin="$(mktemp -d)"
trap 'exec 3>&- 5>&- ; kill -TERM "$(cat "$bin/mur.pid" 2>/dev/null)" 2>/dev/null; wait; rm -rf "$bin"' EXIT
export CGO_ENABLED=0
go build -o "$bin/" ./echocapsule ./sdkecho ./load ../../cmd/mur

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

# The mur run capsule, with a home and cache of its own (set for mur only:
# the build above keeps the user's Go caches).
cap="$bin/capsule"
mkdir -p "$bin/home"
source ../queue-capsule.sh
queue_capsule "$cap"
mur() { (cd "$cap" && HOME="$bin/home" MUR_CACHE_DIR="$bin/cache" exec "$bin/mur" "$@"); }
mur build "$cap/pkg" -o "$bin" >/dev/null
mur install "$bin/scripted-0.1.0.mur.zip" >/dev/null
mkfifo "$bin/mur.out"
# Neither mur nor the drain below may hold the stand-ins' stdin (fds 3, 5),
# or they would never see it close.
(cd "$cap" && HOME="$bin/home" MUR_CACHE_DIR="$bin/cache" exec "$bin/mur" run --json) >"$bin/mur.out" 2>"$bin/mur.err" 3>&- 5>&- &
echo $! >"$bin/mur.pid"
exec 7<"$bin/mur.out"
read -r launch <&7 || { cat "$bin/mur.err" >&2; exit 1; }
cat <&7 >/dev/null 3>&- 5>&- 7<&- &
exec 7<&-
[[ "$launch" =~ \"url\":\"([^\"]+)\" ]] || { echo "mur run: no URL in $launch" >&2; exit 1; }
murrun="${BASH_REMATCH[1]}"
murpid="$(cat "$bin/mur.pid")"

rss() { awk '/^VmRSS/{print $2, $3}' "/proc/$1/status"; }
# cpu PID: the user+system CPU time a process has used, in clock ticks.
cpu() { awk '{print $14 + $15}' "/proc/$1/stat"; }
# breakdown PID: where a process's resident memory is, from its mappings:
# anonymous read-write (the Go heap, stacks, guests' linear memories),
# anonymous executable (wazero's compiled code), and the mapped binary.
breakdown() {
	awk '/^[0-9a-f]+-[0-9a-f]+ /{perm=$2; file=$6} /^Rss:/{
		if (file != "" && file !~ /^\[/) k = "binary and files"; else if (perm ~ /x/) k = "compiled code"; else k = "heap and anon"
		kb[k] += $2 } END { printf "%s %d MB, %s %d MB, %s %d MB", "heap and anon", kb["heap and anon"]/1024,
		"compiled code", kb["compiled code"]/1024, "binary and files", kb["binary and files"]/1024 }' "/proc/$1/smaps"
}
echo "idle RSS: mur run capsule $(rss "$murpid") ($(breakdown "$murpid")), stand-in capsule $(rss "$(cat "$bin/echocapsule.pid")")"
cpu0="$(cpu "$murpid")"
"$bin/load" -tasks "$murtasks" -clients "$clients" "mur-run=$murrun=bench answer"
echo "mur run capsule CPU per task: $(awk -v t="$(( $(cpu "$murpid") - cpu0 ))" -v n="$murtasks" -v hz="$(getconf CLK_TCK)" 'BEGIN{printf "%.2f ms", t * 1000 / hz / n}')"
echo "RSS right after its load: mur run capsule $(rss "$murpid") ($(breakdown "$murpid"))"
"$bin/load" -tasks "$tasks" -clients "$clients" "stand-in=$capsule" "a2a-go-sdk=$sdk"
echo "RSS after the load: stand-in capsule $(rss "$(cat "$bin/echocapsule.pid")")"
sleep 3 # idle for more than the 2 s after which a capsule hands memory back (internal/session/idle.go)
echo "RSS idle again: mur run capsule $(rss "$murpid") ($(breakdown "$murpid"))"
