package approval

import "strings"

// MatchResult says whether approval entries cover a command line.
type MatchResult struct {
	// Approved reports that the entries cover the whole line.
	Approved bool
	// By holds, per invocation of the Classification, the entry that
	// covers it (a copy), or nil for an invocation no entry covers. An
	// exact entry covers every invocation of its line.
	By []*Entry
}

// Match answers whether entries approve the classified line c, and by
// which entry each invocation is covered; when several entries would, the
// first that has not expired does.
//
// An Exact entry approves the line when its Pattern equals the line with
// surrounding white space removed, and the line parsed completely. It
// covers widening options, substitutions and redirections, because the
// person saw and approved that very text; it does not cover a line that did
// not parse, whose meaning is unknown.
//
// Otherwise the line is approved only when it is Approvable (see
// Classification) and every invocation is covered by a Prefix entry whose
// Pattern equals the invocation's Prefix exactly ("git checkout" covers
// "git checkout -b x", never "sudo git checkout" nor "git commit"; "git"
// does not cover "git status", whose prefix is "git status"). Entries of
// other kinds, and expired entries, are ignored. Danger is not considered here: the policy
// layer refuses dangerous commands whatever their approvals.
//
// Match indexes entries on each call: a caller that matches many lines
// against the same entries builds an Index once (see MatchIndexes).
func Match(c Classification, entries []Entry) MatchResult {
	return MatchIndexes(c, NewIndex(entries))
}

// PrefixEntries returns the Prefix entries that approving c by prefix
// records: one per distinct invocation prefix, in order. It returns nil
// when c is not Approvable (a prefix approval could not cover it).
func PrefixEntries(c Classification) []Entry {
	if !c.Approvable {
		return nil
	}
	var out []Entry
	seen := map[string]bool{}
	for _, ic := range c.Invocations {
		if ic.Prefix == "" || seen[ic.Prefix] {
			continue
		}
		seen[ic.Prefix] = true
		out = append(out, Entry{Kind: Prefix, Pattern: ic.Prefix, Command: strings.TrimSpace(c.Command)})
	}
	return out
}
