// Package approval remembers what people approved and answers whether those
// approvals cover a command line.
//
// # Entries and stores
//
// An Entry is either a Prefix approval ("git checkout *", stored as the
// prefix "git checkout") or an Exact approval of one command line. Session
// approvals live in a SessionStore; "always" approvals in a Store file (see
// NewStore, DefaultPath), which approves nothing when it is corrupt or
// another user could have written it. An entry may expire (Entry.Expires):
// from then on it approves nothing, until Store.Prune removes it.
//
// Beside the approvals file, Refusals (RefusalsPath) keeps the recent
// refusals, each with an allow-once code tied to the exact line, its folder
// and a lifetime: Refusals.Approve (a person's "shellguard allow once
// CODE") lets the next Refusals.Record of that line in that folder through
// once. It also holds approvals given for one agent session.
//
// # Classification
//
// Classify (or ClassifyCommand) turns a shellparse.Result into a
// Classification: one InvocationClass per program the line runs. The prefix
// of an invocation is
//
//   - the names of the wrappers peeled off it, outermost first (sudo,
//     timeout, nice, env, xargs, ...; their option values are left out:
//     "timeout 60 make test" has the prefix "timeout make test"),
//   - the program as written ("./git" is not "git", "/usr/bin/rm" is not
//     "rm"),
//   - and as many subcommands as the program's approval arity gives for
//     the longest matching key ("git checkout main" -> "git checkout",
//     "npm run dev --silent" -> "npm run dev", "aws s3 ls x" -> "aws s3
//     ls"). Programs without an arity keep the program alone. Flags never
//     count; the values of options the program data says take one are
//     skipped too ("kubectl -n prod get pods" -> "kubectl get"), and any
//     other option value stays among the tokens, which only makes the
//     prefix more specific. A runner's prefix goes on with the prefix of
//     the program it runs, by that program's own arity: "npx prisma
//     generate" is "npx prisma generate", which does not cover "npx prisma
//     migrate reset --force".
//
// The arities and option facts are program knowledge, kept as data in
// internal/programs/data (arity.toml holds every row of opencode's
// BashArity table and of the gaunt-sloth seed's, plus interpreters, a few
// subcommand groups and programs agents run through runners).
//
// A line is Approvable — prefix approvals can cover it — only when it
// parsed completely, runs at least one program, defines no function, and
// every invocation has a prefix and no reason against it. Reasons against an
// invocation:
//
//   - anything decided when the line runs: $(...), backticks, $VAR and
//     ${...} in argv, assignments or redirection targets, process
//     substitution, a pattern character in the program or a subcommand;
//   - code handed to a shell: bash -c, eval, sh reading a pipe or heredoc,
//     ssh host CMD, and every invocation re-parsed from such a string;
//   - running in the background (&) or inside a function;
//   - a redirection other than to or from /dev/null or between descriptors
//     (2>&1, >&-): "> file", ">> log", "< secrets", heredocs and
//     here-strings (input the approval never saw), and redirections written
//     on an enclosing { ...; } or ( ... ); a redirection with no command at
//     all ("ls; > file") makes the whole line unapprovable;
//   - a variable assignment on its own ("PATH=/tmp/evil:$PATH; git status");
//   - a widening option (below).
//
// Pipes, &&, ||, ;, line breaks, subshells, groups and if/while/for bodies
// are fine in themselves: the line is covered only when each invocation is.
// A line break is always a separator.
//
// # Widening
//
// Some options and environment assignments change what runs or where data
// goes; the person who approved "git log *" did not approve "git -c
// core.pager=sh log". Such an invocation keeps its prefix (so a person can
// see it) but carries a Widening and a Reason, and no prefix approval
// covers it. The rules are program facts in internal/programs/data: each
// program's widen rules (git's -c, -C and --upload-pack, find -exec, curl
// -o, tar --to-command, sed -i and its e/w commands, awk system(), ...),
// interpreters' code options and their reading a program from standard
// input (python -c, node -e, bash -s, python3 -), the options of peeled
// wrappers (sudo -E, env -S, strace -o), and the environment variables
// that change what runs, what loads or where data goes (PATH, LD_*, GIT_*,
// NODE_OPTIONS, PAGER, ... in environment.toml). Short options are read
// in clusters ("sed -ni", "curl -sSLo x", "tar -xzI prog"), and GNU-style
// abbreviations of long options ("--upload-p") count for the programs
// that accept them. Harmless options stay harmless: after "git add ." is
// approved, "git add -u" is covered, and so are "sort -u" and "grep -o".
// A runner's program is checked too ("npx node -e CODE").
//
// # Matching
//
// Match answers whether entries cover a Classification. A Prefix entry
// covers an invocation whose prefix equals the entry's pattern exactly and
// that has no reason against it ("npm test" never covers "sudo npm test";
// "sudo apt-get install" never covers "sudo rm"). An Exact entry covers
// the line whose text, without surrounding white space, equals its pattern,
// provided the line parsed completely; it covers widening options,
// substitutions and redirections, because the person approved that very
// text. Danger is not considered here: the policy layer refuses a dangerous
// command whatever its approvals ("danger beats approval").
package approval
