// Package bench holds shellguard's speed benchmarks; it has no code of its
// own, only benchmark files (run them with go test -bench).
//
// Every stage a command line goes through is measured on its own and in
// sequence — shellparse.Parser.Parse, danger.Detector.Check and CheckParsed,
// approval.Classify and ClassifyCommand, and policy.Guard.Decide — over a
// fixed sample of real commands built into the package, and over the full
// corpora in ../shared/corpus when they are present (found by walking up
// from the package directory; benchmarks that need them skip otherwise):
//
//	go test ./bench -run '^$' -bench . -benchmem -cpu 1
//
// The benchmarks report, besides ns/op and allocs/op (both per command
// line):
//
//   - BenchmarkDecide: lines/s on one core (run with -cpu 1);
//   - BenchmarkDecideLatency: the per-line distribution of Decide (p50-ns,
//     p99-ns, max-ns, each line's best time over the passes, which filters
//     out the noise of a loaded machine), logging the slowest lines;
//   - BenchmarkDecideHuge: Decide on inputs built to be expensive (1 MiB
//     of "a ", of "$(", of "'", of "a|", of "{a,b}", a huge heredoc, ...),
//     at 1 MiB and at the parser's size limit (the longest line that is
//     parsed rather than refused), in ms/op;
//   - BenchmarkDecideBashfuscator: every Bashfuscator payload, with the
//     slowest one's time (max-ns);
//   - BenchmarkHookProcess: the "shellguard hook claude" process against an
//     empty Go program (and optionally the peer's hook), interleaved; it
//     needs the programs built and named in environment variables, and
//     skips otherwise.
//
// scripts/bench.sh runs them together with the process-level measurements
// (the hook against an empty Go program, and the cc-safety-net peer) and
// BENCHMARKS.md records the figures and the targets they are held to.
package bench
