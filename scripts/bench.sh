#!/usr/bin/env bash
# Reproduce every figure in BENCHMARKS.md: the Go benchmarks of bench/ (parse,
# check, classify, decide: ns/op, allocs/op, lines/s on one core, per-line
# distribution, 1 MiB inputs, Bashfuscator payloads), the hook process against
# an empty Go program built by the same toolchain (hyperfine, peak RSS,
# user+sys CPU, callgrind instruction counts), and the cc-safety-net peer
# (its checkCommand API in-process over the same inputs, and its Claude Code
# hook as a process, in the same hyperfine runs as ours).
#
#   scripts/bench.sh [options]
#     --rev REV        benchmark a committed revision (exported with git
#                      archive; bench/ is taken from the work tree when REV
#                      has none) instead of the work tree
#     --shared DIR     the shared/ directory (default: ../shared beside the
#                      repo root); the corpora are optional, the figures
#                      that need them are skipped without them
#     --quick          fewer repetitions (a smoke test, not for the record)
#     --no-peer        skip cc-safety-net (no node/npm needed)
#     --keep DIR       keep the raw outputs (benchmark text, JSON, profiles)
#     --rounds N --runs M  hyperfine rounds and runs per round (default 5, 20)
#     --only LIST      run only these parts (comma-separated): stages,
#                      latency, huge, profile, hook, peer (default: all)
#
# Needs go, hyperfine, /usr/bin/time (Debian: apt-get install -y hyperfine
# time), valgrind for the instruction counts (optional), and node + npm for
# the peer (npm ci installs it under scripts/peer/node_modules, once).
#
# Everything is printed on standard output, section by section, each with the
# command that produced it; the targets are checked at the end (MISS lines).
# Exit status: 0 whatever the figures are (a missed target is a finding, not
# a failure of the script); 2 when a tool is missing.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
set_rounds="" set_runs="" rev="" shared="" quick=0 peer=1 keep="" only=stages,latency,huge,profile,hook,peer
while [ $# -gt 0 ]; do
	case $1 in
	--rev) rev=$2; shift 2 ;;
	--shared) shared=$2; shift 2 ;;
	--quick) quick=1; shift ;;
	--no-peer) peer=0; shift ;;
	--keep) keep=$2; shift 2 ;;
	--only) only=$2; shift 2 ;;
	--rounds) set_rounds=$2; shift 2 ;;
	--runs) set_runs=$2; shift 2 ;;
	*) echo "bench.sh: unknown argument $1 (see the header of $0)" >&2; exit 2 ;;
	esac
done
shared=${shared:-$root/../shared}
[ -d "$shared/corpus" ] && shared=$(cd "$shared" && pwd) || shared=""
for t in go hyperfine /usr/bin/time; do
	command -v "$t" >/dev/null || { echo "bench.sh: $t is required (apt-get install -y hyperfine time)" >&2; exit 2; }
done
if [ $peer = 1 ] && ! command -v node >/dev/null; then
	echo "bench.sh: node not found, skipping the peer" >&2
	peer=0
fi

tmp=$(mktemp -d)
finish() {
	if [ -n "$keep" ]; then
		mkdir -p "$keep"
		cp -r "$out"/. "$keep"/ 2>/dev/null || true
		cp "$tmp/bench.test" "$tmp/shellguard" "$keep"/ 2>/dev/null || true
		echo "raw outputs kept in $keep"
	fi
	rm -rf "$tmp"
}
trap finish EXIT
out=$tmp/out
mkdir -p "$out"

# Repetitions.
count=5 passes=5 peerpasses=3 rounds=5 runs=20 huge_timeout=60
if [ $quick = 1 ]; then
	count=1 passes=2 peerpasses=1 rounds=1 runs=5 huge_timeout=30
fi
rounds=${set_rounds:-$rounds} runs=${set_runs:-$runs}

want() { [[ ",$only," == *",$1,"* ]]; }
section() { printf '\n## %s\n\n' "$*"; }
cmdline() { printf '$ %s\n' "$*"; }
load() { cut -d' ' -f1-3 /proc/loadavg; }

# ---------------------------------------------------------------------------
section "Machine"
src=$root
if [ -n "$rev" ]; then
	src=$tmp/src
	mkdir -p "$src"
	git -C "$root" archive "$rev" | tar -x -C "$src"
	[ -d "$src/bench" ] || cp -r "$root/bench" "$src/bench"
	commit=$(git -C "$root" rev-parse "$rev")
else
	commit="$(git -C "$root" rev-parse HEAD)$(git -C "$root" diff --quiet HEAD -- . 2>/dev/null || echo ' + uncommitted changes')"
fi
cat <<EOF
date:        $(date -u '+%Y-%m-%d %H:%M UTC')
revision:    $commit
cpu:         $(nproc) × $(lscpu | sed -n 's/^Model name: *//p' | head -1)
memory:      $(free -h | awk '/^Mem:/ {print $2}')
kernel:      $(uname -sr)
go:          $(go version | cut -d' ' -f3-)
node:        $(command -v node >/dev/null && node --version || echo none)
hyperfine:   $(hyperfine --version)
load (1/5/15 min) at start: $(load)
shared:      ${shared:-absent (corpus figures skipped)}
EOF

# ---------------------------------------------------------------------------
section "Build"
cmdline "CGO_ENABLED=0 go build -o \$tmp/shellguard ./cmd/shellguard; go build -o \$tmp/empty (package main; func main() {}); go test -c -o \$tmp/bench.test ./bench"
(cd "$src" && CGO_ENABLED=0 go build -o "$tmp/shellguard" ./cmd/shellguard)
mkdir -p "$tmp/emptysrc"
printf 'module empty\n\ngo 1.21\n' >"$tmp/emptysrc/go.mod"
printf 'package main\n\nfunc main() {}\n' >"$tmp/emptysrc/main.go"
(cd "$tmp/emptysrc" && go build -o "$tmp/empty" .)
(cd "$src" && go test -c -o "$tmp/bench.test" ./bench)
ls -l "$tmp/shellguard" "$tmp/empty" | awk '{print $5, $NF}' | sed "s|$tmp/||"
file -b "$tmp/shellguard" | cut -d, -f1-5

export SHELLGUARD_SHARED=$shared
# The test binary runs in bench/ (so that it finds shared/ the same way go
# test does, when SHELLGUARD_SHARED is empty).
bt() { (cd "$src/bench" && "$tmp/bench.test" -test.run '^$' "$@"); }

# ---------------------------------------------------------------------------
if want stages; then
section "Stages per command line, one core (ns/op, B/op, allocs/op, lines/s; $count runs each)"
cmdline "go test ./bench -run '^\$' -bench 'Parse|Check|Classify|Decide\$' -benchmem -cpu 1 -count $count"
echo "load before: $(load)"
bt -test.bench 'Parse|Check|Classify|Decide$' -test.benchmem -test.cpu 1 -test.count "$count" | tee "$out/stages.txt" | grep -E '^Benchmark'
echo "load after: $(load)"
echo
echo "median over the $count runs (best lines/s: the fastest run, the least disturbed by other load):"
awk '/^Benchmark/ {
	name=$1; sub(/-[0-9]+$/, "", name)
	for (i = 3; i < NF; i++) v[name, $(i+1)] = v[name, $(i+1)] " " $i
	units[$(i+1)]; names[name]
	if (!(name in order)) { order[name] = ++n; byorder[n] = name }
}
function sorted(s, a,   k, i, j, x) { k = split(s, a, " ")
	for (i = 2; i <= k; i++) { x = a[i] + 0; for (j = i - 1; j > 0 && a[j] + 0 > x; j--) a[j+1] = a[j]; a[j+1] = x }
	return k }
function median(s,   a, k) { k = sorted(s, a); return a[int((k+1)/2)] }
function best(s,   a, k) { k = sorted(s, a); return a[k] }
END {
	printf "%-38s %12s %12s %12s %10s %10s\n", "benchmark", "ns/line", "lines/s", "best lines/s", "B/line", "allocs"
	for (j = 1; j <= n; j++) { m = byorder[j]
		printf "%-38s %12.0f %12.0f %12.0f %10.0f %10.0f\n", m, median(v[m, "ns/op"]), median(v[m, "lines/s"]), best(v[m, "lines/s"]), median(v[m, "B/op"]), median(v[m, "allocs/op"]) }
}' "$out/stages.txt" | tee "$out/stages-median.txt"

section "Decide from 2 goroutines over one Guard (lines/s of the whole machine)"
cmdline "go test ./bench -run '^\$' -bench 'DecideParallel' -benchmem -cpu 2"
bt -test.bench 'DecideParallel' -test.benchmem -test.cpu 2 | grep -E '^Benchmark' | awk '{printf "%s %s ns/op => %.0f lines/s, %s allocs/op\n", $1, $3, 1e9/$3, $7}'

fi

# ---------------------------------------------------------------------------
if want latency; then
section "Decide: per-line time distribution (each line's best of $passes passes)"
cmdline "go test ./bench -run '^\$' -bench 'DecideLatency|DecideBashfuscator' -benchtime ${passes}x -cpu 1"
echo "load before: $(load)"
bt -test.bench 'DecideLatency|DecideBashfuscator' -test.benchtime "${passes}x" -test.cpu 1 -test.benchmem | tee "$out/latency.txt" |
	grep -E '^Benchmark|slow line'
echo "load after: $(load)"

fi

# ---------------------------------------------------------------------------
if want huge; then
section "Decide on 1 MiB inputs, and on inputs of the parser's size limit (ms each, best of 3; timeout ${huge_timeout}s each)"
cmdline "go test ./bench -run '^\$' -bench 'DecideHuge/^SIZE\$/^NAME\$' -benchtime 3x -cpu 1 -benchmem   # per size and input"
names=$(grep -o '{"[a-z_]*", \[\]string' "$src/bench/inputs_test.go" | cut -d'"' -f2)
printf '%-26s %10s %12s %12s\n' input ms/op allocs/op MB/s | tee "$out/huge.txt"
for size in 1MiB limit; do
	for n in $names; do
		r=$(timeout "$huge_timeout" bash -c 'cd "$1/bench" && "$2" -test.run "^\$" -test.bench "DecideHuge/^$3\$/^$4\$" -test.benchtime 3x -test.cpu 1 -test.benchmem' _ "$src" "$tmp/bench.test" "$size" "$n") && st=0 || st=$?
		r=$(grep '^BenchmarkDecideHuge' <<<"$r" || true)
		if [ -n "$r" ]; then
			echo "$r" | awk -v n="$size/$n" '{for (i = 3; i < NF; i++) v[$(i+1)] = $i; printf "%-26s %10.2f %12s %12s\n", n, v["ms/op"], v["allocs/op"], v["MB/s"]}'
		elif [ $st = 124 ]; then
			printf '%-26s %10s %12s %12s\n' "$size/$n" ">${huge_timeout}000" "timeout" "-"
		fi
	done
done | tee -a "$out/huge.txt"

fi

# ---------------------------------------------------------------------------
if want profile; then
section "CPU profile of Decide over tldr and nl2bash (top 25, flat)"
cmdline "go test ./bench -run '^\$' -bench 'Decide\$/(tldr|nl2bash)' -cpu 1 -cpuprofile cpu.out && go tool pprof -top -nodecount 25 bench.test cpu.out"
if [ -n "$shared" ]; then
	bt -test.bench 'Decide$/(tldr|nl2bash)' -test.cpu 1 -test.cpuprofile "$out/cpu-decide.out" >/dev/null
	go tool pprof -top -nodecount 25 "$tmp/bench.test" "$out/cpu-decide.out" 2>/dev/null | sed -n '/^Showing\|flat%/,$p'
	section "CPU profile of Decide over the Bashfuscator payloads (top 15, cumulative)"
	cmdline "go test ./bench -run '^\$' -bench 'DecideBashfuscator' -benchtime ${passes}x -cpu 1 -cpuprofile cpu.out && go tool pprof -top -cum -nodecount 15 bench.test cpu.out"
	bt -test.bench 'DecideBashfuscator' -test.benchtime "${passes}x" -test.cpu 1 -test.cpuprofile "$out/cpu-bf.out" >/dev/null
	go tool pprof -top -cum -nodecount 15 "$tmp/bench.test" "$out/cpu-bf.out" 2>/dev/null | sed -n '/flat%/,$p'
else
	echo "(skipped: no corpora)"
fi

fi

# ---------------------------------------------------------------------------
if want hook; then
section "Hook process: shellguard hook claude vs an empty Go program vs cc-safety-net"
mkdir -p "$tmp/home/.config" "$tmp/cwd" "$tmp/ccsn"
export HOME=$tmp/home XDG_CONFIG_HOME=$tmp/home/.config SHELLGUARD_APPROVALS=$tmp/home/approvals.json CC_SAFETY_NET_HOME=$tmp/ccsn
unset SHELLGUARD_CONFIG
input=$tmp/hook.json
printf '{"session_id":"bench","transcript_path":"%s/t.jsonl","cwd":"%s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"git status","description":"show status"}}\n' "$tmp" "$tmp/cwd" >"$input"
cmds=(-n empty-go "exec $tmp/empty <$input" -n shellguard "exec $tmp/shellguard hook claude <$input")
peerbin=$root/scripts/peer/node_modules/cc-safety-net/dist/bin/cc-safety-net.js
if [ $peer = 1 ]; then
	if [ ! -f "$peerbin" ]; then
		(cd "$root/scripts/peer" && npm ci --no-audit --no-fund >/dev/null)
	fi
	cmds+=(-n cc-safety-net-node "exec node $peerbin hook --claude-code <$input")
	cmds+=(-n cc-safety-net-npx "cd $root/scripts/peer && exec npx --no-install cc-safety-net hook --claude-code <$input")
fi
echo "input: $(cat "$input")"
echo "shellguard answers: $("$tmp/shellguard" hook claude <"$input" | cut -c1-160)"
if [ $peer = 1 ]; then echo "cc-safety-net answers: '$(node "$peerbin" hook --claude-code <"$input" | cut -c1-160)' (empty output = no objection)"; fi
cmdline "hyperfine -S sh -w 3 -r $runs --export-json round-N.json ${cmds[*]@Q}   # $rounds rounds"
for r in $(seq "$rounds"); do
	echo "round $r, load before: $(load)"
	hyperfine -S sh -w 3 -r "$runs" --style none --export-json "$out/hook-$r.json" "${cmds[@]}" >/dev/null 2>"$out/hook-$r.err" ||
		{ cat "$out/hook-$r.err"; exit 1; }
done
echo "load after: $(load)"
echo
echo "all $rounds rounds together ($((rounds * runs)) runs per command; shell start-up subtracted by hyperfine):"
jq -s -r '
	[.[].results[]] | group_by(.command) as $g |
	($g | map(select(.[0].command == "empty-go")) | .[0] | [.[].times[]] | sort) as $e |
	def med: sort | .[(length - 1) / 2 | floor];
	(["command", "min ms", "median ms", "mean ms", "user+sys ms", "median/empty", "min/empty"] | @tsv),
	($g[] | . as $c | [.[].times[]] as $t |
		[$c[0].command, ($t | min * 1000 | . * 100 | round / 100), ($t | med * 1000 | . * 100 | round / 100),
		 ($t | add / length * 1000 | . * 100 | round / 100),
		 ([$c[] | (.user + .system)] | add / length * 1000 | . * 100 | round / 100),
		 (if ($e | med) > 0 then ($t | med) / ($e | med) | . * 100 | round / 100 else "n/a" end),
		 (if ($e | min) > 0 then ($t | min) / ($e | min) | . * 100 | round / 100 else "n/a" end)] | @tsv)
' "$out"/hook-*.json | column -t -s $'\t' | tee "$out/hook.txt"

section "Hook process, exact and interleaved (bench/BenchmarkHookProcess: each iteration runs every program once, rotating the order; no shell)"
cmdline "SHELLGUARD_BENCH_HOOK=shellguard SHELLGUARD_BENCH_EMPTY=empty SHELLGUARD_BENCH_PEER='node cc-safety-net.js hook --claude-code' go test ./bench -run '^\$' -bench HookProcess -benchtime $((rounds * runs))x"
echo "load before: $(load)"
peerargv=""
if [ $peer = 1 ]; then peerargv="node $peerbin hook --claude-code"; fi
SHELLGUARD_BENCH_HOOK=$tmp/shellguard SHELLGUARD_BENCH_EMPTY=$tmp/empty SHELLGUARD_BENCH_PEER=$peerargv \
	bt -test.bench HookProcess -test.benchtime "$((rounds * runs))x" | { grep "^BenchmarkHookProcess" || true; } | tee "$out/hookproc.txt" |
	awk '{for (i = 3; i < NF; i++) if ($(i+1) ~ /-us$|^hook\//) printf "  %-16s %10s\n", $(i+1), $i}'
echo "load after: $(load)"

section "Peak RSS and CPU time (/usr/bin/time -v, 20 runs each, the largest RSS)"
cmdline "/usr/bin/time -v CMD <hook.json"
rss() { # NAME CMD...
	local name=$1 max=0 cpu=0
	shift
	for _ in $(seq 20); do
		/usr/bin/time -v -o "$tmp/time.txt" "$@" <"$input" >/dev/null 2>&1 || true
		local k u s
		k=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$tmp/time.txt")
		u=$(sed -n 's/.*User time (seconds): //p' "$tmp/time.txt")
		s=$(sed -n 's/.*System time (seconds): //p' "$tmp/time.txt")
		[ "$k" -gt $max ] && max=$k
		cpu=$(echo "$cpu + $u + $s" | bc)
	done
	printf '%-22s peak RSS %6.1f MiB   user+sys %6.1f ms/run\n' "$name" "$(echo "$max / 1024" | bc -l)" "$(echo "$cpu * 1000 / 20" | bc -l)"
}
{
	rss empty-go "$tmp/empty"
	rss shellguard "$tmp/shellguard" hook claude
	if [ $peer = 1 ]; then rss cc-safety-net-node node "$peerbin" hook --claude-code; fi
} | tee "$out/rss.txt"

section "Instructions executed (valgrind --tool=callgrind; load-independent)"
cmdline "GODEBUG=asyncpreemptoff=1 valgrind --tool=callgrind CMD <hook.json   # Go's preemption signals crash callgrind otherwise"
if command -v valgrind >/dev/null; then
	ir() { # NAME CMD...
		local name=$1
		shift
		GODEBUG=asyncpreemptoff=1 timeout 600 valgrind --tool=callgrind --callgrind-out-file="$out/cg.$name" "$@" <"$input" >/dev/null 2>"$tmp/vg.txt" || true
		printf '%-22s %15s instructions\n' "$name" "$(sed -n 's/.*Collected : //p' "$tmp/vg.txt")"
	}
	{
		ir empty-go "$tmp/empty"
		ir shellguard "$tmp/shellguard" hook claude
		if [ $peer = 1 ]; then ir cc-safety-net-node node "$peerbin" hook --claude-code; fi
	} | tee "$out/ir.txt"
	echo
	echo "shellguard hook: top 15 functions by inclusive instructions"
	callgrind_annotate --inclusive=yes "$out/cg.shellguard" 2>/dev/null | sed -n '/file:function/,$p' | sed -n '3,17p' |
		sed -E 's|/root/go/pkg/mod/||; s|/usr/local/go/src/||; s| \[[^]]*\]$||' | cut -c1-150
else
	echo "(skipped: valgrind not installed; apt-get install -y valgrind)"
fi

fi

# ---------------------------------------------------------------------------
if [ $peer = 1 ] && want peer; then
	section "cc-safety-net checkCommand in-process over the same inputs"
	cmdline "cd scripts/peer && node bench.mjs \$shared --passes $peerpasses --huge-timeout-ms ${huge_timeout}000"
	echo "load before: $(load)"
	(cd "$root/scripts/peer" && node bench.mjs "${shared:-/nonexistent}" --passes "$peerpasses" --huge-timeout-ms "${huge_timeout}000") | tee "$out/peer.txt"
	echo "load after: $(load)"
fi

# ---------------------------------------------------------------------------
section "Targets"
miss=0
check() { # OK? TEXT
	if [ "$1" = 1 ]; then echo "met   $2"; else echo "MISS  $2"; miss=$((miss + 1)); fi
}
touch "$out/hookproc.txt" "$out/stages-median.txt" "$out/huge.txt" "$out/latency.txt" "$out/hook.txt" "$out/rss.txt"
for c in tldr nl2bash; do
	v=$(awk -v c="BenchmarkDecide/$c" '$1 == c {print $3}' "$out/stages-median.txt")
	if [ -n "$v" ]; then check "$(awk -v v="$v" 'BEGIN {print (v >= 100000)}')" "Decide on one core over $c: $v lines/s (median of $count runs; target >= 100000)"; fi
done
if [ -s "$out/huge.txt" ]; then
	worst=$(awk 'NR > 1 {gsub(/^>/, "", $2); if ($2 + 0 > m) {m = $2 + 0; n = $1}} END {print m, n}' "$out/huge.txt")
	check "$(awk -v v="${worst% *}" 'BEGIN {print (v <= 50)}')" "1 MiB inputs: worst ${worst% *} ms (${worst#* }; target <= 50 ms)"
fi
bf=$(awk '/^BenchmarkDecideBashfuscator/ {for (i = 3; i < NF; i++) if ($(i+1) == "max-ns") print $i}' "$out/latency.txt")
if [ -n "$bf" ]; then check "$(awk -v v="$bf" 'BEGIN {print (v <= 5e6)}')" "Bashfuscator payloads: slowest $(awk -v v="$bf" 'BEGIN {printf "%.2f", v / 1e6}') ms (target <= 5 ms)"; fi
ratio=$(awk '$1 == "shellguard" {print $6}' "$out/hook.txt")
if [ "$ratio" = n/a ]; then
	echo "n/a   hook claude process (hyperfine): the empty program's median was 0 after the shell correction (too much load); see the interleaved figure"
elif [ -n "$ratio" ]; then check "$(awk -v v="$ratio" 'BEGIN {print (v <= 1.25)}')" "hook claude process (hyperfine): median ${ratio}x the empty Go program (target <= 1.25x)"; fi
r2=$(awk '{for (i = 3; i < NF; i++) if ($(i+1) == "hook/empty-p50") print $i}' "$out/hookproc.txt" 2>/dev/null || true)
if [ -n "$r2" ]; then check "$(awk -v v="$r2" 'BEGIN {print (v <= 1.25)}')" "hook claude process (interleaved, no shell): median ${r2}x the empty Go program (target <= 1.25x)"; fi
rssmb=$(awk '$1 == "shellguard" {print $4}' "$out/rss.txt")
if [ -n "$rssmb" ]; then check "$(awk -v v="$rssmb" 'BEGIN {print (v < 20)}')" "hook claude peak RSS: $rssmb MiB (target < 20 MiB)"; fi
echo
echo "$miss target(s) missed; load at the end: $(load)"
