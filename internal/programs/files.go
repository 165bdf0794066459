package programs

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
