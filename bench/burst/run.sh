#!/usr/bin/env bash
# The start-up benchmark (not a timed test): N served capsules started at
# once, each a `mur run` of a queue+sleep capsule with the scripted driver
# (as bench/a2a and bench/cluster serve it), beside N a2a-go SDK echo
# servers (bench/a2a/sdkecho) started the same way, alternated for ROUNDS
# rounds in one run. bench/burst/burst times each batch until every copy
# answered its first task (and until each printed its URL), then reads
# each copy's PSS after 3 s idle and the CPU time each had used when its
# first task was answered (a figure the machine's load moves less). The
# compile cache is warmed once first: these are warm starts.
# Usage: bench/burst/run.sh [N...]   (default: 1 10 100; ROUNDS=3)
# MUR=PATH benchmarks that mur binary instead of one built from this tree
# (to compare two trees in one run: MUR2=PATH adds a second mur row).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
ns=("${@:-1 10 100}"); ns=(${ns[*]})
rounds="${ROUNDS:-3}"
bin="$(mktemp -d)"
trap 'status=$?; [[ $status == 0 ]] || tail -n 20 "$bin/mur.log" >&2 2>/dev/null; rm -rf "$bin"' EXIT
export CGO_ENABLED=0
go build -o "$bin/" ./burst ../a2a/sdkecho ../../cmd/mur
mur="${MUR:-$bin/mur}"

cap="$bin/capsule"
mkdir -p "$bin/home"
source ../queue-capsule.sh
queue_capsule "$cap"
export HOME="$bin/home" MUR_CACHE_DIR="$bin/cache"
(cd "$cap" && "$mur" build pkg -o "$bin" >/dev/null && "$mur" install "$bin/scripted-0.1.0.mur.zip" >/dev/null)
# Warm the compile cache (and write murmur.lock) with one run of each mur.
for m in "$mur" ${MUR2:+"$MUR2"}; do
	(cd "$cap" && "$bin/burst" -n 1 -idle 0 -log "$bin/mur.log" -reply "bench answer" warm -- "$m" run --json >/dev/null)
done

echo "== $(nproc) CPUs; load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
out="$bin/results"
for n in "${ns[@]}"; do
	for r in $(seq "$rounds"); do
		"$bin/burst" -n "$n" a2a-go -- "$bin/sdkecho" | tee -a "$out"
		# A batch started right after another runs beside its exit, and is
		# slower: with two murs, every other round starts with the second.
		order=(mur)
		if [[ -n "${MUR2:-}" ]]; then
			order=(mur mur2)
			((r % 2)) || order=(mur2 mur)
		fi
		for name in "${order[@]}"; do
			m="$mur"
			[[ $name == mur2 ]] && m="$MUR2"
			(cd "$cap" && "$bin/burst" -n "$n" -log "$bin/mur.log" -reply "bench answer" "$name" -- "$m" run --json) | tee -a "$out"
		done
	done
done
echo "== load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
# Per N, the median over rounds of each row, and each mur row's ratio to
# a2a-go's: time until all served, first-task p50, PSS mean.
awk '{ split($2, a, "="); n = a[2]; k = $1 SUBSEP n; names[$1]; sizes[n]
	all[k] = all[k] " " $5; first[k] = first[k] " " $16; pss[k] = pss[k] " " $22; cpu[k] = cpu[k] " " $28 }
function med(s,   v, c, i, j, t) { c = split(s, v, " "); for (i = 1; i <= c; i++) for (j = i + 1; j <= c; j++) if (v[j] + 0 < v[i] + 0) { t = v[i]; v[i] = v[j]; v[j] = t }; return v[int((c + 1) / 2)] }
END { for (n in sizes) for (m in names) { k = m SUBSEP n; b = "a2a-go" SUBSEP n; if (!(k in all)) continue
	printf "median n=%-4s %-7s all served %8.1f ms (x%.1f of a2a-go)  first task p50 %7.1f ms (x%.1f)  PSS %5.1f MB (x%.1f)  CPU %6.1f ms (x%.1f)\n", n, m,
		med(all[k]), med(all[k]) / med(all[b]), med(first[k]), med(first[k]) / med(first[b]), med(pss[k]), med(pss[k]) / med(pss[b]),
		med(cpu[k]), med(cpu[k]) / med(cpu[b]) } }' "$out" | sort -t= -k2 -n
