#!/usr/bin/env bash
# Measure the lean hook binary against the floor of any Go hook on this
# parser (issue 15, item 7: within 1.3x): bench/floor imports
# mvdan.cc/sh/v3/syntax, decodes the hook JSON with encoding/json and parses
# the command. bench.BenchmarkHookFloor runs both N times each, alternately
# (rotating order), for a one-liner and a 30-line script, and reports the
# minimum and median wall times and the ratios hook/floor.
#
#   scripts/hookfloor.sh [--rev REV] [-n N]
#     --rev REV   build the hook of a committed revision (git archive)
#                 instead of the work tree; the floor and the benchmark
#                 always come from the work tree
#     -n N        runs of each program per input (default 200)
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
rev="" n=200
while [ $# -gt 0 ]; do
	case $1 in
	--rev) rev=$2; shift 2 ;;
	-n) n=$2; shift 2 ;;
	*) echo "hookfloor.sh: unknown argument $1" >&2; exit 2 ;;
	esac
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
src=$root
if [ -n "$rev" ]; then
	src=$tmp/src
	mkdir -p "$src"
	git -C "$root" archive "$rev" | tar -x -C "$src"
fi
(cd "$src" && go build -o "$tmp/shellguard-hook" ./cmd/shellguard-hook)
(cd "$root" && go build -o "$tmp/floor" ./bench/floor && go test -c -o "$tmp/bench.test" ./bench)
echo "hook: ${rev:-work tree} ($(git -C "$root" rev-parse --short "${rev:-HEAD}")), $(stat -c %s "$tmp/shellguard-hook") bytes; floor $(stat -c %s "$tmp/floor") bytes"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
cd "$root/bench"
SHELLGUARD_BENCH_HOOK=$tmp/shellguard-hook SHELLGUARD_BENCH_FLOOR=$tmp/floor \
	"$tmp/bench.test" -test.run '^$' -test.bench '^BenchmarkHookFloor$' -test.benchtime "${n}x" |
	awk '/^BenchmarkHookFloor/ {
		name = $1; sub(/^BenchmarkHookFloor\//, "", name); sub(/-[0-9]+$/, "", name)
		for (i = 3; i < NF; i++) v[$(i+1)] = $i
		printf "%-9s floor min/p50 %6.0f / %6.0f us   hook min/p50 %6.0f / %6.0f us   hook/floor min %.2fx  p50 %.2fx\n",
			name, v["floor-min-us"], v["floor-p50-us"], v["hook-min-us"], v["hook-p50-us"], v["hook/floor-min"], v["hook/floor-p50"]
	}'
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
