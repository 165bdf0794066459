package tomldec

import (
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// MaxDepth is how deeply arrays and inline tables may nest in a value.
const MaxDepth = 128

// ParseError is the error Decode returns for a document that is not valid
// TOML 1.0.
type ParseError struct {
	Line int    // 1-based line of the problem
	Msg  string // what is wrong, without the line
}

func (e *ParseError) Error() string {
	return "line " + strconv.Itoa(e.Line) + ": " + e.Msg
}

// LocalDate is a TOML local date (1979-05-27).
type LocalDate struct {
	Year, Month, Day int
}

// String returns the date in TOML (RFC 3339) form.
func (d LocalDate) String() string {
	return string(d.appendTo(make([]byte, 0, 10)))
}

func (d LocalDate) appendTo(b []byte) []byte {
	b = appendPadded(b, d.Year, 4)
	b = append(b, '-')
	b = appendPadded(b, d.Month, 2)
	b = append(b, '-')
	return appendPadded(b, d.Day, 2)
}

// LocalTime is a TOML local time (07:32:00.999).
type LocalTime struct {
	Hour, Minute, Second, Nanosecond int
}

// String returns the time in TOML (RFC 3339) form, with as many fractional
// digits as needed.
func (t LocalTime) String() string {
	return string(t.appendTo(make([]byte, 0, 18)))
}

func (t LocalTime) appendTo(b []byte) []byte {
	b = appendPadded(b, t.Hour, 2)
	b = append(b, ':')
	b = appendPadded(b, t.Minute, 2)
	b = append(b, ':')
	b = appendPadded(b, t.Second, 2)
	if t.Nanosecond > 0 {
		frac := appendPadded([]byte{'.'}, t.Nanosecond, 9)
		for frac[len(frac)-1] == '0' {
			frac = frac[:len(frac)-1]
		}
		b = append(b, frac...)
	}
	return b
}

// LocalDateTime is a TOML local date-time (1979-05-27T07:32:00).
type LocalDateTime struct {
	Date LocalDate
	Time LocalTime
}

// String returns the date-time in TOML (RFC 3339) form.
func (dt LocalDateTime) String() string {
	b := dt.Date.appendTo(make([]byte, 0, 29))
	b = append(b, 'T')
	return string(dt.Time.appendTo(b))
}

func appendPadded(b []byte, v, width int) []byte {
	var buf [20]byte
	s := strconv.AppendInt(buf[:0], int64(v), 10)
	for i := len(s); i < width; i++ {
		b = append(b, '0')
	}
	return append(b, s...)
}

// Decode parses a TOML 1.0 document.
func Decode(src []byte) (map[string]any, error) {
	p := &parser{src: src}
	if err := p.checkEncoding(); err != nil {
		return nil, err
	}
	p.root = &node{m: map[string]any{}, kind: kindExplicit}
	p.cur = p.root
	if err := p.document(); err != nil {
		return nil, err
	}
	return p.root.m, nil
}

// How a table came to be; this decides how it may be extended.
const (
	kindImplicit = iota // parent of a [header] table; a header may still define it
	kindExplicit        // the root, a [header] table, an element of [[header]] or an inline table
	kindDotted          // made by a dotted key; only later keys of the same section may extend it
	kindArray           // an array of tables
)

// node is the book-keeping for one table (or array of tables) that may still
// be extended. Values, including inline tables and static arrays, have no
// node: a key with an entry in m but none in kids is frozen.
type node struct {
	m       map[string]any
	kids    map[string]*node
	kind    uint8
	section int              // kindDotted: the section (header or inline table) that made it
	items   []map[string]any // kindArray: the tables, as stored in the parent
	last    *node            // kindArray: the last table, the only one still open
}

func (n *node) addKid(k string, kind uint8, section int) *node {
	kid := &node{kind: kind, section: section}
	if kind != kindArray {
		kid.m = map[string]any{}
		n.m[k] = kid.m
	}
	if n.kids == nil {
		n.kids = map[string]*node{}
	}
	n.kids[k] = kid
	return kid
}

type parser struct {
	src      []byte
	pos      int
	root     *node
	cur      *node // table the current section adds to
	section  int   // id of the current section
	sections int   // ids handed out
	depth    int   // nesting of arrays and inline tables
}

// errAt returns a ParseError for the line holding byte offset at.
func (p *parser) errAt(at int, msg string) error {
	if at > len(p.src) {
		at = len(p.src)
	}
	return &ParseError{Line: 1 + countNL(p.src[:at]), Msg: msg}
}

func (p *parser) errf(msg string) error { return p.errAt(p.pos, msg) }

func countNL(b []byte) int {
	n := 0
	for _, c := range b {
		if c == '\n' {
			n++
		}
	}
	return n
}

func (p *parser) newSection() int {
	p.sections++
	return p.sections
}

// checkEncoding skips a UTF-8 byte order mark and rejects invalid UTF-8.
func (p *parser) checkEncoding() error {
	if len(p.src) >= 3 && p.src[0] == 0xEF && p.src[1] == 0xBB && p.src[2] == 0xBF {
		p.pos = 3
	}
	if utf8.Valid(p.src[p.pos:]) {
		return nil
	}
	for i := p.pos; i < len(p.src); {
		r, n := utf8.DecodeRune(p.src[i:])
		if r == utf8.RuneError && n <= 1 {
			return p.errAt(i, "invalid UTF-8 (byte 0x"+strconv.FormatUint(uint64(p.src[i]), 16)+")")
		}
		i += n
	}
	return nil
}

func (p *parser) eof() bool { return p.pos >= len(p.src) }

func (p *parser) peek() byte {
	if p.pos < len(p.src) {
		return p.src[p.pos]
	}
	return 0
}

func (p *parser) hasPrefix(s string) bool {
	return len(p.src)-p.pos >= len(s) && string(p.src[p.pos:p.pos+len(s)]) == s
}

func (p *parser) skipWS() {
	for p.pos < len(p.src) && (p.src[p.pos] == ' ' || p.src[p.pos] == '\t') {
		p.pos++
	}
}

// describe names the byte at the current position for an error message.
func (p *parser) describe() string {
	if p.eof() {
		return "end of file"
	}
	switch c := p.src[p.pos]; c {
	case '\n':
		return "end of line"
	case '\r':
		if p.pos+1 < len(p.src) && p.src[p.pos+1] == '\n' {
			return "end of line"
		}
		return "a carriage return"
	default:
		r, _ := utf8.DecodeRune(p.src[p.pos:])
		return strconv.QuoteRune(r)
	}
}

// newline consumes "\n" or "\r\n".
func (p *parser) newline() error {
	switch {
	case p.hasPrefix("\n"):
		p.pos++
	case p.hasPrefix("\r\n"):
		p.pos += 2
	default:
		return p.errf("expected end of line, found " + p.describe())
	}
	return nil
}

func isControl(c byte) bool { return c < 0x20 && c != '\t' || c == 0x7f }

// comment consumes a comment up to, not including, its end of line.
func (p *parser) comment() error {
	p.pos++ // '#'
	for ; p.pos < len(p.src); p.pos++ {
		c := p.src[p.pos]
		if c == '\n' || c == '\r' && p.hasPrefix("\r\n") {
			return nil
		}
		if isControl(c) {
			return p.errf("control character " + strconv.QuoteRune(rune(c)) + " in comment")
		}
	}
	return nil
}

// skipBlank skips whitespace, newlines and comments (inside arrays).
func (p *parser) skipBlank() error {
	for {
		p.skipWS()
		switch p.peek() {
		case '#':
			if err := p.comment(); err != nil {
				return err
			}
		case '\n', '\r':
			if err := p.newline(); err != nil {
				return err
			}
		default:
			return nil
		}
	}
}

// endOfLine consumes optional whitespace and comment and the end of line
// after a key/value pair or header.
func (p *parser) endOfLine() error {
	p.skipWS()
	if p.peek() == '#' {
		if err := p.comment(); err != nil {
			return err
		}
	}
	if p.eof() {
		return nil
	}
	if c := p.peek(); c != '\n' && c != '\r' {
		return p.errf("expected end of line, found " + p.describe())
	}
	return p.newline()
}

func (p *parser) document() error {
	for {
		p.skipWS()
		if p.eof() {
			return nil
		}
		var err error
		switch p.peek() {
		case '\n', '\r':
			err = p.newline()
			if err != nil {
				return err
			}
			continue
		case '#':
			err = p.comment()
		case '[':
			err = p.header()
		default:
			err = p.keyValue(p.cur, p.section)
		}
		if err != nil {
			return err
		}
		if err := p.endOfLine(); err != nil {
			return err
		}
	}
}

func isBare(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '-'
}

// key parses a (possibly dotted) key and the whitespace after it.
func (p *parser) key() ([]string, error) {
	var keys []string
	for {
		p.skipWS()
		var k string
		switch c := p.peek(); {
		case c == '"':
			if p.hasPrefix(`"""`) {
				return nil, p.errf("a key cannot be a multi-line string")
			}
			p.pos++
			s, err := p.basicString(false)
			if err != nil {
				return nil, err
			}
			k = s
		case c == '\'':
			if p.hasPrefix("'''") {
				return nil, p.errf("a key cannot be a multi-line string")
			}
			p.pos++
			s, err := p.literalString(false)
			if err != nil {
				return nil, err
			}
			k = s
		case isBare(c):
			start := p.pos
			for p.pos < len(p.src) && isBare(p.src[p.pos]) {
				p.pos++
			}
			k = string(p.src[start:p.pos])
		default:
			return nil, p.errf("expected a key, found " + p.describe())
		}
		keys = append(keys, k)
		p.skipWS()
		if p.peek() != '.' {
			return keys, nil
		}
		p.pos++
	}
}

// keyPath formats keys for a message.
func keyPath(keys []string) string {
	var b strings.Builder
	for i, k := range keys {
		if i > 0 {
			b.WriteByte('.')
		}
		bare := k != ""
		for j := 0; j < len(k); j++ {
			if !isBare(k[j]) {
				bare = false
				break
			}
		}
		if bare {
			b.WriteString(k)
		} else {
			b.WriteString(strconv.Quote(k))
		}
	}
	return b.String()
}

// keyValue parses key = value and stores it in t; section identifies the
// header section or inline table being parsed.
func (p *parser) keyValue(t *node, section int) error {
	at := p.pos
	keys, err := p.key()
	if err != nil {
		return err
	}
	if p.peek() != '=' {
		return p.errf("expected = after key " + keyPath(keys) + ", found " + p.describe())
	}
	p.pos++
	for i, k := range keys[:len(keys)-1] {
		kid := t.kids[k]
		if kid == nil {
			if _, ok := t.m[k]; ok {
				return p.errAt(at, "cannot add keys to "+keyPath(keys[:i+1])+": it is already defined as "+kindOf(t.m[k]))
			}
			kid = t.addKid(k, kindDotted, section)
		} else {
			switch kid.kind {
			case kindImplicit:
				kid.kind, kid.section = kindDotted, section
			case kindDotted:
				if kid.section != section {
					return p.errAt(at, "cannot add keys to table "+keyPath(keys[:i+1])+" after its definition")
				}
			case kindExplicit:
				return p.errAt(at, "cannot use dotted keys to add to table "+keyPath(keys[:i+1])+", which has its own [header]")
			default:
				return p.errAt(at, "cannot use dotted keys to add to "+keyPath(keys[:i+1])+", an array of tables")
			}
		}
		t = kid
	}
	last := keys[len(keys)-1]
	if _, dup := t.m[last]; dup {
		if t.kids[last] != nil {
			return p.errAt(at, "key "+keyPath(keys)+" is defined twice (it is already a table)")
		}
		return p.errAt(at, "key "+keyPath(keys)+" is defined twice")
	}
	p.skipWS()
	v, err := p.value()
	if err != nil {
		return err
	}
	t.m[last] = v
	return nil
}

// kindOf names the type of a value for a message.
func kindOf(v any) string {
	switch v.(type) {
	case string:
		return "a string"
	case int64:
		return "an integer"
	case float64:
		return "a float"
	case bool:
		return "a boolean"
	case []any:
		return "an array"
	case map[string]any:
		return "an inline table"
	}
	return "a date or time"
}

// header parses [table] or [[array of tables]].
func (p *parser) header() error {
	at := p.pos
	array := p.hasPrefix("[[")
	if array {
		p.pos += 2
	} else {
		p.pos++
	}
	keys, err := p.key()
	if err != nil {
		return err
	}
	if array {
		if !p.hasPrefix("]]") {
			return p.errf("expected ]] after [[" + keyPath(keys) + ", found " + p.describe())
		}
		p.pos += 2
	} else {
		if p.peek() != ']' {
			return p.errf("expected ] after [" + keyPath(keys) + ", found " + p.describe())
		}
		p.pos++
	}
	t := p.root
	for i, k := range keys[:len(keys)-1] {
		kid := t.kids[k]
		if kid == nil {
			if _, ok := t.m[k]; ok {
				return p.errAt(at, keyPath(keys[:i+1])+" is already defined as "+kindOf(t.m[k])+", so it cannot have sub-tables")
			}
			kid = t.addKid(k, kindImplicit, 0)
		}
		if kid.kind == kindArray {
			kid = kid.last
		}
		t = kid
	}
	p.section = p.newSection()
	last := keys[len(keys)-1]
	kid := t.kids[last]
	name := keyPath(keys)
	if array {
		if kid == nil {
			if _, ok := t.m[last]; ok {
				return p.errAt(at, "cannot define [["+name+"]]: "+name+" is already defined as "+kindOf(t.m[last]))
			}
			kid = t.addKid(last, kindArray, 0)
		} else if kid.kind != kindArray {
			return p.errAt(at, "cannot define [["+name+"]]: "+name+" is already a table")
		}
		el := &node{m: map[string]any{}, kind: kindExplicit}
		kid.items = append(kid.items, el.m)
		kid.last = el
		t.m[last] = kid.items
		p.cur = el
		return nil
	}
	if kid == nil {
		if _, ok := t.m[last]; ok {
			return p.errAt(at, "cannot define ["+name+"]: "+name+" is already defined as "+kindOf(t.m[last]))
		}
		kid = t.addKid(last, kindExplicit, 0)
	} else {
		switch kid.kind {
		case kindImplicit:
			kid.kind = kindExplicit
		case kindExplicit:
			return p.errAt(at, "table ["+name+"] is defined twice")
		case kindDotted:
			return p.errAt(at, "cannot define ["+name+"]: it is already defined by dotted keys")
		default:
			return p.errAt(at, "cannot define ["+name+"]: it is an array of tables ([["+name+"]])")
		}
	}
	p.cur = kid
	return nil
}

// value parses one value at the current position.
func (p *parser) value() (any, error) {
	switch c := p.peek(); c {
	case '"':
		if p.hasPrefix(`"""`) {
			p.pos += 3
			return p.multiBasicString()
		}
		p.pos++
		return p.basicString(false)
	case '\'':
		if p.hasPrefix("'''") {
			p.pos += 3
			return p.multiLiteralString()
		}
		p.pos++
		return p.literalString(false)
	case '[':
		return p.array()
	case '{':
		return p.inlineTable()
	case 't':
		if p.hasPrefix("true") {
			p.pos += 4
			return true, nil
		}
	case 'f':
		if p.hasPrefix("false") {
			p.pos += 5
			return false, nil
		}
	case '+', '-', 'i', 'n', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		return p.scalar()
	}
	if p.eof() || p.peek() == '\n' || p.peek() == '\r' || p.peek() == '#' {
		return nil, p.errf("expected a value, found " + p.describe())
	}
	return nil, p.errf("expected a value, found " + p.describe() + " (strings need quotes)")
}

func (p *parser) enter() error {
	p.depth++
	if p.depth > MaxDepth {
		return p.errf("arrays and inline tables nest more than " + strconv.Itoa(MaxDepth) + " deep")
	}
	return nil
}

func (p *parser) array() (any, error) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer func() { p.depth-- }()
	at := p.pos
	p.pos++ // '['
	arr := []any{}
	for {
		if err := p.skipBlank(); err != nil {
			return nil, err
		}
		if p.eof() {
			return nil, p.errAt(at, "array is not closed with ]")
		}
		if p.peek() == ']' {
			p.pos++
			return arr, nil
		}
		v, err := p.value()
		if err != nil {
			return nil, err
		}
		arr = append(arr, v)
		if err := p.skipBlank(); err != nil {
			return nil, err
		}
		switch p.peek() {
		case ',':
			p.pos++
		case ']':
			p.pos++
			return arr, nil
		default:
			if p.eof() {
				return nil, p.errAt(at, "array is not closed with ]")
			}
			return nil, p.errf("expected , or ] in array, found " + p.describe())
		}
	}
}

func (p *parser) inlineTable() (any, error) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer func() { p.depth-- }()
	p.pos++ // '{'
	t := &node{m: map[string]any{}, kind: kindExplicit}
	section := p.newSection()
	p.skipWS()
	if p.peek() == '}' {
		p.pos++
		return t.m, nil
	}
	for {
		p.skipWS()
		switch p.peek() {
		case '\n', '\r', '#':
			return nil, p.errf("inline table is not closed with } on its line (TOML 1.0 allows no newlines in inline tables)")
		case '}':
			return nil, p.errf("trailing comma in inline table (not allowed in TOML 1.0)")
		}
		if err := p.keyValue(t, section); err != nil {
			return nil, err
		}
		p.skipWS()
		switch p.peek() {
		case ',':
			p.pos++
		case '}':
			p.pos++
			return t.m, nil
		default:
			if c := p.peek(); p.eof() || c == '\n' || c == '\r' || c == '#' {
				return nil, p.errf("inline table is not closed with } on its line (TOML 1.0 allows no newlines in inline tables)")
			}
			return nil, p.errf("expected , or } in inline table, found " + p.describe())
		}
	}
}

// basicString parses the rest of a "..." string (the quote is consumed).
func (p *parser) basicString(multi bool) (string, error) {
	at := p.pos - 1 // the opening quote
	var buf []byte
	for {
		if p.eof() {
			return "", p.errAt(at, "string is not closed")
		}
		c := p.src[p.pos]
		switch {
		case c == '"':
			if !multi {
				p.pos++
				return string(buf), nil
			}
			n := 0
			for p.pos+n < len(p.src) && p.src[p.pos+n] == '"' {
				n++
			}
			if n < 3 {
				buf = append(buf, p.src[p.pos:p.pos+n]...)
				p.pos += n
				continue
			}
			if n > 5 {
				return "", p.errAt(p.pos, "too many quotes at the end of a multi-line string")
			}
			buf = append(buf, p.src[p.pos:p.pos+n-3]...)
			p.pos += n
			return string(buf), nil
		case c == '\\':
			var err error
			if buf, err = p.escape(buf, multi); err != nil {
				return "", err
			}
		case c == '\n' && multi:
			buf = append(buf, c)
			p.pos++
		case c == '\r' && multi && p.hasPrefix("\r\n"):
			buf = append(buf, '\r', '\n')
			p.pos += 2
		case c == '\n' || c == '\r' && p.hasPrefix("\r\n"):
			return "", p.errf("string is not closed on its line")
		case isControl(c):
			return "", p.errf("control character " + strconv.QuoteRune(rune(c)) + " in string (use an escape)")
		default:
			buf = append(buf, c)
			p.pos++
		}
	}
}

func (p *parser) multiBasicString() (string, error) {
	p.skipFirstNewline() // leaves p.pos-1 on the opening line
	return p.basicString(true)
}

func (p *parser) skipFirstNewline() {
	switch {
	case p.hasPrefix("\n"):
		p.pos++
	case p.hasPrefix("\r\n"):
		p.pos += 2
	}
}

// escape decodes the escape sequence at p.pos.
func (p *parser) escape(buf []byte, multi bool) ([]byte, error) {
	at := p.pos
	p.pos++ // '\\'
	if p.eof() {
		return nil, p.errAt(at, "string is not closed")
	}
	c := p.src[p.pos]
	p.pos++
	switch c {
	case 'b':
		return append(buf, '\b'), nil
	case 't':
		return append(buf, '\t'), nil
	case 'n':
		return append(buf, '\n'), nil
	case 'f':
		return append(buf, '\f'), nil
	case 'r':
		return append(buf, '\r'), nil
	case '"':
		return append(buf, '"'), nil
	case '\\':
		return append(buf, '\\'), nil
	case 'u', 'U':
		n := 4
		if c == 'U' {
			n = 8
		}
		if len(p.src)-p.pos < n {
			return nil, p.errAt(at, "\\"+string(c)+" needs "+strconv.Itoa(n)+" hex digits")
		}
		var r uint32
		for _, h := range p.src[p.pos : p.pos+n] {
			d, ok := hexVal(h)
			if !ok {
				return nil, p.errAt(at, "\\"+string(c)+" needs "+strconv.Itoa(n)+" hex digits")
			}
			r = r<<4 | uint32(d)
		}
		if r > utf8.MaxRune || 0xD800 <= r && r <= 0xDFFF {
			return nil, p.errAt(at, "escape "+string(p.src[at:p.pos+n])+" is not a Unicode scalar value")
		}
		p.pos += n
		return utf8.AppendRune(buf, rune(r)), nil
	case ' ', '\t', '\n', '\r':
		if !multi {
			break
		}
		// Line-ending backslash: only whitespace may follow it on its line;
		// it swallows all whitespace and newlines up to the next text.
		p.pos--
		p.skipWS()
		if c := p.peek(); c != '\n' && c != '\r' {
			return nil, p.errAt(at, "a backslash followed by spaces must end its line")
		}
		for {
			p.skipWS()
			if c := p.peek(); c != '\n' && c != '\r' {
				return buf, nil
			}
			if err := p.newline(); err != nil {
				return nil, err
			}
		}
	}
	r, _ := utf8.DecodeRune(p.src[p.pos-1:])
	if r < 0x20 || r == 0x7f {
		return nil, p.errAt(at, "invalid escape: backslash followed by "+strconv.QuoteRune(r))
	}
	return nil, p.errAt(at, "invalid escape \\"+string(r))
}

func hexVal(c byte) (byte, bool) {
	switch {
	case '0' <= c && c <= '9':
		return c - '0', true
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10, true
	case 'A' <= c && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

// literalString parses the rest of a '...' string (the quote is consumed).
func (p *parser) literalString(multi bool) (string, error) {
	at := p.pos - 1 // the opening quote
	for start := p.pos; ; {
		if p.eof() {
			return "", p.errAt(at, "string is not closed")
		}
		c := p.src[p.pos]
		switch {
		case c == '\'':
			if !multi {
				s := string(p.src[start:p.pos])
				p.pos++
				return s, nil
			}
			n := 0
			for p.pos+n < len(p.src) && p.src[p.pos+n] == '\'' {
				n++
			}
			if n < 3 {
				p.pos += n
				continue
			}
			if n > 5 {
				return "", p.errAt(p.pos, "too many quotes at the end of a multi-line string")
			}
			s := string(p.src[start : p.pos+n-3])
			p.pos += n
			return s, nil
		case c == '\n' && multi:
			p.pos++
		case c == '\r' && multi && p.hasPrefix("\r\n"):
			p.pos += 2
		case c == '\n' || c == '\r' && p.hasPrefix("\r\n"):
			return "", p.errf("string is not closed on its line")
		case isControl(c):
			return "", p.errf("control character " + strconv.QuoteRune(rune(c)) + " in string")
		default:
			p.pos++
		}
	}
}

func (p *parser) multiLiteralString() (string, error) {
	p.skipFirstNewline()
	return p.literalString(true)
}

func isTokenByte(c byte) bool {
	return isBare(c) || c == '.' || c == '+' || c == ':'
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// scalar parses a number, date or time.
func (p *parser) scalar() (any, error) {
	start := p.pos
	end := start
	for end < len(p.src) && isTokenByte(p.src[end]) {
		end++
	}
	tok := p.src[start:end]
	if looksLikeDate(tok) {
		// A space may separate the date from the time.
		if end-start == 10 && len(p.src)-end > 3 && p.src[end] == ' ' &&
			isDigit(p.src[end+1]) && isDigit(p.src[end+2]) && p.src[end+3] == ':' {
			end++
			for end < len(p.src) && isTokenByte(p.src[end]) {
				end++
			}
			tok = p.src[start:end]
		}
		v, ok := parseDateTime(tok)
		if !ok {
			return nil, p.errf("invalid date or date-time " + strconv.Quote(string(tok)))
		}
		p.pos = end
		return v, nil
	}
	if len(tok) >= 3 && tok[2] == ':' {
		t, rest, ok := parseTime(tok)
		if !ok || len(rest) != 0 {
			return nil, p.errf("invalid time " + strconv.Quote(string(tok)) + " (want HH:MM:SS)")
		}
		p.pos = end
		return t, nil
	}
	v, msg := parseNumber(string(tok))
	if msg != "" {
		return nil, p.errf(msg)
	}
	p.pos = end
	return v, nil
}

func looksLikeDate(b []byte) bool {
	return len(b) >= 10 && isDigit(b[0]) && isDigit(b[1]) && isDigit(b[2]) && isDigit(b[3]) && b[4] == '-'
}

// num reads exactly n decimal digits.
func num(b []byte, n int) (int, bool) {
	if len(b) < n {
		return 0, false
	}
	v := 0
	for _, c := range b[:n] {
		if !isDigit(c) {
			return 0, false
		}
		v = v*10 + int(c-'0')
	}
	return v, true
}

func parseDate(b []byte) (LocalDate, bool) {
	y, ok1 := num(b, 4)
	m, ok2 := num(b[5:], 2)
	d, ok3 := num(b[8:], 2)
	if !ok1 || !ok2 || !ok3 || b[4] != '-' || b[7] != '-' || m < 1 || m > 12 || d < 1 {
		return LocalDate{}, false
	}
	days := [13]int{0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31}[m]
	if m == 2 && y%4 == 0 && (y%100 != 0 || y%400 == 0) {
		days = 29
	}
	return LocalDate{y, m, d}, d <= days
}

// parseTime parses HH:MM:SS[.frac] at the start of b.
func parseTime(b []byte) (LocalTime, []byte, bool) {
	h, ok1 := num(b, 2)
	if len(b) < 8 || !ok1 || b[2] != ':' || b[5] != ':' {
		return LocalTime{}, nil, false
	}
	mi, ok2 := num(b[3:], 2)
	s, ok3 := num(b[6:], 2)
	if !ok2 || !ok3 || h > 23 || mi > 59 || s > 59 {
		return LocalTime{}, nil, false
	}
	t := LocalTime{Hour: h, Minute: mi, Second: s}
	b = b[8:]
	if len(b) > 0 && b[0] == '.' {
		i := 1
		scale := 100000000
		for ; i < len(b) && isDigit(b[i]); i++ {
			t.Nanosecond += int(b[i]-'0') * scale
			scale /= 10
		}
		if i == 1 {
			return LocalTime{}, nil, false
		}
		b = b[i:]
	}
	return t, b, true
}

func parseDateTime(b []byte) (any, bool) {
	d, ok := parseDate(b)
	if !ok {
		return nil, false
	}
	if len(b) == 10 {
		return d, true
	}
	if c := b[10]; c != 'T' && c != 't' && c != ' ' {
		return nil, false
	}
	t, rest, ok := parseTime(b[11:])
	if !ok {
		return nil, false
	}
	var loc *time.Location
	switch {
	case len(rest) == 0:
		return LocalDateTime{d, t}, true
	case len(rest) == 1 && (rest[0] == 'Z' || rest[0] == 'z'):
		loc = time.UTC
	case len(rest) == 6 && (rest[0] == '+' || rest[0] == '-') && rest[3] == ':':
		oh, ok1 := num(rest[1:], 2)
		om, ok2 := num(rest[4:], 2)
		if !ok1 || !ok2 || oh > 23 || om > 59 {
			return nil, false
		}
		off := oh*3600 + om*60
		if rest[0] == '-' {
			off = -off
		}
		loc = time.FixedZone("", off)
	default:
		return nil, false
	}
	return time.Date(d.Year, time.Month(d.Month), d.Day, t.Hour, t.Minute, t.Second, t.Nanosecond, loc), true
}

// digitsOK reports whether s is one or more digits of the given base with
// single underscores between digits.
func digitsOK(s string, base int) bool {
	if s == "" {
		return false
	}
	prevDigit := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '_' {
			if !prevDigit {
				return false
			}
			prevDigit = false
			continue
		}
		d, ok := hexVal(c)
		if !ok || int(d) >= base {
			return false
		}
		prevDigit = true
	}
	return prevDigit
}

// parseNumber parses an integer or float; a non-empty string is the error.
func parseNumber(s string) (any, string) {
	bad := "invalid number " + strconv.Quote(s)
	switch s {
	case "inf", "+inf":
		return math.Inf(1), ""
	case "-inf":
		return math.Inf(-1), ""
	case "nan", "+nan", "-nan":
		return math.NaN(), ""
	case "":
		return nil, "expected a value"
	}
	if len(s) > 2 && s[0] == '0' {
		base := 0
		switch s[1] {
		case 'x':
			base = 16
		case 'o':
			base = 8
		case 'b':
			base = 2
		}
		if base != 0 {
			body := s[2:]
			if !digitsOK(body, base) {
				return nil, bad
			}
			v, err := strconv.ParseInt(strings.ReplaceAll(body, "_", ""), base, 64)
			if err != nil {
				return nil, s + " is out of range for a 64-bit integer"
			}
			return v, ""
		}
	}
	body := s
	if body[0] == '+' || body[0] == '-' {
		body = body[1:]
	}
	// Split into integer part, fraction and exponent.
	intPart, frac, exp := body, "", ""
	hasFrac, hasExp := false, false
	if i := strings.IndexAny(intPart, "eE"); i >= 0 {
		intPart, exp, hasExp = intPart[:i], intPart[i+1:], true
	}
	if i := strings.IndexByte(intPart, '.'); i >= 0 {
		intPart, frac, hasFrac = intPart[:i], intPart[i+1:], true
	}
	if !digitsOK(intPart, 10) || len(intPart) > 1 && intPart[0] == '0' {
		if digitsOK(intPart, 10) {
			return nil, bad + " (leading zeros are not allowed)"
		}
		return nil, bad
	}
	if hasFrac && !digitsOK(frac, 10) {
		return nil, bad
	}
	if hasExp {
		e := exp
		if e != "" && (e[0] == '+' || e[0] == '-') {
			e = e[1:]
		}
		if !digitsOK(e, 10) {
			return nil, bad
		}
	}
	clean := strings.ReplaceAll(s, "_", "")
	if !hasFrac && !hasExp {
		v, err := strconv.ParseInt(clean, 10, 64)
		if err != nil {
			return nil, s + " is out of range for a 64-bit integer"
		}
		return v, ""
	}
	v, err := strconv.ParseFloat(clean, 64)
	if err != nil {
		return nil, s + " is out of range for a 64-bit float"
	}
	return v, ""
}
