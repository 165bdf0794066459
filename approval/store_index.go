package approval

import (
	"strings"
	"time"
)

// Index holds approval entries for matching: MatchIndexes costs the same
// whatever the number of entries (two map look-ups per invocation), where
// a scan would read every entry for every invocation. An Index is
// immutable and safe for concurrent use.
type Index struct {
	// exact maps a line (white space trimmed) to the Exact entries for
	// it, in order; prefix maps a prefix to its Prefix entries. All of
	// them are kept, not only the first: the first that has not expired
	// at match time approves.
	exact  map[string][]Entry
	prefix map[string][]Entry
	n      int
}

// NewIndex indexes entries. When several entries have the same kind and
// pattern, the first that has not expired approves, as in Match.
func NewIndex(entries []Entry) *Index {
	ix := &Index{n: len(entries)}
	for _, e := range entries {
		var m *map[string][]Entry
		switch e.Kind {
		case Exact:
			m = &ix.exact
		case Prefix:
			m = &ix.prefix
		default:
			continue
		}
		if *m == nil {
			*m = make(map[string][]Entry)
		}
		key := strings.TrimSpace(e.Pattern)
		(*m)[key] = append((*m)[key], e)
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

// MatchIndexes answers what Match would for the entries of every index in
// turn (the first index's entries first), in time independent of their
// number. A nil index holds nothing. An entry that has expired (see
// Entry.Expired) approves nothing, whenever the index was built.
func MatchIndexes(c Classification, ixs ...*Index) MatchResult {
	res := MatchResult{By: make([]*Entry, len(c.Invocations))}
	now := time.Now()
	if c.Parsed {
		if line := strings.TrimSpace(c.Command); line != "" {
			if e := lookup(ixs, Exact, line, now); e != nil {
				for i := range res.By {
					res.By[i] = e
				}
				res.Approved = len(c.Invocations) > 0
				return res
			}
		}
	}
	all := len(c.Invocations) > 0
	for i, ic := range c.Invocations {
		if ic.covered() {
			res.By[i] = lookup(ixs, Prefix, ic.Prefix, now)
		}
		all = all && res.By[i] != nil
	}
	res.Approved = all && c.Approvable
	return res
}

// lookup returns a copy of the first entry of kind k for key in ixs that
// has not expired at now, or nil.
func lookup(ixs []*Index, k Kind, key string, now time.Time) *Entry {
	for _, ix := range ixs {
		if ix == nil {
			continue
		}
		m := ix.prefix
		if k == Exact {
			m = ix.exact
		}
		for _, e := range m[key] {
			if !e.Expired(now) {
				return &e
			}
		}
	}
	return nil
}
