#!/usr/bin/env bash
# Measure the lean hook binary against the floor of any Go hook on this
# parser (issue 15, item 7: within 1.3x): bench/floor imports
# mvdan.cc/sh/v3/syntax, decodes the hook JSON with encoding/json and parses
# the command. bench.BenchmarkHookFloor runs each program N times,
# alternately (one of each per iteration, in a rotating order), for a
# one-liner and a 30-line script, and reports the minimum and median wall
# times and the ratios to the floor.
#
#   scripts/hookfloor.sh [--rev REV] [--base REV] [-n N]
#     --rev REV    build the hook of a committed revision (git archive)
#                  instead of the work tree
#     --base REV   also run the hook of revision REV, interleaved with the
#                  others ("base"), for a before/after comparison
#     -n N         runs of each program per input (default 200)
#     --cgo        build the hooks with cgo (the default of go build when a C
#                  compiler is present); without it they are built as the
#                  documentation installs them, CGO_ENABLED=0
#
# The floor and the benchmark always come from the work tree.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
rev="" base="" n=200 cgo=0
while [ $# -gt 0 ]; do
	case $1 in
	--rev) rev=$2; shift 2 ;;
	--base) base=$2; shift 2 ;;
	-n) n=$2; shift 2 ;;
	--cgo) cgo=1; shift ;;
	*) echo "hookfloor.sh: unknown argument $1" >&2; exit 2 ;;
	esac
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
build() { # REV OUT: build cmd/shellguard-hook of REV ("" = work tree)
	local src=$root
	if [ -n "$1" ]; then
		src=$tmp/src-$1
		mkdir -p "$src"
		git -C "$root" archive "$1" | tar -x -C "$src"
	fi
	(cd "$src" && CGO_ENABLED=$cgo go build -o "$2.linked" ./cmd/shellguard-hook)
	fresh "$2"
}
# fresh replaces the file the linker wrote by a plain copy: on this VM a
# binary straight out of the linker ran 20-25 % slower than a byte-identical
# copy of it (measured interleaved, 2026-12-03), which would be measuring
# the page cache, not the program.
fresh() { cp "$1.linked" "$1" && rm "$1.linked"; }
build "$rev" "$tmp/shellguard-hook"
(cd "$root" && go build -o "$tmp/floor.linked" ./bench/floor && go test -c -o "$tmp/bench.test" ./bench)
fresh "$tmp/floor"
export SHELLGUARD_BENCH_HOOK=$tmp/shellguard-hook SHELLGUARD_BENCH_FLOOR=$tmp/floor
echo "hook:  ${rev:-work tree} ($(git -C "$root" rev-parse --short "${rev:-HEAD}")), CGO_ENABLED=$cgo, $(stat -c %s "$tmp/shellguard-hook") bytes"
if [ -n "$base" ]; then
	build "$base" "$tmp/shellguard-hook-base"
	export SHELLGUARD_BENCH_BASE=$tmp/shellguard-hook-base
	echo "base:  $base ($(git -C "$root" rev-parse --short "$base")), $(stat -c %s "$tmp/shellguard-hook-base") bytes"
fi
echo "floor: bench/floor, $(stat -c %s "$tmp/floor") bytes; $n runs of each per input"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
cd "$root/bench"
"$tmp/bench.test" -test.run '^$' -test.bench '^BenchmarkHookFloor$' -test.benchtime "${n}x" |
	awk '/^BenchmarkHookFloor/ {
		name = $1; sub(/^BenchmarkHookFloor\//, "", name); sub(/-[0-9]+$/, "", name)
		delete v
		for (i = 3; i < NF; i++) v[$(i+1)] = $i
		printf "%-9s floor  wall min %6.0f us  median %6.0f us  cpu median %6.0f us\n", name, v["floor-min-us"], v["floor-p50-us"], v["floor-cpu-p50-us"]
		split("hook base", progs, " ")
		for (k = 1; k <= 2; k++) { p = progs[k]
			if ((p "-p50-us") in v)
				printf "%-9s %-5s  wall min %6.0f us  median %6.0f us  cpu median %6.0f us   %s/floor: wall min %.2fx, median %.2fx; cpu median %.2fx\n", "", p,
					v[p "-min-us"], v[p "-p50-us"], v[p "-cpu-p50-us"], p, v[p "/floor-min"], v[p "/floor-p50"], v[p "/floor-cpu-p50"]
		}
	}'
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
