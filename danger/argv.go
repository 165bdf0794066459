package danger

import (
	"path"
	"strings"

	"github.com/shellguard/shellguard/internal/programs"
	"github.com/shellguard/shellguard/internal/textlex"
	"github.com/shellguard/shellguard/shellparse"
)

// argv is an invocation's arguments in canonical form, read with the
// program's option syntax (internal/programs): its positional words
// (operands, subcommand words first), its flags with their values, the
// subcommand path its data declares, and whether a dry-run flag makes it
// a dry run.
type argv struct {
	prog   *programs.Program
	pos    []string
	flags  []flag
	path   string
	dry    bool
	joined string
	// canon holds the canonical spellings of the first ncanon positional
	// words (canonAt), filled as rules ask for them.
	canon  [2]string
	ncanon int
}

// flag is one canonical option and its value.
type flag struct {
	name, value string
	has         bool
}

// hasFlag reports whether the canonical flag f is present; a trailing *
// in f matches any suffix ("--delete*").
func (a *argv) hasFlag(f string) bool {
	if strings.HasSuffix(f, "*") {
		p := f[:len(f)-1]
		for _, x := range a.flags {
			if strings.HasPrefix(x.name, p) {
				return true
			}
		}
		return false
	}
	for _, x := range a.flags {
		if x.name == f {
			return true
		}
	}
	return false
}

// valueMatch reports whether an option's value that names a file (a
// path: it holds a slash or starts with ~, $ or a dot) matches re, cleaned
// like an operand: a file given to an option (curl -T FILE, wget
// --post-file FILE) is read as much as an operand is.
func (a *argv) valueMatch(re *lazyRE) bool {
	for _, f := range a.flags {
		v := f.value
		if !f.has || v == "" || v[0] != '~' && v[0] != '$' && v[0] != '.' && strings.IndexByte(v, '/') < 0 {
			continue
		}
		if re.MatchString(cleanOperand(v)) {
			return true
		}
	}
	return false
}

// subMatch returns how many positional words the subcommand sub (words
// separated by single spaces) takes when the invocation starts with it,
// or -1.
func (a *argv) subMatch(sub string) int {
	k := 0
	for sub != "" {
		w, rest, _ := strings.Cut(sub, " ")
		if k >= len(a.pos) || !a.wordIs(k, w) {
			return -1
		}
		k++
		sub = rest
	}
	return k
}

// wordIs reports whether positional word k is the canonical subcommand
// word w: after the program's word aliases, in lower case; for a program
// that takes resource lists (kubectl delete pods,services), any of the
// list. A w of "*" matches any word, and a w ending in "*" any word that
// starts with the rest ("delete-*": aws's delete-bucket,
// delete-db-instance, ...).
func (a *argv) wordIs(k int, w string) bool {
	c := a.canonAt(k)
	if n := len(w) - 1; n >= 0 && w[n] == '*' {
		return strings.HasPrefix(c, w[:n])
	}
	if c == w {
		return true
	}
	if x := a.pos[k]; a.prog.Has(programs.ResourceWords) && strings.IndexByte(x, ',') > 0 {
		for _, e := range strings.Split(x, ",") {
			if a.prog.CanonicalWord(e) == w {
				return true
			}
		}
	}
	return false
}

// canonAt returns the canonical spelling of positional word k: every
// rule about a program with subcommands compares its first words, so each
// is spelled once.
func (a *argv) canonAt(k int) string {
	if k >= len(a.canon) {
		return a.prog.CanonicalWord(a.pos[k])
	}
	for a.ncanon <= k {
		a.canon[a.ncanon] = a.prog.CanonicalWord(a.pos[a.ncanon])
		a.ncanon++
	}
	return a.canon[k]
}

// progName is the name a program is matched by: the basename without a
// Windows directory or an .exe suffix, in lower case (a case-insensitive
// filesystem, as on macOS and Windows, runs GIT as git).
func progName(name string) string {
	plain := true
	for i := 0; i < len(name); i++ {
		c := name[i]
		if c == '\\' || c == '.' || c >= 'A' && c <= 'Z' || c >= 0x80 {
			plain = false
			break
		}
	}
	if plain {
		return name
	}
	if i := strings.LastIndexByte(name, '\\'); i >= 0 && i+1 < len(name) {
		name = name[i+1:]
	}
	if len(name) > 4 && strings.EqualFold(name[len(name)-4:], ".exe") {
		name = name[:len(name)-4]
	}
	return strings.ToLower(name)
}

// dashes are the Unicode hyphens and dashes that look like '-'.
func isLookalikeDash(r rune) bool {
	return r >= 0x2010 && r <= 0x2015 || r == 0x2212 || r == 0xFE58 || r == 0xFE63 || r == 0xFF0D
}

// normDashes turns a word's leading Unicode dashes into '-' ("‐‐hard" is
// "--hard", "–rf" is "-rf"): such a word is never harmless text to rely on.
func normDashes(v string) string {
	if len(v) < 3 || v[0] < 0xE2 {
		return v
	}
	i := 0
	var b strings.Builder
	for _, r := range v {
		if !isLookalikeDash(r) {
			break
		}
		b.WriteByte('-')
		i += len(string(r))
	}
	if i == 0 {
		return v
	}
	return b.String() + v[i:]
}

// argWords gives an argv to the option scanner: the words' values, with
// lookalike dashes read as '-' (a word starting with them is never
// harmless text to rely on), and which words are dynamic.
func argWords(args []shellparse.Arg) ([]string, []bool) {
	vals := make([]string, len(args))
	dyn := make([]bool, len(args))
	fillWords(args, vals, dyn)
	return vals, dyn
}

func fillWords(args []shellparse.Arg, vals []string, dyn []bool) {
	for k, a := range args {
		vals[k], dyn[k] = normDashes(a.Value), a.Dynamic
	}
}

// canonical computes into a the canonical argv of an invocation whose
// program is matched by the name prog (see progName), with its facts p
// (nil when the data has none), and whose argv is args. a.joined is left
// empty (see joinValues).
func canonical(a *argv, p *programs.Program, prog string, args []shellparse.Arg, scr *scratch) {
	*a = argv{}
	if len(args) > 0 {
		args = args[1:]
	}
	sub := ""
	if p == nil {
		// git-reset is git reset.
		if parent, rest, ok := dashSubcommand(prog); ok {
			p, sub = parent, rest
		}
	}
	a.prog = p
	// One piece of scratch holds the positional words; operands never
	// outnumber args (a kubectl TYPE/NAME is two, and append moves
	// them out should they).
	if n := len(args); n > 0 || sub != "" {
		a.pos = scr.take(n + 1)[:0]
		a.flags = scr.takeFlags(2 * n)[:0]
	}
	if sub != "" {
		a.pos = append(a.pos, sub)
	}
	if p != nil && p.Extract == "find" {
		findCanonical(args, a)
		return
	}
	vals, dyn := scr.take(len(args)), scr.takeBools(len(args))
	fillWords(args, vals, dyn)
	s := programs.NewScanner(p, vals, dyn, sub)
	for {
		it, ok := s.Next()
		if !ok {
			break
		}
		switch it.Kind {
		case programs.EndOfOptions:
			// Recorded as a flag: git checkout -- FILE names files.
			a.flags = append(a.flags, flag{name: "--"})
		case programs.Operand:
			if it.Dynamic {
				a.pos = append(a.pos, dynShape(args[it.Word].Raw))
				continue
			}
			v := cleanOperand(it.Value)
			if p.Has(programs.ResourceWords) && len(a.pos) > 0 {
				if typ, name, ok := resourceWord(v); ok {
					a.pos = append(a.pos, typ, name)
					continue
				}
			}
			a.pos = append(a.pos, v)
		case programs.Option:
			a.flags = append(a.flags, flag{name: p.CanonicalFlag(it.Name), value: it.Value, has: it.HasValue})
		}
	}
	a.path = s.Path()
	if p.HasDryRun() {
		for _, f := range a.flags {
			if p.DryRun(a.path, f.name, f.value, f.has) {
				a.dry = true
				break
			}
		}
	}
}

// dashSubcommand reads PROGRAM-SUB as PROGRAM SUB when the data says the
// program runs its subcommands so (git-reset).
func dashSubcommand(name string) (*programs.Program, string, bool) {
	i := strings.IndexByte(name, '-')
	if i <= 0 || i+1 >= len(name) {
		return nil, "", false
	}
	p := programs.Lookup(name[:i])
	if !p.Has(programs.DashSubcommands) {
		return nil, "", false
	}
	return p, name[i+1:], true
}

// resourceWord splits kubectl's TYPE/NAME (namespace/foo,
// deployment.apps/web) into its two words.
func resourceWord(v string) (typ, name string, ok bool) {
	sl := strings.IndexByte(v, '/')
	if sl <= 0 || sl+1 >= len(v) || strings.IndexByte(v[sl+1:], '/') >= 0 {
		return "", "", false
	}
	for i := 0; i < sl; i++ {
		c := v[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && (c >= '0' && c <= '9' || c == '.' || c == '-')) {
			return "", "", false
		}
	}
	return v[:sl], v[sl+1:], true
}

// joinValues joins the values of argv after the program by single spaces.
func joinValues(args []shellparse.Arg) string {
	if len(args) < 2 {
		return ""
	}
	args = args[1:]
	if len(args) == 1 {
		return args[0].Value
	}
	n := len(args) - 1
	for _, x := range args {
		n += len(x.Value)
	}
	var b strings.Builder
	b.Grow(n)
	for i, x := range args {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(x.Value)
	}
	return b.String()
}

// findCanonical rewrites find's argv: operands are the starting points
// (before the first expression word), and -exec/-execdir/-ok/-okdir also
// appear as "-exec=PROGRAM".
func findCanonical(args []shellparse.Arg, a *argv) {
	starts := true
	// Options before the starting points (GNU find -H, -L, -P, -D
	// DEBUGOPTS, -OLEVEL; BSD find -E, -X, -d, -s, -x, -f PATH), and "--".
	i := 0
lead:
	for i < len(args) && !args[i].Dynamic {
		switch v := args[i].Value; v {
		case "-H", "-L", "-P", "-E", "-X", "-d", "-s", "-x":
			a.flags = append(a.flags, flag{name: v})
			i++
		case "-D":
			i += 2
		case "-f":
			// BSD: -f PATH is a starting point.
			if i+1 < len(args) {
				a.pos = append(a.pos, startOperand(args[i+1]))
			}
			i += 2
		case "--":
			i++
			break lead
		default:
			if len(v) > 2 && strings.HasPrefix(v, "-O") && textlex.IsDigits(v[2:]) {
				i++
				continue
			}
			break lead
		}
	}
	for ; i < len(args); i++ {
		x := args[i]
		v := x.Value
		if starts && !x.Dynamic && (strings.HasPrefix(v, "-") || v == "(" || v == "!") {
			starts = false
		}
		if starts {
			a.pos = append(a.pos, startOperand(x))
			continue
		}
		if !strings.HasPrefix(v, "-") {
			continue
		}
		a.flags = append(a.flags, flag{name: v})
		switch v {
		case "-exec", "-execdir", "-ok", "-okdir":
			if i+1 < len(args) {
				p := args[i+1].Value
				if args[i+1].Dynamic {
					p = "$"
				}
				a.flags = append(a.flags, flag{name: v + "=" + progName(path.Base(p))})
			}
		}
	}
	if starts && len(a.pos) == 0 {
		a.pos = append(a.pos, ".")
	}
}

// startOperand is a starting point of find as the rules compare it.
func startOperand(x shellparse.Arg) string {
	if x.Dynamic {
		return dynShape(x.Raw)
	}
	return cleanOperand(x.Value)
}

// trimmedVar returns NAME for a word that is only ${NAME%...} or
// ${NAME%%...} (its value with a suffix removed: the folder or one above
// it), or ${NAME:-...}, ${NAME-...}, ${NAME:?...} (its value when set),
// quoted or not.
func trimmedVar(s string) (string, bool) {
	s = strings.TrimSuffix(strings.TrimPrefix(s, `"`), `"`)
	rest, ok := strings.CutPrefix(s, "${")
	if !ok || !strings.HasSuffix(rest, "}") || strings.ContainsAny(rest, "{$`\"") {
		return "", false
	}
	rest = rest[:len(rest)-1]
	n := 0
	for n < len(rest) && (rest[n] == '_' || rest[n] >= 'A' && rest[n] <= 'Z' || rest[n] >= 'a' && rest[n] <= 'z' || n > 0 && rest[n] >= '0' && rest[n] <= '9') {
		n++
	}
	if n == 0 || n == len(rest) {
		return "", false
	}
	switch op := rest[n:]; {
	case op[0] == '%', strings.HasPrefix(op, ":-"), strings.HasPrefix(op, ":?"), op[0] == '-', op[0] == '?':
		return rest[:n], true
	}
	return "", false
}

// cleanOperand cleans path-like operands: "/etc/" -> "/etc", "//" -> "/",
// "~/" -> "~", "/./*" -> "/*", "/tmp/../.." -> "/", ten "../" -> "/".
func cleanOperand(v string) string { return shellparse.CleanPath(v) }

// dynShape is how a dynamic word is compared: as written, without quotes
// or the braces of ${...}, and cleaned like a path.
func dynShape(raw string) string {
	s := raw
	if v, ok := trimmedVar(s); ok {
		// ${HOME%/}, ${HOME%/*}, "${HOME:-/root}": the variable, or a
		// folder above it.
		return "$" + v
	}
	if strings.ContainsAny(s, `"{}`) {
		s = strings.Map(func(r rune) rune {
			if r == '"' || r == '{' || r == '}' {
				return -1
			}
			return r
		}, s)
	}
	if strings.HasPrefix(s, "$") && strings.Contains(s, "/") {
		head, tail, _ := strings.Cut(s, "/")
		// Cleaned relative to the variable, so that climbing out of it
		// stays visible: "$TMPDIR/../etc" is "$TMPDIR/../etc".
		c := path.Clean(tail)
		if c == "." {
			return head
		}
		return head + "/" + c
	}
	return s
}

// scannerFor returns the option scanner of args (the words after the
// program) for the program p, with dynamic words always operands.
func scannerFor(p *programs.Program, args []shellparse.Arg, sub string) programs.Scanner {
	vals, dyn := argWords(args)
	return programs.NewScanner(p, vals, dyn, sub)
}
