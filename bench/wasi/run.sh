#!/usr/bin/env bash
# Runs the WASI host benchmarks of engine/wasip2/bench_test.go and their jco/Node
# counterpart (fetch.mjs), then prints medians and ratios:
#   - 100 sequential HTTP round trips through the JS fetch guest
#     (guests/out/fetch-js.wasm) vs a plain Go net/http client, and vs the
#     same guest under jco transpile + Node, all against one loopback echo
#     server (echoserver/);
#   - a 1 MiB file read and written back through the Go guest
#     (guests/out/wasitest-go.wasm, mode copy) vs the same Go code natively.
#
#   bench/wasi/run.sh          # COUNT=5 repetitions of each Go benchmark
#   COUNT=10 bench/wasi/run.sh
#
# Needs Go, Node 20+ and npm (npm ci installs jco into
# bench/wasi/node_modules). Takes about a minute on a 2-core machine.
# Numbers move with machine load: uptime is printed before and after.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
count="${COUNT:-5}"
out="$(mktemp -d "${TMPDIR:-/tmp}/mur-bench-wasi-XXXXXX")"
trap 'rm -rf "$out"' EXIT
cd "$root"

echo "== $(nproc) CPUs; before: $(uptime)"
(cd "$here" && npm ci --no-audit --no-fund --loglevel=error >/dev/null)

# One server for everyone; it exits when this script closes its stdin.
go build -o "$out/echoserver" ./bench/wasi/echoserver
coproc SRV { "$out/echoserver"; }
read -r url <&"${SRV[0]}"
echo "== echo server at $url"

WASIP2_BENCH_URL="$url" go test -run '^$' -bench '^BenchmarkHTTP100$' -count "$count" ./engine/wasip2/ | tee "$out/go.txt"
node "$here/fetch.mjs" "$url" "$count" | tee "$out/node.txt"
# A fixed iteration count keeps each sample short and comparable.
go test -run '^$' -bench '^BenchmarkFileCopy1MiB(Native)?$' -benchtime 300x -count "$count" ./engine/wasip2/ | tee -a "$out/go.txt"

echo
echo "== after: $(uptime)"
# Median ns/op per benchmark (the -N GOMAXPROCS suffix dropped), then ratios.
cat "$out/go.txt" "$out/node.txt" | awk '
	/^Benchmark/ {
		name = $1; sub(/-[0-9]+$/, "", name)
		for (i = 2; i <= NF; i++) if ($(i+1) == "ns/op") v[name, ++n[name]] = $i
	}
	function median(name,   k, i, j, t, a) {
		k = n[name]
		if (k == 0) return 0
		for (i = 1; i <= k; i++) a[i] = v[name, i]
		for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
		return k % 2 ? a[(k + 1) / 2] : (a[k / 2] + a[k / 2 + 1]) / 2
	}
	function ms(x) { return sprintf("%8.2f ms", x / 1e6) }
	END {
		go = median("BenchmarkHTTP100/go")
		printf "\n100 sequential HTTP GETs (median of %d)\n", n["BenchmarkHTTP100/go"]
		printf "  %-34s %s\n", "Go net/http client", ms(go)
		split("js-calls js-loop", vs, " ")
		for (i = 1; i <= 2; i++) {
			m = median("BenchmarkHTTP100/" vs[i]); j = median("BenchmarkHTTP100/" vs[i] "-node")
			printf "  %-34s %s  %5.1fx the Go client time; jco/Node takes %.1fx as long\n", "mur JS guest (" vs[i] ")", ms(m), m / go, j / m
			printf "  %-34s %s  %5.1fx the Go client time\n", "jco/Node JS guest (" vs[i] ")", ms(j), j / go
		}
		g = median("BenchmarkFileCopy1MiB"); nat = median("BenchmarkFileCopy1MiBNative")
		printf "\n1 MiB file read + write (median of %d)\n", n["BenchmarkFileCopy1MiB"]
		printf "  %-34s %s\n", "native Go", ms(nat)
		printf "  %-34s %s  throughput %.2fx native (target >= 0.5x)\n", "Go guest (wasip1 + adapter)", ms(g), nat / g
	}'
