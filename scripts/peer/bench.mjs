// Benchmark of the cc-safety-net peer's in-process API (checkCommand from
// cc-safety-net/api) over the same inputs as shellguard's Go benchmarks in
// bench/: the benign corpora (lines/s and per-line distribution), every
// Bashfuscator payload (max) and the 1 MiB inputs (ms each).
//
//   node bench.mjs SHARED_DIR [--passes N] [--huge-timeout-ms MS] [--json]
//
// Per-line times are each line's best over N passes (default 5), as in
// bench/'s BenchmarkDecideLatency; lines/s is the median over the passes
// of (lines / time of the whole pass). A call that throws counts as a
// decision (the peer documents a throw as "do not run the command").
// Run from scripts/peer after `npm ci` (or `npm install`).
import { checkCommand } from 'cc-safety-net/api';
import { readFileSync, existsSync, mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';

const MIB = 1 << 20;

function fill(unit, n) {
  return unit.repeat(Math.floor(n / unit.length) + 1).slice(0, n);
}

// The same 1 MiB inputs as bench/inputs_test.go's huge(mib).
function huge(size) {
  const wrap = (head, unit, tail) => head + fill(unit, size - head.length - tail.length) + tail;
  return [
    ['a_space', fill('a ', size)],
    ['subst_open', fill('$(', size)],
    ['squote', fill("'", size)],
    ['dquote', fill('"', size)],
    ['pipe', fill('a|', size)],
    ['semicolon', fill('a;', size)],
    ['and', wrap('', 'a&&', 'a')],
    ['brace_words', fill('{a,b} ', size)],
    ['brace_one_word', fill('{a,b}', size)],
    ['dollar_var', fill('$a ', size)],
    ['subst_closed', fill('$(a) ', size)],
    ['backtick', fill('`a` ', size)],
    ['assign', fill('a=1 ', size)],
    ['backslash_newline', fill('a \\\n', size)],
    ['newlines', fill('a\n', size)],
    ['heredoc_quoted', wrap("cat <<'EOF' > out.txt\n", 'some heredoc text $(not expanded) `nor this`\n', 'EOF\n')],
    ['heredoc_expanding', wrap('cat <<EOF\n', 'line $HOME $(date) ${x:-y}\n', 'EOF\n')],
    ['bash_c', wrap("bash -c '", 'a;', "'")],
    ['rm_args', wrap('rm -rf', ' /tmp/x', '')],
    ['subshells', fill('(a) ', size)],
    ['arith', wrap('echo $((', '1+', '1))')],
    ['parens_open', fill('(', size)],
    ['nul_bytes', fill('a\x00', size)],
  ];
}

function readLines(path, column) {
  if (!existsSync(path)) return null;
  const out = [];
  for (let line of readFileSync(path, 'utf8').split('\n')) {
    if (column >= 0) {
      const cols = line.split('\t');
      if (cols.length <= column) continue;
      line = cols[column];
    }
    if (line.trim() === '') continue;
    out.push(line);
  }
  return out;
}

// cwd: an empty directory, so that no project configuration is found.
const cwd = isMainThread ? mkdtempSync(join(tmpdir(), 'ccsn-bench-')) : workerData.cwd;

function decide(command) {
  try {
    return checkCommand({ command, cwd }).kind;
  } catch {
    return 'throw';
  }
}

function pct(sorted, q) {
  return sorted[Math.floor(q * (sorted.length - 1))];
}

function latency(lines, passes) {
  const best = new Array(lines.length).fill(Infinity);
  const rates = [];
  let slowest = 0;
  for (let p = 0; p < passes; p++) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < lines.length; i++) {
      const t0 = process.hrtime.bigint();
      decide(lines[i]);
      const d = Number(process.hrtime.bigint() - t0);
      if (d < best[i]) best[i] = d;
    }
    rates.push(lines.length / (Number(process.hrtime.bigint() - start) / 1e9));
  }
  const idx = best.map((_, i) => i).sort((a, b) => best[a] - best[b]);
  slowest = idx[idx.length - 1];
  const sorted = idx.map((i) => best[i]);
  rates.sort((a, b) => a - b);
  return {
    lines: lines.length,
    linesPerSec: rates[Math.floor((rates.length - 1) / 2)],
    p50ns: pct(sorted, 0.5),
    p99ns: pct(sorted, 0.99),
    maxns: sorted[sorted.length - 1],
    slowest: JSON.stringify(lines[slowest]).slice(0, 120),
  };
}

// Each huge input runs in a worker thread that is terminated after the
// timeout, so that one pathological input cannot stall the whole run.
function runHuge(name, timeoutMs) {
  return new Promise((resolve) => {
    const w = new Worker(new URL(import.meta.url), { workerData: { huge: name, cwd } });
    const timer = setTimeout(() => {
      w.terminate();
      resolve({ name, ms: null, timedOut: timeoutMs });
    }, timeoutMs);
    w.on('message', (m) => {
      clearTimeout(timer);
      w.terminate();
      resolve(m);
    });
    w.on('error', (e) => {
      clearTimeout(timer);
      resolve({ name, ms: null, error: String(e) });
    });
  });
}

if (!isMainThread) {
  const [name, line] = huge(MIB).find(([n]) => n === workerData.huge);
  decide(line); // warm up (and the first result)
  const times = [];
  let verdict;
  for (let i = 0; i < 3; i++) {
    const t0 = process.hrtime.bigint();
    verdict = decide(line);
    times.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  let reason;
  try {
    reason = checkCommand({ command: line, cwd }).reason;
  } catch (e) {
    reason = String(e);
  }
  parentPort.postMessage({ name, ms: Math.min(...times), verdict, reason: reason?.slice(0, 80) });
} else {
  const args = process.argv.slice(2);
  const shared = args.find((a) => !a.startsWith('--')) ?? '../../../shared';
  const opt = (k, d) => {
    const i = args.indexOf(k);
    return i >= 0 ? Number(args[i + 1]) : d;
  };
  const passes = opt('--passes', 5);
  const hugeTimeout = opt('--huge-timeout-ms', 60000);
  const json = args.includes('--json');
  const pkg = JSON.parse(readFileSync(new URL('./node_modules/cc-safety-net/package.json', import.meta.url)));
  const report = { peer: `cc-safety-net ${pkg.version}`, node: process.version, passes, corpora: {}, huge: [] };

  for (const [name, file] of [['tldr', 'tldr.txt'], ['nl2bash', 'nl2bash.txt'], ['cheatsheets', 'cheatsheets.txt']]) {
    const lines = readLines(join(shared, 'corpus', 'benign', file), -1);
    if (lines) {
      for (const l of lines.slice(0, 2000)) decide(l); // warm up the JIT
      report.corpora[name] = latency(lines, passes);
    }
  }
  const bf = readLines(join(shared, 'corpus', 'dangerous', 'dangerous-bashfuscator.tsv'), 1);
  if (bf) report.corpora.bashfuscator = latency(bf, passes);
  for (const [name] of huge(16)) report.huge.push(await runHuge(name, hugeTimeout));

  if (json) {
    console.log(JSON.stringify(report, null, 2));
  } else {
    console.log(`# ${report.peer} checkCommand, node ${report.node}, best of ${passes} passes per line`);
    console.log('corpus\tlines\tlines/s\tp50-us\tp99-us\tmax-us\tslowest');
    for (const [n, r] of Object.entries(report.corpora)) {
      console.log([n, r.lines, Math.round(r.linesPerSec), (r.p50ns / 1e3).toFixed(1), (r.p99ns / 1e3).toFixed(1), (r.maxns / 1e3).toFixed(1), r.slowest].join('\t'));
    }
    console.log('huge (1 MiB)\tms\tverdict');
    for (const h of report.huge) {
      console.log([h.name, h.ms === null ? (h.timedOut ? `>${h.timedOut}` : 'error') : h.ms.toFixed(2), h.verdict ?? h.error ?? 'timeout', h.reason ?? ''].join('\t'));
    }
  }
}
