package approval

import (
	"strings"
	"time"
)

// Index holds approval entries for matching: Match over an Index costs the
// same whatever the number of entries (two map look-ups per invocation),
// where Match over a slice reads every entry for every invocation. An
// Index is immutable and safe for concurrent use.
type Index struct {
	// exact maps a line (white space trimmed) to the first Exact entry
	// for it; prefix maps a prefix to the first Prefix entry.
	exact  map[string]Entry
	prefix map[string]Entry
	n      int
}

// NewIndex indexes entries. When several entries have the same kind and
// pattern the first wins, as in Match.
func NewIndex(entries []Entry) *Index {
	ix := &Index{n: len(entries)}
	for _, e := range entries {
		key := strings.TrimSpace(e.Pattern)
		var m *map[string]Entry
		switch e.Kind {
		case Exact:
			m = &ix.exact
		case Prefix:
			m = &ix.prefix
		default:
			continue
		}
		if *m == nil {
			*m = make(map[string]Entry)
		}
		if _, dup := (*m)[key]; !dup {
			(*m)[key] = e
		}
	}
	return ix
}

// Len returns the number of entries indexed.
func (ix *Index) Len() int {
	if ix == nil {
		return 0
	}
	return ix.n
}

// IndexedMatch is what MatchIndexes found: Match's result, and the entry
// behind each invocation's approval.
type IndexedMatch struct {
	MatchResult
	// Entries holds, per invocation, the entry that covers it (its
	// Display is By[i]); the zero Entry where none does.
	Entries []Entry
}

// MatchIndexes answers what Match would for the entries of every index in
// turn (the first index's entries first), in time independent of their
// number. A nil index holds nothing. An entry that has expired (see
// Entry.Expired) approves nothing, whenever the index was built.
func MatchIndexes(c Classification, ixs ...*Index) IndexedMatch {
	res := IndexedMatch{
		MatchResult: MatchResult{By: make([]string, len(c.Invocations))},
		Entries:     make([]Entry, len(c.Invocations)),
	}
	if c.Parsed {
		if line := strings.TrimSpace(c.Command); line != "" {
			for _, ix := range ixs {
				if ix == nil {
					continue
				}
				if e, ok := ix.exact[line]; ok && live(e) {
					d := e.Display()
					for i := range res.By {
						res.By[i], res.Entries[i] = d, e
					}
					res.Approved = len(c.Invocations) > 0
					return res
				}
			}
		}
	}
	all := len(c.Invocations) > 0
	for i, ic := range c.Invocations {
		if ic.Covered() {
			for _, ix := range ixs {
				if ix == nil {
					continue
				}
				if e, ok := ix.prefix[ic.Prefix]; ok && live(e) {
					res.By[i], res.Entries[i] = e.Display(), e
					break
				}
			}
		}
		if res.By[i] == "" {
			all = false
		}
	}
	res.Approved = all && c.Approvable
	return res
}

// live reports whether e may approve now: it has no expiry, or has not
// reached it.
func live(e Entry) bool { return e.Expires.IsZero() || !e.Expired(time.Now()) }
