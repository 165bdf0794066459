package policy

import (
	"strings"

	"github.com/shellguard/shellguard/shellparse"
)

// ReadOnlyPrograms lists the programs shellguard allows without an approval
// when they are used read-only (the read_only setting, on by default). Each
// comes with a guard in readOnly: the flags and operand shapes that would
// make it write, run another program or change the system disqualify it.
//
// It returns a new slice on each call.
func ReadOnlyPrograms() []string {
	return []string{
		"ls", "dir", "vdir", "cat", "tac", "head", "tail", "wc", "grep", "egrep", "fgrep", "rg", "find",
		"git status", "git log", "git diff", "git show", "git branch",
		"pwd", "echo", "printf", "true", "false", "whoami", "id", "groups", "uname", "arch", "nproc",
		"date", "hostname", "which", "type", "stat", "file", "du", "df", "tree", "sort", "uniq", "cut",
		"tr", "nl", "rev", "seq", "basename", "dirname", "realpath", "readlink", "printenv", "diff", "cmp",
		"comm", "md5sum", "sha1sum", "sha256sum", "sha512sum", "cksum", "test", "[", "expr", "jq", "column",
		"fold", "paste", "od", "hexdump", "strings", "base64", "ps", "free", "uptime", "who", "w", "lsblk",
		"lscpu", "locale", "tty", "cal", "sleep", "cd", "env",
	}
}

// readOnly reports whether inv is read-only by nature.
func readOnly(inv *shellparse.Invocation) bool {
	if inv.Name == "" || len(inv.Wrappers) > 0 || len(inv.Assigns) > 0 || inv.Dynamic() ||
		inv.RunsShellInput || inv.StdinUnknown || inv.Program != inv.Name {
		// A path-qualified program (./ls, /tmp/ls) may be anything.
		return false
	}
	for _, r := range inv.Redirs {
		if r.Writes() && r.Target != "/dev/null" {
			return false
		}
	}
	args := inv.Args[1:]
	switch inv.Name {
	case "sort", "uniq", "rg", "tree", "find", "git", "date", "hostname", "file", "printf", "env":
		// These have options that write or run: a glob could expand to a
		// file named like one (a file called "--output=x" in the folder).
		for _, a := range args {
			if a.Glob {
				return false
			}
		}
	}
	has := func(flags ...string) bool {
		for _, a := range args {
			v := a.Value
			for _, f := range flags {
				if v == f || strings.HasPrefix(f, "--") && strings.HasPrefix(v, f+"=") {
					return true
				}
				// GNU getopt accepts any unambiguous prefix of a long
				// option (--se for --set); count every prefix.
				if name, _, _ := strings.Cut(v, "="); strings.HasPrefix(f, "--") && len(name) > 2 && strings.HasPrefix(name, "--") && strings.HasPrefix(f, name) {
					return true
				}
				// Short flags inside a cluster: -o in -so.
				if len(f) == 2 && f[0] == '-' && f[1] != '-' && len(v) > 2 && v[0] == '-' && v[1] != '-' && strings.IndexByte(v[1:], f[1]) >= 0 {
					return true
				}
			}
		}
		return false
	}
	operands := func() int {
		n := 0
		end := false
		for _, a := range args {
			if !end && a.Value == "--" {
				end = true
				continue
			}
			if end || !strings.HasPrefix(a.Value, "-") {
				n++
			}
		}
		return n
	}
	switch inv.Name {
	case "test", "[":
		// test -v NAME evaluates an array subscript: test -v 'a[$(cmd)]'
		// runs cmd.
		return !has("-v")
	case "printf":
		// printf -v NAME assigns a shell variable (PATH, ...).
		return !has("-v")
	case "ls", "dir", "vdir", "cat", "tac", "head", "tail", "wc", "grep", "egrep", "fgrep",
		"pwd", "echo", "true", "false", "whoami", "id", "groups", "uname", "arch", "nproc",
		"which", "type", "stat", "du", "df", "cut", "tr", "nl", "rev", "seq", "basename", "dirname",
		"realpath", "readlink", "printenv", "diff", "cmp", "comm", "md5sum", "sha1sum", "sha256sum",
		"sha512sum", "cksum", "expr", "jq", "column", "fold", "paste", "od", "hexdump",
		"strings", "base64", "ps", "free", "uptime", "who", "w", "lsblk", "lscpu", "locale", "tty", "cal",
		"sleep", "cd":
		return true
	case "env":
		return len(args) == 0
	case "rg":
		return !has("--pre", "--pre-glob", "-z", "--search-zip")
	case "find":
		for _, a := range args {
			switch v := a.Value; {
			case v == "-exec", v == "-execdir", v == "-ok", v == "-okdir", v == "-delete", v == "-fls",
				strings.HasPrefix(v, "-fprint"):
				return false
			}
		}
		return true
	case "sort":
		return !has("-o", "--output", "--compress-program")
	case "uniq":
		return operands() <= 1
	case "tree":
		// -o writes a file; -R with -H writes an index into every folder.
		return !has("-o", "-R")
	case "file":
		// -C compiles a magic file, writing magic.mgc.
		return !has("-C", "--compile")
	case "date":
		// An operand other than +FORMAT sets the clock (date MMDDhhmm).
		for i := 0; i < len(args); i++ {
			v := args[i].Value
			switch {
			case v == "-d" || v == "-r" || v == "-f":
				i++ // the value of --date, --reference, --file
			case strings.HasPrefix(v, "-"), strings.HasPrefix(v, "+"):
			default:
				return false
			}
		}
		return !has("-s", "--set")
	case "hostname":
		return operands() == 0 && !has("-F", "--file", "-b", "--boot")
	case "git":
		return gitReadOnly(args)
	}
	return false
}

// gitReadOnly accepts git status/log/diff/show/branch (listing forms only)
// without options that run programs, write files or change where git
// looks.
func gitReadOnly(args []shellparse.Arg) bool {
	i := 0
	for i < len(args) && strings.HasPrefix(args[i].Value, "-") {
		switch args[i].Value {
		case "--no-pager", "-P", "--no-optional-locks":
			i++
		default:
			return false // -c, -C, --git-dir, -p, --exec-path, ...
		}
	}
	if i >= len(args) {
		return false
	}
	sub := args[i].Value
	rest := args[i+1:]
	for _, a := range rest {
		v := a.Value
		for _, bad := range []string{"--output", "--ext-diff", "--textconv", "--exec", "-c", "--config-env", "--upload-pack", "-o"} {
			if v == bad || strings.HasPrefix(v, bad+"=") {
				return false
			}
		}
	}
	switch sub {
	case "status", "log", "diff", "show":
		return true
	case "branch":
		for _, a := range rest {
			switch v := a.Value; v {
			case "-a", "--all", "-r", "--remotes", "-v", "-vv", "--verbose", "--list", "-l", "--show-current",
				"--merged", "--no-merged", "--contains", "--no-contains", "--color", "--no-color", "--sort", "--format":
			default:
				if strings.HasPrefix(v, "--sort=") || strings.HasPrefix(v, "--format=") || strings.HasPrefix(v, "--color=") {
					continue
				}
				return false // creates, deletes, renames or sets upstream
			}
		}
		return true
	}
	return false
}
