package approval

import (
	"strings"

	"github.com/shellguard/shellguard/internal/programs"
	"github.com/shellguard/shellguard/shellparse"
)

// The approval arity of each program (how many words, the program and its
// subcommands, make up its prefix) and the options whose value is not a
// subcommand are program facts: internal/programs/data (arity.toml holds
// every row of opencode's BashArity table and of the gaunt-sloth seed's,
// plus interpreters and a few subcommand groups).

// maxArityWords bounds the words looked up: the longest arity key has
// four, and a runner's prefix is its own words followed by the prefix of
// the program it runs (pnpm dlx prisma migrate reset), so a line with many
// operands costs no more than a short one.
const maxArityWords = 8

// maxRunnerDepth bounds how many runners deep (npx npx ...) a prefix
// follows.
const maxRunnerDepth = 3

// tokens are the meaningful tokens of an argv (see prefixTokens): word[:n]
// and, per token, whether it holds an unquoted pattern character.
type tokens struct {
	word [maxArityWords]string
	glob [maxArityWords]bool
	n    int
}

// key returns tokens [from, to) joined by single spaces, built in buf
// (the table lookups take string(key), which does not allocate for short
// keys).
func (t *tokens) key(buf []byte, from, to int) []byte {
	buf = buf[:0]
	for i, w := range t.word[from:to] {
		if i > 0 {
			buf = append(buf, ' ')
		}
		buf = append(buf, w...)
	}
	return buf
}

// prefixTokens returns the meaningful tokens of argv: the program and the
// subcommands its arity counts, flags (and the values of options the
// program data says take one) left out. The value of an option that names
// the program an interpreter runs stays (python -m venv env is "python
// venv"). A runner's prefix goes on with the prefix of the program it
// runs, by that program's own arity: npx prisma generate is "npx prisma
// generate", and does not approve npx prisma migrate reset.
func prefixTokens(name string, args []shellparse.Arg) (t tokens) {
	if len(args) == 0 {
		return t
	}
	appendPrefix(&t, name, name, args, 0)
	return t
}

// appendPrefix appends the prefix tokens of argv args (args[0] is the
// program, written as word and looked up as name) to t.
func appendPrefix(t *tokens, word, name string, args []shellparse.Arg, depth int) {
	base := t.n
	if base >= maxArityWords {
		return
	}
	var kb [64]byte
	var at [maxArityWords]int // the index in args of each token
	t.word[base], t.glob[base], at[0] = word, args[0].Glob, 0
	t.n = base + 1
	p := programs.Lookup(name)
	endOpts := false
	for i := 1; i < len(args); i++ {
		v := args[i].Value
		if !endOpts && strings.HasPrefix(v, "-") {
			if v == "--" {
				endOpts = true
				continue
			}
			if !strings.Contains(v, "=") && !p.IsScript(v) && p.TakesValueAt(string(t.key(kb[:], base+1, t.n)), v) {
				i++
			}
			continue
		}
		if t.n >= maxArityWords {
			// No arity key is longer: the rest cannot be in the prefix.
			break
		}
		t.word[t.n], t.glob[t.n], at[t.n-base] = v, args[i].Glob, i
		t.n++
	}
	words := t.n - base
	n := 1
	for l := words; l > 0; l-- {
		if a := p.ArityAt(string(t.key(kb[:], base+1, base+l))); a > 0 {
			n = min(a, words)
			break
		}
	}
	if depth < maxRunnerDepth && p.Has(programs.Runs) {
		// The runner's words (its subcommand up to the node that runs a
		// program), then the prefix of the program it runs.
		for l := 1; l < words; l++ {
			node := p.Node(string(t.key(kb[:], base+1, base+l)))
			if node == nil || node.Run == nil || node.Run.DashDash {
				continue
			}
			k := l + node.Run.Skip
			if k >= words {
				break
			}
			inner := t.word[base+k]
			if node.Run.Prefix != "" && !strings.HasPrefix(inner, node.Run.Prefix) ||
				node.Run.Versioned && strings.LastIndexByte(inner, '@') <= 0 {
				break
			}
			t.n = base + k
			appendPrefix(t, inner, programs.RunName(strings.TrimPrefix(inner, node.Run.Prefix)), args[at[k]:], depth+1)
			return
		}
	}
	t.n = base + n
}
