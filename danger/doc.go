// Package danger detects dangerous shell commands: it checks every
// invocation the shellparse parser finds in a command line against a
// registry of patterns and returns one Warning per pattern matched, with
// its Level (Low < Medium < High < Critical).
//
// The built-in registry is data: rule packs in danger/rules/*.toml (one
// file per pack: core.filesystem, core.git, disks, ...; see Packs), each
// rule with hit and miss examples, compiled into rules_gen.go by go
// generate, which also checks every example with the real detector.
// Default returns a detector over the packs on by default; NewDetector
// accepts any registry. A Pattern matches through a regular expression
// over the invocation's text, a structured Spec over its argv, or both.
// docs/rules.md walks through adding a rule for a new program in one file.
//
// # Canonical argv
//
// Specs read argv with the program facts of internal/programs (data in
// internal/programs/data): short clusters are split ("-rf" is "-r" and
// "-f") unless the program reads single-dash words whole (find -delete,
// terraform -auto-approve), options that take a value keep it (kubectl -n
// prod), each program's aliases are mapped to one spelling ("--recursive"
// and "-R" are "-r" for rm), subcommands are the leading positional words
// after the program's options (kubectl -n prod delete ns foo is "delete
// namespace"), and operands are cleaned like paths ("/etc/" is "/etc";
// "${HOME}" is "$HOME"). Program names are basenames in lower case without
// ".exe", after the parser has peeled wrappers (sudo, env, nice, timeout,
// xargs, ...) and re-parsed shell strings (bash -c, eval, ssh HOST CMD,
// ...). Runners are read as the program they run (npx rimraf ~ is rimraf
// ~), programs that are another command as that command (rimraf is rm
// -rf), and a dry-run flag of the program's data cancels its rules (git
// clean -n, rsync -n, kubectl --dry-run=server).
//
// # What the detector reads beyond the parser
//
// Code the parser does not re-parse is checked as command lines of its
// own: what interpreter code does (python -c, node -e, perl -e, ruby -e,
// php -r, lua -e, Rscript -e, osascript -e, pwsh -Command, ...; read by
// danger/internal/interp) in its shell form — the commands it hands to a
// shell, the programs it runs with an argument list, each deletion as
// "rm -rf -- PATH" (a tree) or "rm -f -- PATH" (a file), each overwrite as
// ": > PATH" — so that it gets the level of the shell form (also for
// code fed on standard input: python3 - <<'EOF', node <<< '...'), runners'
// shell strings (npx -c CMD) and GNU parallel's commands. What
// interpreter code does that has no shell form (a fork bomb, a reverse
// shell, downloaded code it runs, a secret it sends) and what cannot be
// read (a computed command, path, import or eval) have rules of their own
// (interpreter_*).
//
// Programs the detector does not know may run the rest of their argv
// (direnv exec . CMD, mytool --flag CMD): every suffix of such a program's
// argv that starts with a program a rule names, or with a shell given -c,
// is checked as a command line of its own, and what it matches is
// reported "in the arguments of" the program. Programs are known when a
// rule names them, when they are shells or interpreters, when the parser
// ran what their argv holds (its wrappers and argv runners), or when their
// program data says their arguments are data (echo, grep, man, which,
// git, apt-get, ...). At most 16 suffixes are re-parsed per check; past
// that the line is over the limit.
//
// A Detector is safe for concurrent use.
package danger
