package danger

import (
	"path"
	"strings"

	"github.com/shellguard/shellguard/internal/programs"
)

// The remote-code checks of core.remote-code: downloaded code that runs.
// The pipe rules name the shells a download is piped into; these follow
// the download to whatever runs it: a program that runs its input as
// commands (at, batch, su, sudo -s, source /dev/stdin: the parser marks
// them StdinUnknown), or a file the line downloads and then runs.

// downloaders are the programs that fetch a URL's content.
var downloaders = []string{"curl", "wget", "wget2", "fetch", "aria2c", "http", "https", "xh", "xhs", "curlie"}

// checkDownloadRunsCode: a download feeds, through a pipe or a
// substitution, a program that runs its input as commands it cannot
// verify. A shell fed directly is left to the pipe rules.
func checkDownloadRunsCode(sc *scan, i int) bool {
	return feeds(sc.res, i, true, func(j int) bool {
		o := &sc.res.Invocations[j]
		return o.StdinUnknown && !programs.IsShell(progName(o.Name))
	})
}

// checkDownloadFeedsInterpreter: a download is piped into an interpreter
// that reads its program from standard input (curl URL | python3, |
// node, | perl -); not one that reads data (python3 -m json.tool, jq).
func checkDownloadFeedsInterpreter(sc *scan, i int) bool {
	if feeds(sc.res, i, false, func(j int) bool { return readsProgramFromStdin(sc, j) }) {
		return true
	}
	// python3 <(curl URL), node -e "$(curl URL)": the download is the
	// program's script (its first operand), or its code (the value of
	// one of its code options, in the program data).
	inv := &sc.res.Invocations[i]
	e := inv.Encloser
	if e < 0 || e >= len(sc.res.Invocations) || e == i {
		return false
	}
	name := sc.name(e)
	p := programs.Lookup(name)
	if p == nil || !p.Has(programs.StdinProgram) || programs.IsShell(name) {
		return false
	}
	args := sc.res.Invocations[e].Args[1:]
	vals, dyn := argWords(args)
	s := programs.NewScanner(p, vals, dyn, "")
	for {
		it, more := s.Next()
		switch {
		case !more:
			return false
		case it.Kind == programs.Option && it.HasValue && p.Code.Has(it.Name):
			// The value is in the option's word (-c"$(curl)") or the next.
			if dyn[it.Word] || it.Word+1 < len(dyn) && dyn[it.Word+1] && vals[it.Word] == it.Name {
				return true
			}
		case it.Kind == programs.Operand:
			return strings.HasPrefix(args[it.Word].Raw, "<(")
		}
	}
}

// readsProgramFromStdin reports an interpreter invocation that reads its
// program from standard input.
func readsProgramFromStdin(sc *scan, j int) bool {
	name := sc.name(j)
	p := programs.Lookup(name)
	if p == nil || !p.Has(programs.StdinProgram) || programs.IsShell(name) {
		return false
	}
	args := sc.res.Invocations[j].Args
	words := make([]string, 0, len(args))
	for _, a := range args[1:] {
		words = append(words, a.Value)
	}
	return p.ReadsProgramFromStdin(name, words)
}

// checkRunsDownloadedFile: the invocation runs a file an earlier
// download of the same line wrote (curl -o f URL && sh f, wget URL;
// bash ./x.sh, curl -O URL/x.sh && ./x.sh).
func checkRunsDownloadedFile(sc *scan, i int) bool {
	run := ranFile(sc, i)
	if run == "" {
		return false
	}
	for j := 0; j < i; j++ {
		if !nameIn(sc.name(j), downloaders) {
			continue
		}
		for _, f := range downloadedFiles(sc, j) {
			if f == run {
				return true
			}
		}
	}
	return false
}

// ranFile returns the file invocation i runs as a program or a script
// (a shell's or an interpreter's first operand), cleaned, or "".
func ranFile(sc *scan, i int) string {
	inv := &sc.res.Invocations[i]
	name := sc.name(i)
	// Run by its path (./x.sh): a name without a slash is looked up in
	// PATH, not in the current folder.
	if len(inv.Args) > 0 && !inv.Args[0].Dynamic && strings.Contains(inv.Args[0].Value, "/") {
		return cleanFile(inv.Args[0].Value)
	}
	p := programs.Lookup(name)
	if p == nil || !p.Has(programs.Shell) && !p.Has(programs.StdinProgram) {
		return ""
	}
	a := sc.argv(i)
	if len(a.pos) == 0 || a.hasFlag("-c") || a.hasFlag("-e") || a.hasFlag("-m") {
		return ""
	}
	return cleanFile(a.pos[0])
}

// downloadedFiles returns the files download invocation j writes.
func downloadedFiles(sc *scan, j int) []string {
	var out []string
	for _, f := range writtenPaths(sc, j, nil) {
		out = append(out, cleanFile(f))
	}
	a := sc.argv(j)
	name := sc.name(j)
	remoteName := name == "curl" && (a.hasFlag("-O") || a.hasFlag("--remote-name") || a.hasFlag("--remote-name-all")) ||
		strings.HasPrefix(name, "wget") && !a.hasFlag("-O") && !a.hasFlag("--output-document")
	if remoteName {
		for _, u := range a.pos {
			if i := strings.Index(u, "://"); i > 0 {
				u = u[i+3:]
				u, _, _ = strings.Cut(u, "?")
				if k := strings.LastIndexByte(u, '/'); k >= 0 && k < len(u)-1 {
					out = append(out, cleanFile(u[k+1:]))
				}
			}
		}
	}
	return out
}

// cleanFile is a file name as two words naming it compare: ./x.sh is x.sh.
func cleanFile(f string) string {
	if f == "" {
		return ""
	}
	return path.Clean(f)
}

// checkHiddenTempProgram: the program run is in a hidden folder, or is a
// hidden file, right in a temporary directory (/tmp/.x/run.sh,
// /dev/shm/.k): where intruders keep what they drop.
func checkHiddenTempProgram(sc *scan, i int) bool {
	inv := &sc.res.Invocations[i]
	if len(inv.Args) == 0 || inv.Args[0].Dynamic {
		return false
	}
	p := cleanFile(inv.Args[0].Value)
	for _, dir := range []string{"/tmp/", "/var/tmp/", "/dev/shm/"} {
		if rest, ok := strings.CutPrefix(p, dir); ok {
			return strings.HasPrefix(rest, ".")
		}
	}
	return false
}

// checkRemoteRunnerSource: a package runner is told to fetch what it runs
// from a git repository or a URL (uvx --from git+URL, pipx run --spec URL,
// npx github:USER/REPO, npx USER/REPO). The runner's own argv is read:
// the detector sees the program it runs under the runner's name.
func checkRemoteRunnerSource(sc *scan, i int) bool {
	args := sc.res.Invocations[i].Args
	if len(args) < 2 || args[0].Dynamic {
		return false
	}
	remote := func(v string) bool {
		for _, p := range []string{"git+", "git://", "ssh://", "http://", "https://", "github:", "gitlab:", "bitbucket:", "gist:"} {
			if strings.HasPrefix(v, p) {
				return true
			}
		}
		return false
	}
	words := args[1:]
	switch progName(baseName(args[0].Value)) {
	case "pnpm", "yarn":
		if words[0].Value != "dlx" {
			return false
		}
		words = words[1:]
		fallthrough
	case "npx", "bunx", "pnpx":
		for k, a := range words {
			v := a.Value
			if a.Dynamic || v == "--" {
				return false
			}
			if strings.HasPrefix(v, "--package=") || strings.HasPrefix(v, "-p=") {
				if remote(v[strings.IndexByte(v, '=')+1:]) {
					return true
				}
				continue
			}
			if (v == "--package" || v == "-p") && k+1 < len(words) {
				if remote(words[k+1].Value) {
					return true
				}
				continue
			}
			if strings.HasPrefix(v, "-") {
				continue
			}
			// The package: a URL, or USER/REPO (GitHub's shorthand; a
			// scoped package starts with @, a local one with . or /).
			if remote(v) {
				return true
			}
			user, repo, ok := strings.Cut(v, "/")
			return ok && user != "" && repo != "" && !strings.ContainsAny(user, "@.~$") && !strings.Contains(repo, "/")
		}
	case "uvx", "uv", "pipx":
		for k, a := range words {
			name, val, eq := strings.Cut(a.Value, "=")
			switch name {
			case "--from", "--with", "--spec":
				if !eq && k+1 < len(words) {
					val = words[k+1].Value
				}
				if remote(val) {
					return true
				}
			}
		}
	}
	return false
}

// checkRemoteProgramOnRoot: a package runner fetches a program shellguard
// does not read (go run MODULE@VERSION, npx PACKAGE, uvx TOOL) and hands
// it the root, a home or every user's homes as an operand. What the
// program does there cannot be known; aimed at everything, it is asked
// about. A program the detector reads (npx rimraf ~ is rimraf ~) gets its
// own rules' level instead.
func checkRemoteProgramOnRoot(sc *scan, i int) bool {
	v := &sc.invs[i]
	if !v.fetched || v.prog != nil || sc.reg.namesProgram(v.name) {
		return false
	}
	for _, a := range v.args[1:] {
		if !a.Dynamic && wholeTree(a.Value) {
			return true
		}
	}
	return false
}

// wholeTree reports an operand that names the whole file system, a home
// or the homes.
func wholeTree(v string) bool {
	switch cleanOperand(v) {
	case "/", "/*", "~", "~/*", "$HOME", "$HOME/*", "$USERPROFILE", "/home", "/Users", "/root":
		return true
	}
	return false
}
