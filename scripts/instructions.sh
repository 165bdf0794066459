#!/usr/bin/env bash
# Count the instructions (valgrind's callgrind: independent of the load of
# a shared machine) of the two figures issues 12 and 13 bound against an
# older revision: Decide over NL2Bash, and the lean hook's whole process.
#
#   scripts/instructions.sh --base REV [--shared DIR] [--rounds N]
#
# Decide: bench.test -test.bench 'Decide$/nl2bash$' -test.cpu 1 run for
# 1,000 and for 4,000 lines; the difference over 3,000 is the cost of a
# line without the set-up. Counted with the garbage collector off (the
# analysis's own work) and on (what the benchmark's lines/s include), with
# GOMAXPROCS=1 so that idle threads do not spin into the count.
# The hook: `shellguard-hook claude` given a one-liner (git status) and
# the 30-line script of bench/process_unix_test.go, in a fresh home, built
# CGO_ENABLED=0 as installed. Each figure is the median of N rounds
# (default 3), the two revisions interleaved.
#
# Needs valgrind and the corpora (../shared/corpus, or --shared DIR).
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
base="" shared=$root/../shared rounds=3
while [ $# -gt 0 ]; do
	case $1 in
	--base) base=$2; shift 2 ;;
	--shared) shared=$2; shift 2 ;;
	--rounds) rounds=$2; shift 2 ;;
	*) echo "instructions.sh: unknown argument $1" >&2; exit 2 ;;
	esac
done
if [ -z "$base" ]; then
	echo "instructions.sh: --base REV is required" >&2
	exit 2
fi
command -v valgrind >/dev/null || { echo "instructions.sh: valgrind is not installed" >&2; exit 2; }
[ -f "$shared/corpus/benign/nl2bash.txt" ] || { echo "instructions.sh: no $shared/corpus/benign/nl2bash.txt" >&2; exit 2; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
build() { # SRC OUT
	(cd "$1" && go test -c -o "$2.bench" ./bench && CGO_ENABLED=0 go build -o "$2.hook" ./cmd/shellguard-hook)
}
mkdir -p "$tmp/src-base"
git -C "$root" archive "$base" | tar -x -C "$tmp/src-base"
build "$tmp/src-base" "$tmp/base"
build "$root" "$tmp/now"

# The hook's inputs.
mkdir -p "$tmp/proj"
python3 - "$root/bench/process_unix_test.go" "$tmp" <<'EOF'
import json, re, sys
src = open(sys.argv[1]).read()
script = re.search(r'const script30 = `(.*?)`', src, re.S).group(1)
def inp(cmd):
    return json.dumps({"session_id": "bench", "transcript_path": "/nonexistent/t.jsonl", "cwd": sys.argv[2] + "/proj",
                       "hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": cmd}}) + "\n"
open(sys.argv[2] + "/one.json", "w").write(inp("git status"))
open(sys.argv[2] + "/script.json", "w").write(inp(script))
EOF

ir() { # file: the "Collected" figure
	grep -o 'Collected : [0-9]*' "$1" | awk '{print $3}'
}
decide() { # BIN GOGC N
	(cd "$root/bench" && SHELLGUARD_SHARED="$shared" GOGC=$2 GOMAXPROCS=1 GODEBUG=asyncpreemptoff=1 \
		valgrind --tool=callgrind --callgrind-out-file=/dev/null "$1" -test.run XXX \
		-test.bench 'Decide$/nl2bash$' -test.cpu 1 -test.benchtime "$3x" >/dev/null 2>"$tmp/err" || true)
	ir "$tmp/err"
}
hook() { # BIN INPUT
	local h
	h=$(mktemp -d -p "$tmp")
	(cd "$tmp/proj" && HOME=$h XDG_CONFIG_HOME= XDG_STATE_HOME= XDG_DATA_HOME= GOMAXPROCS=1 GODEBUG=asyncpreemptoff=1 \
		valgrind --tool=callgrind --callgrind-out-file=/dev/null "$1" claude <"$2" >/dev/null 2>"$tmp/err" || true)
	ir "$tmp/err"
}
median() { sort -n | awk '{a[NR]=$1} END{print a[int((NR+1)/2)]}'; }

echo "base: $base ($(git -C "$root" rev-parse --short "$base")); now: work tree ($(git -C "$root" rev-parse --short HEAD)); $rounds rounds"
for what in gc-off gc-on one script; do
	for rev in base now; do : >"$tmp/$what.$rev"; done
done
for r in $(seq "$rounds"); do
	for rev in base now; do
		for gc in off on; do
			g=off
			[ $gc = on ] && g=100
			a=$(decide "$tmp/$rev.bench" $g 1000)
			b=$(decide "$tmp/$rev.bench" $g 4000)
			echo $(((b - a) / 3000)) >>"$tmp/gc-$gc.$rev"
		done
		hook "$tmp/$rev.hook" "$tmp/one.json" >>"$tmp/one.$rev"
		hook "$tmp/$rev.hook" "$tmp/script.json" >>"$tmp/script.$rev"
	done
done
printf '%-40s %14s %14s %8s\n' figure base now now/base
for what in gc-off gc-on one script; do
	case $what in
	gc-off) label="Decide, NL2Bash, a line, GC off" ;;
	gc-on) label="Decide, NL2Bash, a line, GC on" ;;
	one) label="hook process, one-liner" ;;
	script) label="hook process, 30-line script" ;;
	esac
	b=$(median <"$tmp/$what.base")
	n=$(median <"$tmp/$what.now")
	printf '%-40s %14s %14s %8s\n' "$label" "$b" "$n" "$(awk -v a="$b" -v c="$n" 'BEGIN{printf "%.3f", c/a}')"
done
