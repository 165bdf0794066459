#!/usr/bin/env bash
# Evaluate shellguard's danger detection against the project's own set
# (eval/), the shared corpora and the peer tools' test suites, and print the
# report as Markdown (EVALUATION.md is this script's output: regenerate it
# whenever the rules change).
#
#   scripts/eval.sh [SHARED_DIR]        default: ../shared beside the repo root
#   scripts/eval.sh --check [SHARED_DIR] also exit 1 when a target is missed
#
# For the project's set (eval/dangerous/*.jsonl, eval/benign/*.jsonl, each
# line labelled with a min and a max level) it prints per category the share
# of lines at or above their min, flagged at all and above their max, the
# benign lines denied, and every line that misses. The shared corpora are
# optional (a fresh clone has no ../shared): when the default directory is
# absent they are skipped; a directory given as the argument must exist. For
# every shared data set it prints the number of lines, the parse failures
# (warnings named "unparseable"), how many lines are flagged at each level,
# the detection rate per category of the dangerous sets, and the agreement
# with each peer suite's labels, listing every disagreement.
#
# It builds the CLI (or uses $SHELLGUARD_BIN) and runs `shellguard check
# --batch -0` once per data set, with an empty HOME and configuration so that
# only the built-in registry speaks. Needs bash, go (unless SHELLGUARD_BIN is
# set) and jq.
set -euo pipefail
[ -n "${EVAL_TRACE:-}" ] && { PS4='+ $EPOCHREALTIME '; set -x; }
shopt -s lastpipe # addset runs at the end of pipelines and appends to sets

check=0
if [ "${1:-}" = "--check" ]; then
	check=1
	shift
fi
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
shared=${1:-$root/../shared}
if ! command -v jq >/dev/null 2>&1; then
	echo "eval.sh: jq is required (apt-get install jq)" >&2
	exit 2
fi
have_shared=1
if [ ! -d "$shared/corpus" ] || [ ! -d "$shared/reference" ]; then
	if [ -n "${1:-}" ]; then
		echo "eval.sh: $shared has no corpus/ and reference/ (pass the shared directory as the argument)" >&2
		exit 2
	fi
	have_shared=0 # a fresh clone: score the project's set only
else
	shared=$(cd "$shared" && pwd)
fi
if ! compgen -G "$root/eval/dangerous/*.jsonl" >/dev/null || ! compgen -G "$root/eval/benign/*.jsonl" >/dev/null; then
	echo "eval.sh: $root/eval has no dangerous/*.jsonl and benign/*.jsonl" >&2
	exit 2
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bin=${SHELLGUARD_BIN:-}
if [ -z "$bin" ]; then
	bin=$tmp/shellguard
	(cd "$root" && go build -o "$bin" ./cmd/shellguard)
fi
mkdir -p "$tmp/home" "$tmp/cwd"
export HOME=$tmp/home XDG_CONFIG_HOME=$tmp/home/.config SHELLGUARD_APPROVALS=$tmp/home/approvals.json
unset SHELLGUARD_CONFIG

# ---------------------------------------------------------------------------
# Data sets. Each becomes $tmp/sets/NAME.jsonl with one object per case:
#   {"cmd": command, "cat": category, "label": L}
# where L is "dangerous" (the peer, or the corpus, says it must be flagged),
# "safe" (the peer lets it run without a prompt), "ask" (the peer asks but
# does not block: we agree unless we flag it Critical) or "" (no label).
# $tmp/sets/NAME.meta holds "peer<TAB>path<TAB>what the labels mean".
mkdir -p "$tmp/sets"
sets=()

# addset NAME PEER PATH NOTE: reads the jsonl on stdin.
addset() {
	# check --batch -0 separates lines with NUL, so a case holding one
	# cannot be sent (gsloth has "rm\u0000 -rf /"); it is left out.
	jq -c 'select(.cmd | type == "string" and (index("\u0000") == null))' >"$tmp/sets/${1//\//__}.jsonl"
	printf '%s\t%s\t%s\n' "$2" "${3#"$shared"/}" "$4" >"$tmp/sets/${1//\//__}.meta"
	sets+=("$1")
}

# Lines of a text file, skipping "#" header comments when asked.
lines_json() { # FILE CATEGORY LABEL SKIP_COMMENTS
	if [ "$4" = 1 ]; then grep -v '^#' "$1" || true; else cat "$1"; fi |
		jq -R -c --arg cat "$2" --arg lab "$3" 'select(length > 0) | {cmd: ., cat: $cat, label: $lab}'
}
# category<TAB>command rows.
tsv_json() { # FILE CMDCOL CATCOL LABEL SKIPHEADER
	tail -n +"$((1 + $5))" "$1" | grep -v '^#' |
		jq -R -c --argjson c "$2" --argjson k "$3" --arg lab "$4" \
			'split("\t") | select(length > $c) | {cmd: .[$c], cat: .[$k], label: $lab}'
}

b=$shared/corpus/benign
for f in tldr.txt tldr-longopts.txt nl2bash.txt cheatsheets.txt; do
	[ -f "$b/$f" ] && lines_json "$b/$f" "${f%.txt}" "" 0 | addset "benign/$f" "-" "$b/$f" "benign: no Critical except reviewed destructive lines"
done
d=$shared/corpus/dangerous
for f in dangerous-classic.tsv dangerous-payloadsallthethings.tsv dangerous-patt-intruder.tsv dangerous-bashfuscator.tsv; do
	[ -f "$d/$f" ] && tsv_json "$d/$f" 1 0 dangerous 0 | addset "dangerous/$f" "-" "$d/$f" "every row should be flagged"
done
if [ -f "$d/dangerous-bashfuscator.seeds.tsv" ]; then
	tsv_json "$d/dangerous-bashfuscator.seeds.tsv" 2 1 dangerous 1 | jq -c -s 'unique_by(.cmd)[]' |
		addset "dangerous/bashfuscator-seeds" "-" "$d/dangerous-bashfuscator.seeds.tsv" "the plain commands the payloads decode to"
fi

r=$shared/reference
if [ -d "$r/dcg" ]; then
	lines_json "$r/dcg/dangerous_default_config.txt" "dangerous_default_config" dangerous 1 |
		addset "dcg/dangerous_default_config" dcg "$r/dcg/dangerous_default_config.txt" "dcg blocks (target: 95% flagged)"
	lines_json "$r/dcg/safe.txt" "safe" safe 1 |
		addset "dcg/safe" dcg "$r/dcg/safe.txt" "dcg allows (target: no Critical except reviewed)"
	grep -v '^#' "$r/dcg/contested_allow.tsv" | jq -R -c 'split("\t") | {cmd: .[0], cat: "contested", label: "safe", why: .[1]}' |
		addset "dcg/contested_allow" dcg "$r/dcg/contested_allow.tsv" "dcg@1a52415 allows, later dcg blocks"
	tail -n +2 "$r/dcg/dcg-corpus.tsv" |
		jq -R -c 'split("\t") | {cmd: .[3], cat: (if .[2] == "-" then .[1] else .[2] end), label: (if .[0] == "deny" then "dangerous" elif .[0] == "allow" then "safe" else "ask" end)}' |
		addset "dcg/dcg-corpus" dcg "$r/dcg/dcg-corpus.tsv" "deny = dangerous, allow = safe"
	jq -c '{cmd: .command, cat: (.source_path | sub("^tests/corpus/"; "") | sub("\\.toml$"; "")), label: (if .label == "deny" then "dangerous" else "safe" end)}' "$r/dcg/multiline_cases.jsonl" |
		addset "dcg/multiline" dcg "$r/dcg/multiline_cases.jsonl" "deny = dangerous, allow = safe"
fi
if [ -d "$r/safetynet" ]; then
	jq -c '{cmd: .command, cat: ((.source_path | sub("^tests/"; "") | sub("\\.test\\.ts$"; "")) + (if .env != null or .uses_cwd_arg then " (env/cwd)" else "" end) + (if (.test | test("custom rule|custom rules|rule without subcommand")) and (.command | test("^(git add|npm (un)?install)")) then " (peer custom rule)" else "" end)), label: (if .label == "deny" then "dangerous" else "safe" end)}' "$r/safetynet/safetynet_cases.jsonl" |
		addset "safetynet/cases" safetynet "$r/safetynet/safetynet_cases.jsonl" "deny = dangerous (target: 95% flagged), allow = safe"
	lines_json "$r/safetynet/safetynet_dangerous_default.txt" "dangerous_default" dangerous 1 |
		addset "safetynet/dangerous_default" safetynet "$r/safetynet/safetynet_dangerous_default.txt" "blocked by default (target: 95% flagged)"
	lines_json "$r/safetynet/safetynet_safe_default.txt" "safe_default" safe 1 |
		addset "safetynet/safe_default" safetynet "$r/safetynet/safetynet_safe_default.txt" "allowed by default"
fi
if [ -d "$r/continue" ]; then
	jq -c 'select(.base_policy == "allowedWithoutPermission") | {cmd: .command, cat: .expected, label: (if .expected == "disabled" then "dangerous" elif .expected == "allowedWithPermission" then "ask" else "safe" end)}' \
		"$r/continue/continue_terminal_security_cases.jsonl" |
		addset "continue/terminal_security" continue "$r/continue/continue_terminal_security_cases.jsonl" "disabled = dangerous, allowedWithPermission = ask, allowedWithoutPermission = safe"
fi
if [ -f "$r/codex-cases.txt" ]; then
	grep -v '^#' "$r/codex-cases.txt" | jq -R -c 'split("\t") | select(.[0] | startswith("[")) | (.[0] | fromjson) as $argv | (.[1] | if startswith("\"") then fromjson else . end) as $l |
		{cmd: ($argv | map(if test("^[A-Za-z0-9_./=:,@%+-]+$") then . else @sh end) | join(" ")), cat: $l, label: (if $l == "ForcedRm" or $l == "forbidden" then "dangerous" elif $l == "safe" or $l == "allow" then "safe" else "" end)}' |
		addset "codex" codex "$r/codex-cases.txt" "ForcedRm/forbidden = dangerous, safe/allow = safe (an approval-prefix suite)"
fi
if [ -f "$r/crush-cases.txt" ]; then
	grep -v '^#' "$r/crush-cases.txt" | jq -R -c 'split("\t") | select(length > 1) | {cmd: (.[0] | fromjson), cat: "auto-approved by crush", label: ""}' |
		addset "crush" crush "$r/crush-cases.txt" "commands crush auto-approved (no danger label)"
fi
for f in gsloth-cases.txt opencode-arity-cases.txt; do
	[ -f "$r/$f" ] || continue
	grep -v '^#' "$r/$f" | jq -R -c 'split("\t") | select(length > 1 and (.[0] | startswith("\""))) | {cmd: (.[0] | fromjson? // empty), cat: "prefix case", label: ""} | select(.cmd | type == "string")' |
		addset "${f%-cases.txt}" "${f%%-*}" "$r/$f" "approval-prefix cases (no danger label)"
done

# The project's own set: {set: "project", kind, cat, cmd, min, max, why}.
for kind in dangerous benign; do
	for f in "$root"/eval/"$kind"/*.jsonl; do
		jq -c --arg kind "$kind" --arg cat "$(basename "$f" .jsonl)" \
			'{set: "project", kind: $kind, cat: $cat, cmd, min, max, why: (.why // "")}' "$f"
	done
done >"$tmp/project-cases.jsonl"

# ---------------------------------------------------------------------------
# Run the detector once over every case (one process: its start-up is paid
# once) and join the verdicts to the cases:
# $tmp/all.jsonl = {set, cmd, cat, label, level, rules, unparseable};
# $tmp/project.jsonl = the project's cases with their level and rules.
for s in ${sets[@]+"${sets[@]}"}; do
	jq -c --arg set "$s" '. + {set: $set}' "$tmp/sets/${s//\//__}.jsonl"
done >"$tmp/cases.jsonl"
cat "$tmp/project-cases.jsonl" >>"$tmp/cases.jsonl"
jq -j '.cmd + "\u0000"' "$tmp/cases.jsonl" | (cd "$tmp/cwd" && "$bin" check --batch -0 --cwd "$tmp/cwd") >"$tmp/results.jsonl"
jq -c -n --slurpfile c "$tmp/cases.jsonl" --slurpfile r "$tmp/results.jsonl" '
	if ($c | length) != ($r | length) then error("\($c | length) cases but \($r | length) results") else . end |
	range(0; $c | length) as $i | $c[$i] + {
		level: ($r[$i].level // "none"),
		rules: [$r[$i].warnings[].name],
		unparseable: ([$r[$i].warnings[].name] | index("unparseable") != null)}' >"$tmp/joined.jsonl"
jq -c 'select(.set == "project")' "$tmp/joined.jsonl" >"$tmp/project.jsonl"
jq -c 'select(.set != "project")' "$tmp/joined.jsonl" >"$tmp/every.jsonl"
# The counts per set in one pass; the rest of the report reads only the
# labelled or flagged cases.
jq -c -n 'reduce inputs as $x ({}; .[$x.set][$x.level] += 1 | .[$x.set].lines += 1 | .[$x.set].unparseable += (if $x.unparseable then 1 else 0 end))' "$tmp/every.jsonl" >"$tmp/counts.json"
jq -c 'select(.label != "" or .level != "none")' "$tmp/every.jsonl" >"$tmp/all.jsonl"

# ---------------------------------------------------------------------------
# Report.
md() { printf '%s\n' "$@"; }
esc='def esc: gsub("\n"; "\\n") | gsub("\\|"; "\\|") | if length > 160 then .[0:157] + "..." else . end;'

md "# Evaluation of shellguard's danger detection" ""
md "Generated by \`scripts/eval.sh\` from the project's own set (\`eval/\`) and, when present, the data in \`../shared\`" \
	"(corpus/ and reference/); do not edit by hand. Regenerate after every change to the rules:" \
	"\`scripts/eval.sh > EVALUATION.md\`." \
	"Levels are those of the built-in registry with no configuration. A line counts as *flagged* when it gets any" \
	"warning: \`decide\` then asks (Low, Medium, High) or denies (Critical); an unflagged line is allowed only when" \
	"it is approved or read-only." ""

md "## The project's evaluation set (eval/)" "" \
	"Lines written for shellguard itself (issues 12 and 13; [eval/README.md](eval/README.md) says how they were made" \
	"and labelled), each with the least (*min*) and the most (*max*) level a careful reviewer accepts. *At or above" \
	"min* and *above max* compare shellguard's highest level with the labels (no warning counts as below every" \
	"level); *flagged* is any warning; *denied* is Critical, which the default policy denies. Targets per category:" \
	"dangerous — at least 95% at or above min and 100% flagged; benign — at most 1% above max and none denied." ""
pj_defs='
	def rank: {"none": 0, "low": 1, "medium": 2, "high": 3, "critical": 4}[.];
	def pct(k; n): if n == 0 then "-" else "\((k * 1000 / n | floor) / 10)%" end;
	def issue: if (.cat | startswith("mech.") or startswith("benign.")) then "12" else "13" end;
	def stats: {n: length,
		atmin: map(select((.level | rank) >= (.min | rank))) | length,
		flagged: map(select(.level != "none")) | length,
		above: map(select((.level | rank) > (.max | rank))) | length,
		denied: map(select(.level == "critical")) | length};
	def met(kind): if kind == "dangerous" then .atmin * 100 >= 95 * .n and .flagged == .n else .above * 100 <= .n and .denied == 0 end;
	def row(name; kind): "| \(name) | \(.n) | \(if kind == "dangerous" then pct(.atmin; .n) else "-" end) | \(pct(.flagged; .n)) | \(pct(.above; .n)) | \(if kind == "benign" then .denied else "-" end) | \(if met(kind) then "met" else "**missed**" end) |";
	def korder: if .kind == "dangerous" then 0 else 1 end;'
md "| set | lines | at or above min | flagged | above max | denied | target |" "|---|---|---|---|---|---|---|"
jq -r -s "$pj_defs"'
	group_by([korder, issue])[] | .[0] as $f | stats |
	row("issue \($f | issue) \($f.kind) lines (all categories together)"; $f.kind)
' "$tmp/project.jsonl"
md "" "### Per category" "" \
	"| kind | category | lines | at or above min | flagged | above max | denied | target |" "|---|---|---|---|---|---|---|---|"
jq -r -s "$pj_defs"'
	group_by([korder, .cat])[] | .[0] as $f | stats | row("\($f.kind) | `\($f.cat)`"; $f.kind)
' "$tmp/project.jsonl"
md "" "### Lines that miss their label" "" \
	"Dangerous lines below their min (an unflagged line shows *none*) and benign lines above their max, with the rules" \
	"that fired. Fix the detector, not the label, unless the label breaks the policy in eval/README.md." ""
jq -r -s "$pj_defs $esc"'
	map(select(if .kind == "dangerous" then (.level | rank) < (.min | rank) else (.level | rank) > (.max | rank) end)) |
	group_by([korder, .cat])[] |
	"#### \(.[0].kind)/\(.[0].cat): \(length)", "",
	(if .[0].kind == "dangerous" then "| shellguard | wanted | rules | command | why |" else "| shellguard | max | rules | command | |" end), "|---|---|---|---|---|",
	(.[] | "| \(.level) | \(if .kind == "dangerous" then "\(.min)+" else .max end) | \(.rules | join(", ")) | `\(.cmd | esc | gsub("`"; "'"'"'"))` | \(.why | esc) |"), ""
' "$tmp/project.jsonl"

if [ "$have_shared" = 0 ]; then
	md "The shared corpora and peer suites (\`../shared\`) are absent: only the project's set was scored." ""
else
	# The shared corpora and the peers' suites.
	md "## Targets" ""
	jq -r -s '
		def rate(f): (map(select(f)) | length) as $n | (map(select(f and .level != "none")) | length) as $k | {n: $n, k: $k, pct: (if $n == 0 then 100 else ($k * 1000 / $n | floor) / 10 end)};
		def row(name; want; r; ok): "| \(name) | \(want) | \(r.k) / \(r.n) (\(r.pct)%) | \(if ok then "met" else "**missed**" end) |";
		(map(select(.set == "dangerous/dangerous-classic.tsv")) | rate(true)) as $classic |
		(map(select(.set == "dangerous/dangerous-bashfuscator.tsv" or .set == "dangerous/bashfuscator-seeds")) | rate(true)) as $bf |
		(map(select(.set == "dangerous/dangerous-payloadsallthethings.tsv" and (.cat | startswith("obfuscation")))) | rate(true)) as $patt |
		(map(select(.set == "dcg/dangerous_default_config")) | rate(true)) as $dcg |
		(map(select(.set == "safetynet/cases" and .label == "dangerous")) | rate(true)) as $snc |
		(map(select(.set == "safetynet/dangerous_default")) | rate(true)) as $snd |
		(map(select(.set == "safetynet/cases" and .label == "dangerous" and (.cat | contains("(env/cwd)") | not))) | rate(true)) as $sndef |
		(map(select(.set == "safetynet/cases" and .label == "dangerous" and (.cat | endswith("(peer custom rule)") | not))) | rate(true)) as $sncust |
		(map(select((.set | startswith("benign/")) or .set == "dcg/safe") | select(.level == "critical")) | length) as $crit |
		"| target | wanted | got | |", "|---|---|---|---|",
		row("dangerous-classic.tsv flagged"; "100%"; $classic; $classic.k == $classic.n),
		row("Bashfuscator rows and seeds flagged"; "100%"; $bf; $bf.k == $bf.n),
		row("PayloadsAllTheThings obfuscation-* flagged"; "100%"; $patt; $patt.k == $patt.n),
		row("dcg dangerous_default_config flagged"; ">= 95%"; $dcg; $dcg.pct >= 95),
		row("safetynet_cases deny flagged (all rows, incl. custom env/cwd configurations)"; ">= 95%"; $snc; $snc.pct >= 95),
		row("safetynet_cases deny flagged (all rows but those the peer denies only by a custom rule of its test config: git add -A/., npm install/uninstall -g)"; ">= 95%"; $sncust; $sncust.pct >= 95),
		row("safetynet_cases deny flagged (default configuration)"; ">= 95%"; $sndef; $sndef.pct >= 95),
		row("safetynet_dangerous_default flagged"; ">= 95%"; $snd; $snd.pct >= 95),
		"| Critical on dcg safe.txt and the benign corpora | only reviewed destructive lines | \($crit) lines (listed below) | see list |"
	' "$tmp/all.jsonl"
	md ""

	md "## Every data set" "" \
		"| data set | peer | lines | parse failures | Critical | High | Medium | Low | unflagged |" \
		"|---|---|---|---|---|---|---|---|---|"
	for s in "${sets[@]}"; do
		IFS=$'\t' read -r peer path _ <"$tmp/sets/${s//\//__}.meta"
		printf '%s\t%s\t%s\n' "$s" "$peer" "$path"
	done >"$tmp/meta.tsv"
	jq -r --rawfile meta "$tmp/meta.tsv" '
		. as $by | $meta | split("\n")[] | select(length > 0) | split("\t") as [$s, $peer, $path] | ($by[$s] // {}) |
		"| `\($path)` | \($peer) | \(.lines // 0) | \(.unparseable // 0) | \(.critical // 0) | \(.high // 0) | \(.medium // 0) | \(.low // 0) | \(.none // 0) |"
	' "$tmp/counts.json"
	md ""

	md "## Detection rate per category (dangerous sets)" "" \
		"Rows labelled dangerous by the corpus or by the peer; *missed* rows get no warning at all." "" \
		"| data set | category | rows | flagged | rate | Critical/High |" "|---|---|---|---|---|---|"
	jq -r -s '
		map(select(.label == "dangerous")) | group_by(.set)[] | group_by(.cat)[] |
		(map(select(.level != "none")) | length) as $k |
		"| \(.[0].set) | \(.[0].cat) | \(length) | \($k) | \(($k * 1000 / length | floor) / 10)% | \(map(select(.level == "critical" or .level == "high")) | length) |"
	' "$tmp/all.jsonl"
	md ""

	md "## Agreement with the peers' labels" "" \
		"A *dangerous* (deny, blocked, disabled) case agrees when shellguard flags it at any level; a *safe* (allow)" \
		"case agrees when shellguard raises no warning; an *ask* case (the peer asks without blocking) agrees unless" \
		"shellguard flags it Critical (deny). Unlabelled sets are listed above only." "" \
		"| data set | peer | labelled | agree | dangerous missed | safe flagged (of which Critical) | ask denied |" "|---|---|---|---|---|---|---|"
	jq -r -s '
		def agree: if .label == "dangerous" then .level != "none" elif .label == "safe" then .level == "none" else .level != "critical" end;
		map(select(.label != "")) | group_by(.set)[] |
		(map(select(agree)) | length) as $a |
		"| \(.[0].set) | \(.[0].set | split("/")[0]) | \(length) | \($a) (\(($a * 1000 / length | floor) / 10)%) | \(map(select(.label == "dangerous" and .level == "none")) | length) | \(map(select(.label == "safe" and .level != "none")) | length) (\(map(select(.label == "safe" and .level == "critical")) | length)) | \(map(select(.label == "ask" and .level == "critical")) | length) |"
	' "$tmp/all.jsonl"
	md ""

	md "### Disagreements" "" "Every case where shellguard disagrees with the peer's label: its level and the rules that fired." ""
	jq -r -s "$esc"'
		def agree: if .label == "dangerous" then .level != "none" elif .label == "safe" then .level == "none" else .level != "critical" end;
		map(select(.label != "" and (agree | not))) | group_by(.set)[] |
		"#### \(.[0].set): \(length)", "", "| peer label | category | shellguard | rules | command |", "|---|---|---|---|---|",
		(sort_by(.label, .level, .cmd)[] | "| \(.label) | \(.cat | esc) | \(.level) | \(.rules | join(", ")) | `\(.cmd | esc | gsub("`"; "'"'"'"))` |"), ""
	' "$tmp/all.jsonl"

	md "## Critical verdicts on safe and benign lines" "" \
		"Lines of dcg's safe.txt, the other peers' safe cases and the benign corpora that shellguard would deny. Each must" \
		"really be destructive; they were reviewed by hand (the benign ones are also pinned by" \
		"\`danger/testdata/corpus-high-reviewed.tsv\`, which TestCorpusHighReviewed checks)." "" \
		"| data set | rules | command |" "|---|---|---|"
	jq -r -s "$esc"'
		map(select(((.set | startswith("benign/")) or .label == "safe") and .level == "critical")) | sort_by(.set, .cmd)[] |
		"| \(.set) | \(.rules | join(", ")) | `\(.cmd | esc | gsub("`"; "'"'"'"))` |"
	' "$tmp/all.jsonl"
	md ""

	cat <<-'EOF'
	## Policy differences

	Where shellguard's verdict differs from a peer's label on purpose. Labels are the peer's policy, not ground truth.

	- **Recursive deletion of an ordinary directory** (`rm -rf ./build`, `rm -rf /tmp/x`, `rm -rf node_modules`):
	  dcg denies some of these and allows others depending on the path. shellguard flags every recursive forced
	  delete `rm_recursive` at **Low** (decide asks; an approval can cover it) and reserves **Critical** (deny) for
	  the filesystem root, a home or a system directory, or a path that escapes with `..`. Deleting a build directory
	  is routine work for an agent; blocking it outright would train people to approve everything.
	- **`rm -rf $TMPDIR/...`, `/tmp/...`** (dcg allows, later dcg denies `$TMPDIR`): flagged Low like any other
	  directory. A dynamic path that climbs out with `..` (`$TMPDIR/../etc`) is **High** (`rm_rf_dynamic_escape`):
	  where it lands depends on the environment. A literal path is cleaned first: `/tmp/../etc` is `/etc` (Critical),
	  while `/var/tmp/../etc` is `/var/etc`, an ordinary directory (Low).
	- **Discarding changes to named files** (`git checkout -- file`, `git restore file`): dcg and safety-net deny.
	  shellguard flags them **Medium** (ask): the loss is limited to the named files' uncommitted edits. Discarding the
	  whole tree (`git checkout -- .`, `git restore .`, `git reset --hard`) stays **High**.
	- **`git push --force-with-lease`**: flagged **Low** (ask) like `--force`; the lease only protects against commits the
	  local clone has not fetched. To the default branch (`main`, `master`, `trunk`, `develop`), with or without the
	  lease, a force push is **Critical** (deny): it rewrites the remote's history (safety-net allows
	  `git push --force-with-lease origin main`). A `--force` push whose branch the line does not name is **Medium**.
	- **`find . -exec rm -f {} \;`, `find . -delete`** (safety-net allows the first): with no test selecting files,
	  find deletes the whole work tree and its `.git`: **Critical** (`find_wipe`). With a test (`-name '*.pyc'`) it
	  stays Low (`find_delete`).
	- **`git branch -d`** (merged branches only): not flagged; `-D` / `-f` are Medium.
	- **Dry runs** (`git clean -n`, `git clean -nf`, `git push --dry-run --force`, `rsync -n --delete`, `rclone sync
	  --dry-run`, `aws s3 rm --recursive --dryrun`, `kubectl ... --dry-run=server`, `mkfs.ext4 -n`): not flagged; the
	  program data names each program's dry-run flags and a dry run cancels its rules. safety-net denies `git clean
	  -nf`, where `-n` makes git only list what it would delete.
	- **Interpreter one-liners** (`python -c`, `node -e`, `perl -e`, `ruby -e`): the code is inspected. A shell-out
	  (`os.system`, `subprocess`, `execSync`, `system`, backticks) whose string literal is itself a shell command is
	  re-checked with the detector and takes its level; a filesystem-destroying call (`shutil.rmtree`,
	  `fs.rmSync(..., {recursive})`, `FileUtils.rm_rf`, `os.remove`) on the root, a home or a system path is Critical,
	  elsewhere Medium. Code that only prints such text (`print('rm -rf /')`) is data and is not flagged.
	- **Unparseable input** is flagged Medium (`unparseable`): it is never allowed, but it is not denied either, since
	  a typo is the usual cause. Peers that label such lines safe disagree on purpose.
	- **`command -V git reset --hard`, `command -pv ...`** (safety-net denies): `command -v/-V` only says what the name
	  would run; nothing runs. Not flagged.
	- **`1A=2 git reset --hard`, `=2 git ...`, `A-B=2 git ...`** (safety-net denies): these words are not assignments,
	  so the shell looks for a program literally named `1A=2` and fails; git never runs. They are flagged all the same,
	  because shellguard reads the argv of programs it does not know (`direnv exec . rm -rf /`): a program named `1A=2`
	  could run `git reset --hard`. Agreement with the peer here is a side effect, not the reason.
	- **Interpreters reading code from a heredoc** (`python3 <<EOF ... shutil.rmtree(...)`, dcg multiline cases): not yet
	  inspected, because the parser does not expose heredoc bodies to the detector; one-liners (`-c`, `-e`) are.
	- **PayloadsAllTheThings obfuscation building blocks that only print** (the 9 unflagged `obfuscation-*` rows:
	  `echo ~+`, `echo ~-`, `echo -e "\x2f..."`, `echo . | tr '!-0' '"-1'`, `tr '!-0' '"-1' <<< .`,
	  `xxd -r -p <<< 2f65...`, `xxd -r -ps <(echo 2f65...)`, `test=/ehhh/...`, `cat</etc/passwd`): alone they print
	  text, set a variable or read a world-readable file, and nothing they do is unverifiable. shellguard flags the step
	  where such output becomes code, a program name or an argument (`dynamic_program`, `obfuscated_word`,
	  `decoded_argument`, `env_slice`, `runtime_shell_input`: the other 35 rows), not the printing itself, which would
	  flag ordinary use of echo, tr and xxd. None of the 9 is allowed without an approval except `echo ~+`, `echo ~-`,
	  `echo -e ...` and `echo . | tr ...`, which print. This is why the 100% target is reported as missed: a deliberate
	  policy difference with the corpus label, not a detection gap.
	- **Peers that deny on configuration we do not model** (safety-net's env/cwd cases, dcg packs that are off by default):
	  the disagreement is listed but not a target.
	EOF
fi

if [ "$check" = 1 ]; then
	# The project's set: every category meets its target.
	fail=$(jq -s '
		def rank: {"none": 0, "low": 1, "medium": 2, "high": 3, "critical": 4}[.];
		group_by([.kind, .cat]) | map(
			length as $n | .[0].kind as $k |
			if $k == "dangerous" then
				((map(select((.level | rank) >= (.min | rank))) | length) * 100 >= 95 * $n) and (all(.level != "none"))
			else
				((map(select((.level | rank) > (.max | rank))) | length) * 100 <= $n) and (all(.level != "critical"))
			end | select(not)) | length' "$tmp/project.jsonl")
	if [ "$have_shared" = 1 ]; then
		fail=$((fail + $(jq -s '
			def rate(f): (map(select(f)) | length) as $n | (map(select(f and .level != "none")) | length) as $k | (if $n == 0 then 100 else $k * 100 / $n end);
			[ (map(select(.set == "dangerous/dangerous-classic.tsv")) | rate(true)) < 100,
			  (map(select(.set == "dangerous/dangerous-bashfuscator.tsv" or .set == "dangerous/bashfuscator-seeds")) | rate(true)) < 100,
			  (map(select(.set == "dangerous/dangerous-payloadsallthethings.tsv" and (.cat | startswith("obfuscation")))) | rate(true)) < 100,
			  (map(select(.set == "dcg/dangerous_default_config")) | rate(true)) < 95,
			  (map(select(.set == "safetynet/cases" and .label == "dangerous" and (.cat | contains("(env/cwd)") | not))) | rate(true)) < 95,
			  (map(select(.set == "safetynet/dangerous_default")) | rate(true)) < 95 ] | map(select(.)) | length' "$tmp/all.jsonl")))
	fi
	if [ "$fail" != 0 ]; then
		echo "eval.sh: $fail target(s) missed" >&2
		exit 1
	fi
fi
