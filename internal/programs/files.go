package programs

// Files says which of a read-only program's words name files it reads and
// how it walks folders: policy's read-only scope checks those files
// against the request's root. Options that take a value are the
// program's values; what the data cannot describe (cd's operand, jq's
// modules, git's REV:PATH, find's paths before its expression) is code
// in policy.
type Files struct {
	// None: its arguments never name a file it reads (echo, test -f looks
	// a path up but reads nothing).
	None bool
	// Lists are options whose value is a file that lists more files to
	// read (sort --files0-from=LIST): what those are cannot be known.
	Lists List
	// Walks: it walks every folder it is given (rg, find, du, tree).
	Walks bool
	// WalkFlags are options that make it walk the folders it is given
	// (grep -r, ls -R, diff -r).
	WalkFlags List
	// WalkValues are options whose value makes it walk, packed as
	// Aliases ("-d\x01recurse": grep -d recurse).
	WalkValues Aliases
	// Dot says when it reads the current folder given no path operand.
	Dot Dot
	// Pattern: its first operand is a pattern or a filter, not a file
	// (grep PATTERN FILE, jq FILTER FILE), unless one of PatternUnless
	// gives it (grep -e PATTERN, jq -f FILE).
	Pattern       bool
	PatternUnless List
	// PatternOptions are options whose value is a pattern, not a file
	// (grep -e, --regexp); a short one may end a cluster of the program's
	// one-letter options (grep -ie PATTERN).
	PatternOptions List
}

// Dot says when a program reads the current folder given no path.
type Dot uint8

const (
	// DotNever: given no path it reads its standard input, or nothing.
	DotNever Dot = iota
	// DotAlways: ls, rg, du and tree read "." given no path.
	DotAlways
	// DotWalking: only when it walks (grep -r PATTERN reads ".").
	DotWalking
)

// ReadFiles returns what the program called name says about the files
// its words name (see Files), or nil when the data says nothing.
func ReadFiles(name string) *Files {
	if p := Lookup(name); p != nil {
		return p.Files
	}
	return nil
}

// Walking reports whether f's program walks the folders it is given,
// with these arguments (the words after the program): always, or given
// one of its walk flags or walk values. flagged reports whether the
// arguments hold an option (in a cluster, or abbreviated); value returns
// an option's value, or "".
func (f *Files) Walking(flagged func(opts ...string) bool, value func(opt string) string) bool {
	if f == nil {
		return false
	}
	if f.Walks || f.WalkFlags != "" && flagged(f.WalkFlags.Words()...) {
		return true
	}
	return List(f.WalkValues).Each(func(e string) bool {
		for i := 0; i < len(e); i++ {
			if e[i] == 1 {
				return value(e[:i]) == e[i+1:]
			}
		}
		return false
	})
}
