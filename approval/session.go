package approval

import "sync"

// SessionStore holds the approvals of one session in memory. It is safe for
// concurrent use. There is no package-level session: each owner (an agent
// session, a TUI, an MCP connection) creates its own with NewSessionStore.
type SessionStore struct {
	mu      sync.RWMutex
	entries []Entry
	index   *Index // of entries, built on demand; nil after a change
}

// NewSessionStore returns an empty session store.
func NewSessionStore() *SessionStore { return &SessionStore{} }

// Add records e (with its Scope set to Session). Adding an entry that is
// already present (same Kind and Pattern) is a no-op.
func (s *SessionStore) Add(e Entry) {
	e.Scope = Session
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, x := range s.entries {
		if x.Kind == e.Kind && x.Pattern == e.Pattern {
			return
		}
	}
	s.entries = append(s.entries, e)
	s.index = nil
}

// Remove deletes the entry with that kind and pattern and reports whether
// one was present.
func (s *SessionStore) Remove(kind Kind, pattern string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, x := range s.entries {
		if x.Kind == kind && x.Pattern == pattern {
			s.entries = append(s.entries[:i:i], s.entries[i+1:]...)
			s.index = nil
			return true
		}
	}
	return false
}

// Entries returns a copy of the entries, in the order they were added.
func (s *SessionStore) Entries() []Entry {
	if s == nil {
		return nil
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	return append([]Entry(nil), s.entries...)
}

// Index returns the entries indexed for MatchIndexes (nil for a nil or
// empty store). The Index is built once per change of the store.
func (s *SessionStore) Index() *Index {
	if s == nil {
		return nil
	}
	s.mu.RLock()
	ix, n := s.index, len(s.entries)
	s.mu.RUnlock()
	if ix != nil || n == 0 {
		return ix
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.index == nil && len(s.entries) > 0 {
		s.index = NewIndex(s.entries)
	}
	return s.index
}
