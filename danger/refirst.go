package danger

import "github.com/shellguard/shellguard/danger/internal/reprefix"

// byteSet is a set of bytes (reprefix.First's).
type byteSet [256 / 64]uint64

func (b *byteSet) has(c byte) bool { return b[c>>6]&(1<<(c&63)) != 0 }
func (b *byteSet) add(c byte)      { b[c>>6] |= 1 << (c & 63) }

// firstBytes returns the bytes a non-empty match of an anchored
// expression can start with (reprefix.First), or ok false when there is
// no such filter.
func firstBytes(source string) (set byteSet, ok bool) {
	b, ok := reprefix.First(source)
	return byteSet(b), ok
}
