package reprefix

import (
	"regexp/syntax"
	"unicode"
	"unicode/utf8"
)

// byteSet is a set of bytes.
type byteSet = [4]uint64

func add(b *byteSet, c byte) { b[c>>6] |= 1 << (c & 63) }
func addRange(b *byteSet, lo, hi byte) {
	for c := int(lo); c <= int(hi); c++ {
		add(b, byte(c))
	}
}

// First returns, as a 256-bit set, the bytes a non-empty match of an anchored
// expression can start with, so that a string starting with another byte
// is rejected without running the expression (most rules' expressions
// start with a literal: /etc/, ~, $HOME, a program word). ok is false when
// the expression can match the empty string or start with any byte (the
// filter would not help, or would be wrong).
func First(source string) (set [4]uint64, ok bool) {
	re, err := syntax.Parse(source, syntax.Perl)
	if err != nil {
		return set, false
	}
	var b byteSet
	nullable, known := first(re.Simplify(), &b)
	if nullable || !known {
		return set, false
	}
	return b, true
}

// first adds to b the bytes a match of re can start with; nullable
// reports that re can match the empty string; known is false when any
// byte can start it.
func first(re *syntax.Regexp, b *byteSet) (nullable, known bool) {
	switch re.Op {
	case syntax.OpEmptyMatch, syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText, syntax.OpEndText,
		syntax.OpWordBoundary, syntax.OpNoWordBoundary:
		return true, true
	case syntax.OpLiteral:
		if len(re.Rune) == 0 {
			return true, true
		}
		addRune(b, re.Rune[0], re.Flags&syntax.FoldCase != 0)
		return false, true
	case syntax.OpCharClass:
		for k := 0; k+1 < len(re.Rune); k += 2 {
			lo, hi := re.Rune[k], re.Rune[k+1]
			if hi >= utf8.RuneSelf {
				// Multi-byte runes start with a byte >= 0xC0 (and 0x80
				// for invalid UTF-8, which the regexp reads as U+FFFD).
				addRange(b, 0x80, 0xFF)
				hi = utf8.RuneSelf - 1
			}
			if lo < utf8.RuneSelf {
				addRange(b, byte(lo), byte(hi))
			}
		}
		return false, true
	case syntax.OpAnyChar, syntax.OpAnyCharNotNL:
		return false, false
	case syntax.OpCapture:
		return first(re.Sub[0], b)
	case syntax.OpStar, syntax.OpQuest:
		_, known := first(re.Sub[0], b)
		return true, known
	case syntax.OpPlus:
		return first(re.Sub[0], b)
	case syntax.OpRepeat:
		n, known := first(re.Sub[0], b)
		return n || re.Min == 0, known
	case syntax.OpConcat:
		for _, sub := range re.Sub {
			n, known := first(sub, b)
			if !known {
				return false, false
			}
			if !n {
				return false, true
			}
		}
		return true, true
	case syntax.OpAlternate:
		nullable := false
		for _, sub := range re.Sub {
			n, known := first(sub, b)
			if !known {
				return false, false
			}
			nullable = nullable || n
		}
		return nullable, true
	}
	return false, false
}

// addRune adds the first byte of r's UTF-8 encoding (and of its other
// cases when fold is set).
func addRune(b *byteSet, r rune, fold bool) {
	add := func(r rune) {
		var buf [utf8.UTFMax]byte
		utf8.EncodeRune(buf[:], r)
		add(b, buf[0])
	}
	add(r)
	if r == utf8.RuneError {
		// Invalid UTF-8 reads as U+FFFD.
		addRange(b, 0x80, 0xFF)
	}
	if fold {
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			add(f)
		}
	}
}
