// Package programs is what shellguard knows about programs, in one place:
// how each reads its options (which take a value, single-dash long
// options, clusters, aliases of flags, global options before a
// subcommand), its subcommand words, how approvals name it (its arity),
// what makes it run other code or widen what it does, which programs are
// shells and interpreters and their code options, which are runners
// (npx, pnpm dlx, uvx, ...), wrappers (sudo, env, timeout: how the parser
// peels them) and launchers (docker exec, kubectl exec, tmux new, salt
// cmd.run: where the parser finds the command they run), where programs
// take code they run (an option, an operand, a variable or standard input,
// and which of the parser's readers reads it: CodeRun) and the
// configuration keys that hold commands (git -c core.pager), their dry
// runs and their read-only forms.
//
// The facts are data: internal/programs/data/*.toml, and the [[program]]
// entries of the rule packs in danger/rules/ (a pack may declare the
// facts of a program it introduces). danger/internal/gen merges them (a
// field set twice with different values is an error) and compiles them
// into programs_gen.go, static Go tables: nothing is decoded, compiled or
// allocated at init. Run go generate ./danger after editing them. Code is
// kept only where argv semantics need it, as named extractors the data
// chooses (a sed script, an awk program, docker's mounts, find's actions).
//
// shellparse reads the shells, wrappers, launchers and code runs (and
// scans the argv of a program that runs code with the same option
// syntax); danger reads argv
// with it (canonical flags, subcommands, dry runs, runners), approval
// reads arities and widening, policy the read-only forms and the tui the
// programs that need a terminal.
package programs
