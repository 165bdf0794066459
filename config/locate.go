package config

import (
	"strconv"
	"strings"
)

// lineIndex maps a key path to the line (1-based) where it was written.
//
// Paths are written the way decode.go builds them: table keys joined by
// ".", array elements as "[i]": "rules.allow[2]", "pattern[0].regex",
// "builtin.git_push_force.level". The TOML library reports positions only
// for syntax errors and keeps a single position per key name (the last
// array-of-tables element wins), so the decoder locates keys itself with
// this small scanner. It runs on text the TOML parser has already
// accepted; on anything unexpected it stops early and the affected keys
// simply have no line. It never panics and runs in linear time.
type lineIndex map[string]int

// line returns the line of path, or of its nearest located parent, or 0.
func (ix lineIndex) line(path string) int {
	for path != "" {
		if n, ok := ix[path]; ok {
			return n
		}
		i := strings.LastIndexAny(path, ".[")
		if i < 0 {
			return 0
		}
		path = path[:i]
	}
	return 0
}

// joinPath appends a key to a path.
func joinPath(base, key string) string {
	if base == "" {
		return key
	}
	return base + "." + key
}

// indexPath appends an array index to a path.
func indexPath(base string, i int) string { return base + "[" + strconv.Itoa(i) + "]" }

type locator struct {
	src  string
	pos  int
	line int
	ix   lineIndex
	// aot counts the elements of each array of tables, by resolved path.
	aot map[string]int
}

// locate scans src and returns the line of every key, table and array
// element it finds.
func locate(src string) lineIndex {
	l := &locator{src: src, line: 1, ix: lineIndex{}, aot: map[string]int{}}
	l.document()
	return l.ix
}

func (l *locator) eof() bool { return l.pos >= len(l.src) }

func (l *locator) peek() byte {
	if l.eof() {
		return 0
	}
	return l.src[l.pos]
}

func (l *locator) advance() {
	if l.eof() {
		return
	}
	if l.src[l.pos] == '\n' {
		l.line++
	}
	l.pos++
}

func (l *locator) record(path string, line int) {
	if path == "" {
		return
	}
	if _, ok := l.ix[path]; !ok {
		l.ix[path] = line
	}
}

// skipSpace skips blanks, and newlines and comments when nl is set.
func (l *locator) skipSpace(nl bool) {
	for !l.eof() {
		switch c := l.peek(); {
		case c == ' ' || c == '\t' || c == '\r':
			l.advance()
		case c == '\n' && nl:
			l.advance()
		case c == '#':
			for !l.eof() && l.peek() != '\n' {
				l.advance()
			}
		default:
			return
		}
	}
}

func (l *locator) document() {
	table := ""
	for {
		l.skipSpace(true)
		if l.eof() {
			return
		}
		start := l.pos
		if l.peek() == '[' {
			table = l.header()
		} else {
			l.keyValue(table)
		}
		if l.pos == start { // no progress: give up rather than loop
			return
		}
	}
}

// header reads [a.b] or [[a.b]] and returns the resolved table path.
func (l *locator) header() string {
	line := l.line
	l.advance()
	array := l.peek() == '['
	if array {
		l.advance()
	}
	keys := l.key()
	l.skipSpace(false)
	for !l.eof() && l.peek() == ']' {
		l.advance()
	}
	path := ""
	for i, k := range keys {
		path = joinPath(path, k)
		last := i == len(keys)-1
		if last && array {
			n := l.aot[path]
			l.aot[path] = n + 1
			l.record(path, line)
			path = indexPath(path, n)
		} else if n := l.aot[path]; n > 0 {
			path = indexPath(path, n-1)
		}
		l.record(path, line)
	}
	return path
}

// key reads a possibly dotted, possibly quoted key.
func (l *locator) key() []string {
	var keys []string
	for {
		l.skipSpace(false)
		if l.eof() {
			return keys
		}
		switch c := l.peek(); {
		case c == '"' || c == '\'':
			keys = append(keys, l.quotedKey(c))
		case isBareKeyChar(c):
			start := l.pos
			for !l.eof() && isBareKeyChar(l.peek()) {
				l.advance()
			}
			keys = append(keys, l.src[start:l.pos])
		default:
			return keys
		}
		l.skipSpace(false)
		if l.peek() != '.' {
			return keys
		}
		l.advance()
	}
}

func isBareKeyChar(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-'
}

// quotedKey reads "..." or '...' and returns its (approximately) decoded
// text; escapes other than \" and \\ are kept as written, which only
// matters for keys nobody writes.
func (l *locator) quotedKey(q byte) string {
	l.advance()
	var b strings.Builder
	for !l.eof() {
		c := l.peek()
		if c == q {
			l.advance()
			break
		}
		if c == '\n' {
			break
		}
		if c == '\\' && q == '"' {
			l.advance()
			if l.eof() {
				break
			}
			c = l.peek()
		}
		b.WriteByte(c)
		l.advance()
	}
	return b.String()
}

// keyValue reads key = value within table.
func (l *locator) keyValue(table string) {
	line := l.line
	keys := l.key()
	if len(keys) == 0 {
		// Not a key: skip the rest of the line.
		for !l.eof() && l.peek() != '\n' {
			l.advance()
		}
		return
	}
	path := table
	for _, k := range keys {
		path = joinPath(path, k)
		l.record(path, line)
	}
	l.skipSpace(false)
	if l.peek() == '=' {
		l.advance()
	}
	l.value(path)
}

// value skips one value, recording arrays' elements and inline tables'
// keys under path.
func (l *locator) value(path string) {
	l.skipSpace(false)
	switch c := l.peek(); c {
	case '"', '\'':
		l.str(c)
	case '[':
		l.advance()
		for i := 0; ; i++ {
			l.skipSpace(true)
			if l.eof() {
				return
			}
			if l.peek() == ']' {
				l.advance()
				return
			}
			el := indexPath(path, i)
			l.record(el, l.line)
			start := l.pos
			l.value(el)
			l.skipSpace(true)
			if l.peek() == ',' {
				l.advance()
			} else if l.pos == start {
				return
			}
		}
	case '{':
		l.advance()
		for {
			l.skipSpace(false)
			if l.eof() {
				return
			}
			if l.peek() == '}' {
				l.advance()
				return
			}
			start := l.pos
			line := l.line
			keys := l.key()
			p := path
			for _, k := range keys {
				p = joinPath(p, k)
				l.record(p, line)
			}
			l.skipSpace(false)
			if l.peek() == '=' {
				l.advance()
			}
			l.value(p)
			l.skipSpace(false)
			if l.peek() == ',' {
				l.advance()
			} else if l.pos == start {
				return
			}
		}
	default:
		// Number, boolean or date: up to a delimiter.
		for !l.eof() {
			switch l.peek() {
			case ',', ']', '}', '\n', '#':
				return
			}
			l.advance()
		}
	}
}

// str skips a basic, literal or multi-line string.
func (l *locator) str(q byte) {
	triple := strings.HasPrefix(l.src[l.pos:], strings.Repeat(string(q), 3))
	if triple {
		l.advance()
		l.advance()
		l.advance()
		for !l.eof() {
			if q == '"' && l.peek() == '\\' {
				l.advance()
				l.advance()
				continue
			}
			if strings.HasPrefix(l.src[l.pos:], strings.Repeat(string(q), 3)) {
				l.advance()
				l.advance()
				l.advance()
				// Up to two more quotes may belong to the content.
				for i := 0; i < 2 && l.peek() == q; i++ {
					l.advance()
				}
				return
			}
			l.advance()
		}
		return
	}
	l.advance()
	for !l.eof() {
		c := l.peek()
		if c == '\n' {
			return
		}
		l.advance()
		if c == '\\' && q == '"' {
			l.advance()
			continue
		}
		if c == q {
			return
		}
	}
}
