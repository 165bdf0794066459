package programs

import (
	"strings"

	"github.com/shellguard/shellguard/internal/textlex"
)

// Kind says what a scanned item is.
type Kind uint8

// The kinds of Item.
const (
	// Option: an option, with its value when it takes one.
	Option Kind = iota + 1
	// Operand: a word that is not an option (nor an option's value).
	Operand
	// EndOfOptions: "--"; every word after it is an operand.
	EndOfOptions
)

// Item is one option or operand of an argv.
type Item struct {
	Kind Kind
	// Name is the option as written, one per letter of a cluster ("-r"
	// and "-f" for "-rf"), without "=value"; "" for operands.
	Name string
	// Value is the option's value or the operand.
	Value    string
	HasValue bool
	// Word is the index of the word the item comes from.
	Word int
	// Dynamic: the operand is decided when the line runs.
	Dynamic bool
	// Before: the option comes before the first operand (for a program
	// with subcommands, before the subcommand).
	Before bool
	// Sub: the operand is a subcommand word the data declares.
	Sub bool
}

// Scanner reads an argv the way a program reads it: options (clusters
// split, values taken from the rest of the cluster or the next word as
// the program's data says), operands and "--". It also follows the
// program's subcommands, whose options may take values of their own. A
// nil program reads every cluster as one-letter options that take no
// value.
type Scanner struct {
	p     *Program
	args  []string
	dyn   []bool // dyn[i]: args[i] is decided when the line runs
	i     int    // next word
	j     int    // next letter of a cluster in word i-1, or 0
	end   bool
	nops  int // operands seen
	path  string
	node  *Node // deepest declared node along path (nil: the root)
	track bool  // still following subcommand words
}

// NewScanner returns a scanner of args (the words after the program) for
// the program p (which may be nil). dyn, when not nil, marks the words
// decided when the line runs: they are always operands. sub holds
// subcommand words already given (git-reset is git with "reset"), or "".
func NewScanner(p *Program, args []string, dyn []bool, sub string) Scanner {
	s := Scanner{p: p, args: args, dyn: dyn, track: p.Has(Subcommands)}
	if sub != "" && s.track {
		s.advance(sub)
		s.nops = 1
	}
	return s
}

// Path returns the subcommand words followed so far, joined by single
// spaces, as far as the program's data declares them.
func (s *Scanner) Path() string { return s.path }

// Node returns the deepest node of the program's data along the words
// followed so far (the program's root when none).
func (s *Scanner) Node() *Node {
	if s.node != nil {
		return s.node
	}
	if s.p == nil {
		return nil
	}
	return &s.p.Root
}

// advance follows the subcommand word w when the data declares a node for
// the longer path (or one below it), and reports whether it did.
func (s *Scanner) advance(w string) bool {
	w = s.p.CanonicalWord(w)
	path := w
	if s.path != "" {
		path = s.path + " " + w
	}
	// Subs are sorted by Path: path's own node, if declared, comes
	// first among those it prefixes, and its descendants ("path ...")
	// right after it.
	subs := s.p.Subs
	i := s.p.seek(path)
	found := false
	if i < len(subs) && subs[i].Path == path {
		s.node = &subs[i]
		found = true
		i++
	}
	if i < len(subs) {
		q := subs[i].Path
		found = found || len(q) > len(path) && q[len(path)] == ' ' && q[:len(path)] == path
	}
	if !found {
		s.track = false
		return false
	}
	s.path = path
	return true
}

// Next returns the next item; ok is false at the end.
func (s *Scanner) Next() (it Item, ok bool) {
	if s.j > 0 {
		k := s.i - 1
		return s.letter(k, s.args[k]), true
	}
	if s.i >= len(s.args) {
		return Item{}, false
	}
	k := s.i
	s.i++
	v := s.args[k]
	dyn := s.dyn != nil && s.dyn[k]
	if !dyn && !s.end && k == 0 && s.p.Has(OldStyle) && len(v) > 0 && v[0] != '-' {
		// tar xzf ARCHIVE: the first word is a cluster.
		s.j = 0
		return s.letter(k, v), true
	}
	if dyn || s.end || len(v) < 2 || v[0] != '-' {
		sub := s.track && !dyn && !s.end && s.advance(v)
		if s.p.Has(Posix) {
			s.end = true
		}
		s.nops++
		return Item{Kind: Operand, Value: v, Word: k, Dynamic: dyn, Sub: sub}, true
	}
	if v == "--" {
		if s.track && s.nops == 0 && s.path == "" {
			// git -- reset --hard: "--" before the subcommand ends the
			// program's own options; the subcommand reads its own.
			return s.Next()
		}
		s.end = true
		s.track = false
		return Item{Kind: EndOfOptions, Word: k}, true
	}
	before := s.nops == 0
	if strings.HasPrefix(v, "--") || s.p.Has(NoCluster) || isDigits(v[1:]) || s.p.singleDash(v) {
		name, val, eq := strings.Cut(v, "=")
		switch {
		case s.p.Has(NoCluster) && len(name) > 3 && name[1] == '-':
			// Programs that read single-dash words whole read --x as -x
			// (Go's flag package): their data spells options -x.
			name = name[1:]
		case s.p.Has(FoldCase) && strings.HasPrefix(name, "--"):
			name = lower(name)
		}
		it = Item{Kind: Option, Name: name, Value: val, HasValue: eq, Word: k, Before: before}
		if !eq && s.i < len(s.args) && s.takesValue(name, before) {
			it.Value, it.HasValue = s.args[s.i], true
			s.i++
		}
		return it, true
	}
	s.j = 1
	return s.letter(k, v), true
}

// letter reads the option at byte s.j of the cluster v (word k).
func (s *Scanner) letter(k int, v string) Item {
	before := s.nops == 0
	c := v[s.j]
	name := shortOption(c)
	s.j++
	it := Item{Kind: Option, Name: name, Word: k, Before: before}
	rest := v[s.j:]
	switch {
	case s.takesValue(name, before):
		if rest != "" {
			it.Value, it.HasValue = rest, true
		} else if s.i < len(s.args) {
			it.Value, it.HasValue = s.args[s.i], true
			s.i++
		}
		s.j = 0
	case s.p.optional().Has(name):
		if rest != "" {
			it.Value, it.HasValue = rest, true
		}
		s.j = 0
	case s.p.numeric().Has(name):
		n := 0
		for n < len(rest) && rest[n] >= '0' && rest[n] <= '9' {
			n++
		}
		if n > 0 {
			it.Value, it.HasValue = rest[:n], true
			s.j += n
		}
	}
	if s.j >= len(v) {
		s.j = 0
	}
	return it
}

// takesValue reports whether the option name takes a value here: a
// global before the first operand, a value of the program anywhere, or a
// value of a node along the subcommand path.
func (s *Scanner) takesValue(name string, before bool) bool {
	p := s.p
	if p == nil {
		return false
	}
	if before && p.hasOpt(p.Globals, name) {
		return true
	}
	if p.hasOpt(p.Root.Values, name) {
		return true
	}
	if s.path == "" {
		return false
	}
	for n, end := p.nextAlong(s.path, 0); n != nil; n, end = p.nextAlong(s.path, end) {
		if p.hasOpt(n.Values, name) {
			return true
		}
	}
	return false
}

// hasOpt reports whether name is in list (a NoCluster program's data
// spells its options with one dash, and the scanner reads --x as -x).
func (p *Program) hasOpt(list List, name string) bool { return list.Has(name) }

func (p *Program) singleDash(v string) bool {
	if p == nil || p.SingleDash == "" {
		return false
	}
	name, _, _ := strings.Cut(v, "=")
	return p.SingleDash.Has(name)
}

func (p *Program) optional() List {
	if p == nil {
		return ""
	}
	return p.Optional
}

func (p *Program) numeric() List {
	if p == nil {
		return ""
	}
	return p.Numeric
}

// CanonicalWord returns the canonical spelling of a subcommand word (in
// lower case, after the program's word aliases).
func (p *Program) CanonicalWord(w string) string {
	w = lower(w)
	if p == nil {
		return w
	}
	if to, ok := p.Words.Lookup(w); ok {
		return to
	}
	return w
}

// CanonicalFlag returns the canonical spelling of an option (after the
// program's aliases; long options in lower case for a FoldCase program).
func (p *Program) CanonicalFlag(f string) string {
	if p == nil {
		return f
	}
	if to, ok := p.Aliases.Lookup(f); ok {
		return to
	}
	return f
}

func lower(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 'A' && c <= 'Z' || c >= 0x80 {
			return strings.ToLower(s)
		}
	}
	return s
}

func isDigits(s string) bool { return textlex.IsDigits(s) }

// shortNames holds "-c" for every ASCII letter and digit c, so that
// splitting a cluster does not allocate a string per option.
const shortNames = "-a-b-c-d-e-f-g-h-i-j-k-l-m-n-o-p-q-r-s-t-u-v-w-x-y-z" +
	"-A-B-C-D-E-F-G-H-I-J-K-L-M-N-O-P-Q-R-S-T-U-V-W-X-Y-Z" +
	"-0-1-2-3-4-5-6-7-8-9"

// shortOption returns "-" followed by c.
func shortOption(c byte) string {
	var k int
	switch {
	case c >= 'a' && c <= 'z':
		k = int(c - 'a')
	case c >= 'A' && c <= 'Z':
		k = 26 + int(c-'A')
	case c >= '0' && c <= '9':
		k = 52 + int(c-'0')
	default:
		return "-" + string(c)
	}
	return shortNames[2*k : 2*k+2]
}
