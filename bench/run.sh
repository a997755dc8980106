#!/usr/bin/env bash
# Runs mur-go's component benchmarks (engine/component/bench_test.go, plus the
# canonical ABI round trip in engine/canon/bench_test.go) and the same measurements
# on jco transpile + Node (jco/bench.mjs) in one run, then prints a table
# with the mur-go/jco ratios and the targets of issue 30 §2.
#
#   bench/run.sh            # COUNT=3 repetitions of the fast benchmarks
#   COUNT=5 bench/run.sh
#
# Takes about 3-5 minutes on a 2-core machine. Needs Go, Node 20+ and npm
# (npm ci installs jco into bench/jco/node_modules). Numbers move with
# machine load: the load average is printed before and after.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
count="${COUNT:-3}"
out="$(mktemp -d "${TMPDIR:-/tmp}/mur-bench-XXXXXX")"
trap 'rm -rf "$out"' EXIT
cd "$root"

echo "== $(nproc) CPUs; load average before: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo n/a)"
(cd bench/jco && npm ci --no-audit --no-fund --loglevel=error >/dev/null)

# Warm calls and instantiation (with the per-instance memory metrics). Each
# test binary starts from an empty compilation cache, so its first
# benchmark of a guest also compiles it cold (not timed).
go test -run '^$' -bench '^Benchmark(Call|Instantiate)(JS|Go)$' -count "$count" ./engine/component/ | tee "$out/go-run.txt"
# Compilation takes seconds per iteration: a fixed, small count.
go test -run '^$' -bench '^BenchmarkCompile' -benchtime=3x -count 1 ./engine/component/ | tee "$out/go-compile.txt"
# The host-side lift/lower round trip (benchmarked in package canon): on
# the typed path mur's tool calls take, and on dynamic values for
# comparison.
go test -run '^$' -bench '^BenchmarkToolCall(Dynamic)?$' -count "$count" ./engine/canon/ | tee "$out/go-canon.txt"

node bench/jco/bench.mjs | tee "$out/jco.jsonl"

echo
echo "== load average after: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo n/a)"
node bench/table.mjs "$out"/go-*.txt "$out/jco.jsonl"
