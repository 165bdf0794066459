package danger

// MustNewDetector is NewDetector that panics on error, for the tests'
// patterns, known to be valid.
func MustNewDetector(patterns []Pattern) *Detector {
	d, err := NewDetector(patterns)
	if err != nil {
		panic(err)
	}
	return d
}
