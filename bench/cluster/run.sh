#!/usr/bin/env bash
# The cluster benchmark (not a timed test): TASKS tasks from CLIENTS
# concurrent clients through `mur gateway --embedded-nats` with one and
# then two `mur worker`s (--concurrency CONC each), against the same
# capsule served by one `mur run` (lifecycle queue+sleep), in one run;
# tasks/s and p50/p99 from bench/a2a/load, the CPU each process spent per
# task (from /proc), and the ratios of each to mur run's. README.md has the figures and the scaling model built on them.
# Usage: bench/cluster/run.sh [TASKS [CLIENTS [CONC]]]
set -eo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
tasks="${1:-400}" clients="${2:-16}" conc="${3:-8}"
bin="$(mktemp -d)"
pids=()
trap 'for p in "${pids[@]}"; do kill -TERM "$p" 2>/dev/null || true; done; wait; rm -rf "$bin"' EXIT
export CGO_ENABLED=0
go build -o "$bin/" ../a2a/load ../../cmd/mur

cap="$bin/capsule"
mkdir -p "$bin/home"
source ../queue-capsule.sh
queue_capsule "$cap"
mur() { (cd "$cap" && HOME="$bin/home" MUR_CACHE_DIR="$bin/cache" exec "$bin/mur" "$@"); }
mur build "$cap/pkg" -o "$bin" >/dev/null
mur install "$bin/scripted-0.1.0.mur.zip" >/dev/null

# serve NAME ARGS...: start mur in the background, its stdout on fd 7.
serve() {
	local name="$1"; shift
	mkfifo "$bin/$name.out"
	(cd "$cap" && HOME="$bin/home" MUR_CACHE_DIR="$bin/cache" MUR_NO_CGROUP=1 exec "$bin/mur" "$@") >"$bin/$name.out" 2>"$bin/$name.err" &
	pids+=($!)
	exec 7<"$bin/$name.out"
}
# line PREFIX: read fd 7 up to a line starting with PREFIX, print the rest.
line() {
	local l
	while read -r l <&7; do [[ "$l" == "$1"* ]] && { echo "${l#"$1"}"; return; }; done
	echo "no '$1' line" >&2; exit 1
}
drain() { cat <&7 >/dev/null & exec 7<&-; }
# cpu PID: its CPU time so far (user + system), in clock ticks.
cpu() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }
tck="$(getconf CLK_TCK)"
# perTask NAME BEFORE AFTER: CPU ms per task between two cpu readings.
perTask() { awk -v n="$1" -v a="$2" -v b="$3" -v t="$tasks" -v k="$tck" 'BEGIN { printf "  %s %.2f CPU-ms/task", n, (b - a) * 1000 / k / t }'; }

serve run run --json
[[ "$(line '{')" =~ \"url\":\"([^\"]+)\" ]] || { cat "$bin/run.err" >&2; exit 1; }
murrun="${BASH_REMATCH[1]}"; drain
serve gateway gateway --embedded-nats --nats-port 0
nats="$(line 'nats: url ')"; gw="$(line 'a2a: url ')"; gw="${gw#http://}/bench"; drain
serve worker1 worker --nats "$nats" --replicas 1 --concurrency "$conc"
line 'worker: ' >/dev/null; drain

out="$bin/results"
run0="$(cpu "${pids[0]}")"
"$bin/load" -tasks "$tasks" -clients "$clients" "mur-run=$murrun=bench answer" | tee -a "$out"
echo "mur-run cpu:$(perTask 'mur run' "$run0" "$(cpu "${pids[0]}")")"
g0="$(cpu "${pids[1]}")" w0="$(cpu "${pids[2]}")"
"$bin/load" -tasks "$tasks" -clients "$clients" "1-worker=$gw=bench answer" | tee -a "$out" || { tail -n 20 "$bin"/*.err >&2; exit 1; }
echo "1-worker cpu:$(perTask 'gateway+nats' "$g0" "$(cpu "${pids[1]}")")$(perTask worker "$w0" "$(cpu "${pids[2]}")")"
serve worker2 worker --nats "$nats" --replicas 1 --concurrency "$conc"
line 'worker: ' >/dev/null; drain
g0="$(cpu "${pids[1]}")" w0="$(( $(cpu "${pids[2]}") + $(cpu "${pids[3]}") ))"
"$bin/load" -tasks "$tasks" -clients "$clients" "2-workers=$gw=bench answer" | tee -a "$out" || { tail -n 20 "$bin"/*.err >&2; exit 1; }
echo "2-workers cpu:$(perTask 'gateway+nats' "$g0" "$(cpu "${pids[1]}")")$(perTask workers "$w0" "$(( $(cpu "${pids[2]}") + $(cpu "${pids[3]}") ))")"
awk '{ for (i = 1; i <= NF; i++) { if ($(i+1) == "tasks/s") r[$1] = $i; if ($i == "p50") p50[$1] = $(i+1); if ($i == "p99") p99[$1] = $(i+1) } }
END { for (k in r) if (k != "mur-run") printf "%-10s tasks/s x%.3f of mur run, p50 x%.1f, p99 x%.1f\n", k, r[k] / r["mur-run"], p50[k] / p50["mur-run"], p99[k] / p99["mur-run"] }' "$out"
