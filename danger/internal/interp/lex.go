package interp

import (
	"strings"
	"unicode/utf8"

	"github.com/shellguard/shellguard/internal/textlex"
)

// The lexer of the call languages (Python, JavaScript, Perl, Ruby, PHP,
// Lua, R): enough to tell code from strings and comments, find
// identifiers, calls and literal arguments. One pass, no backtracking:
// every loop advances, so time is linear in the code's length.

type tkind uint8

const (
	tEOF tkind = iota
	tIdent
	tStr
	tNum
	tOp
	tNL  // a newline that ends a statement (Python, Ruby, Lua, R)
	tDyn // a part of the code the shell computes
)

type sflag uint8

const (
	sCmd   sflag = 1 << iota // runs a shell: backticks, qx{}, %x()
	sWords                   // a word list: qw(), %w()
	sRegex                   // a regular expression (not a value)
	sCode                    // Perl s///e: s is the replacement, which is code
	sSym                     // a Ruby :symbol
)

type token struct {
	k     tkind
	f     sflag
	sp    bool   // whitespace before the token
	ind   int32  // tNL: the next line's indentation
	s     string // identifier or operator text; a plain string's value
	parts []part // an interpolated string's parts (nil: plain)
}

// part is a piece of an interpolated string: literal text or the source
// of an expression.
type part struct {
	s    string
	expr bool
}

type lexer struct {
	lang  Lang
	src   string
	i     int
	toks  []token
	depth int  // brackets open: newlines inside do not end statements
	sp    bool // whitespace since the last token
	// heredocs whose bodies start after the current line: the index of
	// their token, their terminator, whether it may be indented, and
	// whether the body interpolates.
	heredocs []heredoc
}

type heredoc struct {
	tok    int
	tag    string
	indent bool
	interp bool
}

func lex(lang Lang, src string) []token {
	l := &lexer{lang: lang, src: src, toks: make([]token, 0, len(src)/3+4)}
	if strings.HasPrefix(src, "#!") {
		l.skipLine()
	}
	if lang == PHP {
		l.phpOpen()
	}
	for l.i < len(l.src) {
		start := l.i
		l.next()
		if l.i == start { // never stall
			l.i++
		}
		l.clamp()
	}
	return l.toks
}

// clamp keeps l.i within the source after a step over an escape at its
// very end.
func (l *lexer) clamp() {
	if l.i > len(l.src) {
		l.i = len(l.src)
	}
}

func (l *lexer) emit(t token) {
	t.sp = l.sp
	l.sp = false
	l.toks = append(l.toks, t)
}

func (l *lexer) peek(k int) byte {
	if l.i+k < len(l.src) {
		return l.src[l.i+k]
	}
	return 0
}

func (l *lexer) skipLine() {
	if j := strings.IndexByte(l.src[l.i:], '\n'); j >= 0 {
		l.i += j
	} else {
		l.i = len(l.src)
	}
}

// phpOpen skips text outside <?php ... ?> when the code has tags (php
// reading a file); php -r code has none.
func (l *lexer) phpOpen() {
	j := strings.Index(l.src[l.i:], "<?")
	if j < 0 {
		if l.i == 0 {
			return // php -r: all code
		}
		l.i = len(l.src)
		return
	}
	if l.i == 0 && strings.TrimSpace(l.src[:j]) == "" || l.i > 0 {
		l.i += j + 2
		if strings.HasPrefix(l.src[l.i:], "php") {
			l.i += 3
		} else if strings.HasPrefix(l.src[l.i:], "=") {
			l.i++
		}
		return
	}
	l.i += j + 2
	if strings.HasPrefix(l.src[l.i:], "php") {
		l.i += 3
	}
}

func isIdentStart(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c >= 0x80
}

func isIdentByte(c byte) bool { return isIdentStart(c) || c >= '0' && c <= '9' }

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func (l *lexer) next() {
	c := l.src[l.i]
	switch {
	case c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v':
		l.i++
		l.sp = true
		return
	case c == '\n':
		l.newline()
		return
	case c == 0:
		l.i++
		l.emit(token{k: tDyn})
		return
	case c == '\\' && l.peek(1) == '\n' && l.lang != JavaScript:
		l.i += 2
		l.sp = true
		return
	}
	if l.comment() {
		return
	}
	if l.stringLit() {
		return
	}
	switch {
	case isIdentStart(c) || l.sigil():
		l.ident()
	case isDigit(c) || c == '.' && isDigit(l.peek(1)):
		l.number()
	default:
		l.op()
	}
}

// newline ends a statement in the languages where it does, reads pending
// heredoc bodies, and records the next line's indentation.
func (l *lexer) newline() {
	l.i++
	if len(l.heredocs) > 0 {
		l.readHeredocs()
	}
	l.sp = true
	if l.lang == JavaScript || l.lang == Perl || l.lang == PHP {
		return
	}
	ind := 0
	for l.i+ind < len(l.src) && (l.src[l.i+ind] == ' ' || l.src[l.i+ind] == '\t') {
		ind++
	}
	if l.depth > 0 {
		return
	}
	// A line that continues the previous one: a trailing operator or
	// comma, or (Ruby) a leading .method.
	if n := len(l.toks); n > 0 {
		last := l.toks[n-1]
		if last.k == tOp && continues(l.lang, last.s) {
			return
		}
		if last.k == tNL {
			l.toks[n-1].ind = int32(ind)
			return
		}
	}
	if l.lang == Ruby && l.i+ind < len(l.src) && l.src[l.i+ind] == '.' && l.i+ind+1 < len(l.src) && l.src[l.i+ind+1] != '.' {
		return
	}
	if len(l.toks) == 0 {
		return
	}
	l.emit(token{k: tNL, ind: int32(ind)})
}

func continues(lang Lang, op string) bool {
	switch op {
	case ",", "+", "-", "*", "/", "=", "==", "&&", "||", "|>", ".", "..", "<-", "(", "[", "{", "\\":
		return true
	}
	return lang == R && len(op) > 1 && op[0] == '%'
}

func (l *lexer) readHeredocs() {
	for _, h := range l.heredocs {
		var body strings.Builder
		for l.i < len(l.src) {
			end := strings.IndexByte(l.src[l.i:], '\n')
			line := l.src[l.i:]
			if end >= 0 {
				line = l.src[l.i : l.i+end]
			}
			l.i += len(line)
			if end >= 0 {
				l.i++
			}
			check := strings.TrimSuffix(line, "\r")
			if h.indent {
				check = strings.TrimLeft(check, " \t")
			}
			if l.lang == PHP {
				check = strings.TrimRight(strings.TrimLeft(check, " \t"), ";),")
			}
			if check == h.tag {
				break
			}
			body.WriteString(line)
			body.WriteByte('\n')
		}
		t := &l.toks[h.tok]
		if h.interp {
			t.parts = l.interpParts(body.String())
			t.s = ""
			if t.parts == nil {
				t.s = l.unescape(body.String(), '"')
			}
		} else {
			t.s = body.String()
		}
	}
	l.heredocs = l.heredocs[:0]
}

// comment skips a comment and reports whether there was one.
func (l *lexer) comment() bool {
	s := l.src[l.i:]
	switch l.lang {
	case Python, Perl, Ruby, R:
		if s[0] == '#' {
			l.skipLine()
			return true
		}
		if (l.lang == Ruby || l.lang == Perl) && s[0] == '=' && l.lineStart() && len(s) > 1 && isIdentStart(s[1]) {
			// =begin ... =end (Ruby), POD =head ... =cut (Perl).
			end := "\n=end"
			if l.lang == Perl {
				end = "\n=cut"
			}
			if j := strings.Index(s, end); j >= 0 {
				l.i += j + len(end)
				l.skipLine()
			} else {
				l.i = len(l.src)
			}
			return true
		}
		if (l.lang == Perl || l.lang == Ruby) && l.lineStart() && (strings.HasPrefix(s, "__END__") || strings.HasPrefix(s, "__DATA__")) {
			l.i = len(l.src)
			return true
		}
	case JavaScript, PHP:
		if strings.HasPrefix(s, "//") || l.lang == PHP && s[0] == '#' && !strings.HasPrefix(s, "#[") {
			if l.lang == PHP {
				// A PHP line comment ends at ?> as well.
				j := strings.IndexByte(s, '\n')
				k := strings.Index(s, "?>")
				if k >= 0 && (j < 0 || k < j) {
					l.i += k
					return true
				}
			}
			l.skipLine()
			return true
		}
		if strings.HasPrefix(s, "/*") {
			if j := strings.Index(s[2:], "*/"); j >= 0 {
				l.i += j + 4
			} else {
				l.i = len(l.src)
			}
			l.sp = true
			return true
		}
		if l.lang == PHP && strings.HasPrefix(s, "?>") {
			l.i += 2
			l.emit(token{k: tOp, s: ";"})
			l.phpOpen()
			return true
		}
	case Lua:
		if strings.HasPrefix(s, "--") {
			l.i += 2
			if lvl, ok := l.longBracket(); ok {
				l.longBody(lvl)
			} else {
				l.skipLine()
			}
			l.sp = true
			return true
		}
	}
	return false
}

func (l *lexer) lineStart() bool {
	return l.i == 0 || l.src[l.i-1] == '\n'
}

// longBracket reads Lua's [[ or [==[ at l.i and returns its level.
func (l *lexer) longBracket() (int, bool) {
	if l.peek(0) != '[' {
		return 0, false
	}
	j := 1
	for l.peek(j) == '=' {
		j++
	}
	if l.peek(j) != '[' {
		return 0, false
	}
	l.i += j + 1
	return j - 1, true
}

func (l *lexer) longBody(lvl int) string {
	end := "]" + strings.Repeat("=", lvl) + "]"
	j := strings.Index(l.src[l.i:], end)
	if j < 0 {
		s := l.src[l.i:]
		l.i = len(l.src)
		return s
	}
	s := l.src[l.i : l.i+j]
	l.i += j + len(end)
	return strings.TrimPrefix(s, "\n")
}

// regexOK reports whether a / here starts a regular expression rather
// than a division: after an operator, a keyword or nothing.
func (l *lexer) regexOK() bool {
	if len(l.toks) == 0 {
		return true
	}
	t := l.toks[len(l.toks)-1]
	switch t.k {
	case tOp:
		return t.s != ")" && t.s != "]" && t.s != "}"
	case tNL:
		return true
	case tIdent:
		switch t.s {
		case "return", "typeof", "instanceof", "in", "of", "new", "delete", "void", "throw", "case", "do", "else",
			"if", "unless", "and", "or", "not", "split", "grep", "map", "when", "while", "until", "x", "lt", "gt",
			"le", "ge", "eq", "ne", "cmp", "yield", "await", "puts", "print", "join", "scan", "match", "sub", "gsub":
			return true
		}
		// Ruby: a method called without parentheses, then " /re/".
		return l.lang == Ruby && l.sp && l.peek(1) != ' ' && l.peek(1) != '='
	}
	return false
}

// stringLit reads a string literal of the language at l.i, if any.
func (l *lexer) stringLit() bool {
	c := l.src[l.i]
	switch l.lang {
	case Python:
		return l.pyString()
	case JavaScript:
		switch c {
		case '\'', '"':
			return l.quoted(c)
		case '`':
			l.i++
			raw := l.templateBody()
			l.emitInterp(raw, '`')
			return true
		case '/':
			if l.regexOK() && l.peek(1) != '/' && l.peek(1) != '*' {
				return l.regex()
			}
		}
	case Perl, Ruby:
		switch c {
		case '\'', '"', '`':
			return l.scriptQuote(c)
		case '/':
			return l.regexOK() && l.regex()
		}
		if l.lang == Perl {
			return l.perlString()
		}
		return l.rubyString()
	case PHP:
		switch c {
		case '\'', '"', '`':
			return l.scriptQuote(c)
		case '<':
			if strings.HasPrefix(l.src[l.i:], "<<<") {
				return l.heredocStart(3)
			}
		}
	case Lua:
		switch c {
		case '\'', '"':
			return l.quoted(c)
		case '[':
			save := l.i
			if lvl, ok := l.longBracket(); ok {
				l.emit(token{k: tStr, s: l.longBody(lvl)})
				return true
			}
			l.i = save
		}
	case R:
		switch c {
		case '\'', '"':
			return l.quoted(c)
		case '`':
			l.i++
			l.emit(token{k: tIdent, s: l.until('`')})
			return true
		case 'r', 'R':
			q := l.peek(1)
			if q == '"' || q == '\'' {
				// r"(...)", r"[...]", r"{...}", with optional dashes.
				j := l.i + 2
				for j < len(l.src) && l.src[j] == '-' {
					j++
				}
				if j < len(l.src) && strings.IndexByte("([{", l.src[j]) >= 0 {
					dashes := j - (l.i + 2)
					closer := byte(')')
					if l.src[j] == '[' {
						closer = ']'
					} else if l.src[j] == '{' {
						closer = '}'
					}
					end := string(closer) + strings.Repeat("-", dashes) + string(q)
					l.i = j + 1
					k := strings.Index(l.src[l.i:], end)
					if k < 0 {
						l.emit(token{k: tStr, s: l.src[l.i:]})
						l.i = len(l.src)
					} else {
						l.emit(token{k: tStr, s: l.src[l.i : l.i+k]})
						l.i += k + len(end)
					}
					return true
				}
			}
		}
	}
	return false
}

// until reads up to an unescaped closing quote and returns the raw body.
func (l *lexer) until(q byte) string {
	start := l.i
	for l.i < len(l.src) {
		c := l.src[l.i]
		if c == '\\' && l.i+1 < len(l.src) {
			l.i += 2
			continue
		}
		if c == q {
			s := l.src[start:l.i]
			l.i++
			return s
		}
		l.i++
	}
	return l.src[start:]
}

// delimited reads a Perl/Ruby quote-like body opened by open (already
// consumed): brackets nest, other delimiters close with themselves.
func (l *lexer) delimited(open byte) string {
	closeB := open
	switch open {
	case '(':
		closeB = ')'
	case '[':
		closeB = ']'
	case '{':
		closeB = '}'
	case '<':
		closeB = '>'
	}
	start := l.i
	depth := 0
	for l.i < len(l.src) {
		c := l.src[l.i]
		switch {
		case c == '\\' && l.i+1 < len(l.src):
			l.i += 2
			continue
		case c == closeB && depth == 0:
			s := l.src[start:l.i]
			l.i++
			return s
		case c == closeB:
			depth--
		case c == open && open != closeB:
			depth++
		}
		l.i++
	}
	return l.src[start:]
}

func (l *lexer) regexBody(delim byte) {
	defer l.clamp()
	inClass := false
	for c, ok := l.unescaped(); ok; c, ok = l.unescaped() {
		switch {
		case c == '\n' && delim == '/' && l.lang == JavaScript:
			return // not a regex after all; stop at the line's end
		case c == '[':
			inClass = true
		case c == ']':
			inClass = false
		case c == delim && !inClass:
			l.i++
			return
		}
		l.i++
	}
}

func (l *lexer) flags() string {
	start := l.i
	for l.i < len(l.src) && (l.src[l.i] >= 'a' && l.src[l.i] <= 'z' || l.src[l.i] >= 'A' && l.src[l.i] <= 'Z') {
		l.i++
	}
	return l.src[start:l.i]
}

// unescaped moves past backslash escapes (a backslash and the byte after
// it) and returns the byte at l.i, or false at the end of the source.
func (l *lexer) unescaped() (byte, bool) {
	for l.i < len(l.src) && l.src[l.i] == '\\' {
		l.i += 2
	}
	if l.i >= len(l.src) {
		return 0, false
	}
	return l.src[l.i], true
}

// templateBody reads a JavaScript template literal's body (after the
// opening backquote), skipping over ${...} with nested strings.
func (l *lexer) templateBody() string {
	defer l.clamp()
	start := l.i
	for c, ok := l.unescaped(); ok; c, ok = l.unescaped() {
		switch {
		case c == '`':
			s := l.src[start:l.i]
			l.i++
			return s
		case c == '$' && l.peek(1) == '{':
			l.i += 2
			l.skipBraced()
			continue
		}
		l.i++
	}
	return l.src[start:min(l.i, len(l.src))]
}

// skipBraced skips to the } that closes an already-opened {, over nested
// braces and quoted strings.
func (l *lexer) skipBraced() {
	defer l.clamp()
	depth := 1
	for c, ok := l.unescaped(); ok; c, ok = l.unescaped() {
		switch c {
		case '{':
			depth++
		case '}':
			depth--
			if depth == 0 {
				l.i++
				return
			}
		case '\'', '"', '`':
			l.i++
			if c == '`' {
				l.templateBody()
			} else {
				l.until(c)
			}
			continue
		}
		l.i++
	}
}

// emitInterp emits an interpolating string (JS template, Perl/PHP/Ruby
// double quotes, Python f-string) from its raw body.
func (l *lexer) emitInterp(raw string, q byte) {
	parts := l.interpParts(raw)
	if parts == nil {
		l.emit(token{k: tStr, s: l.unescape(raw, q)})
		return
	}
	l.emit(token{k: tStr, parts: parts})
}

// interpParts splits a raw interpolating string into literal parts
// (unescaped) and expression sources; nil when nothing interpolates.
func (l *lexer) interpParts(raw string) []part {
	var parts []part
	lit := 0 // start of the pending literal
	flush := func(end int) {
		if end > lit {
			parts = append(parts, part{s: l.unescape(raw[lit:end], '"')})
		}
	}
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		if c == '\\' {
			i++
			continue
		}
		start, end, expr := -1, -1, ""
		switch l.lang {
		case JavaScript:
			if c == '$' && i+1 < len(raw) && raw[i+1] == '{' {
				start = i
				end = braceEnd(raw, i+1)
				expr = raw[i+2 : max(i+2, end-1)]
			}
		case Ruby:
			if c == '#' && i+1 < len(raw) && raw[i+1] == '{' {
				start = i
				end = braceEnd(raw, i+1)
				expr = raw[i+2 : max(i+2, end-1)]
			}
		case Python:
			if c == '{' {
				if i+1 < len(raw) && raw[i+1] == '{' {
					flush(i + 1)
					i++
					lit = i + 1
					continue
				}
				start = i
				end = braceEnd(raw, i)
				expr = pyFormatExpr(raw[i+1 : max(i+1, end-1)])
			} else if c == '}' && i+1 < len(raw) && raw[i+1] == '}' {
				flush(i + 1)
				i++
				lit = i + 1
				continue
			}
		case Perl, PHP:
			if c == '$' || c == '@' && l.lang == Perl {
				start = i
				end = perlVarEnd(raw, i, l.lang)
				if end > i+1 {
					expr = raw[i:end]
					if l.lang == PHP && strings.HasPrefix(expr, "${") {
						expr = "$" + strings.Trim(expr[1:], "{}")
					}
				} else {
					start = -1
				}
			} else if c == '{' && l.lang == PHP && i+1 < len(raw) && raw[i+1] == '$' {
				start = i
				end = braceEnd(raw, i)
				expr = raw[i+1 : max(i+1, end-1)]
			}
		}
		if start < 0 {
			continue
		}
		flush(start)
		parts = append(parts, part{s: expr, expr: true})
		lit = end
		i = end - 1
	}
	if parts == nil {
		return nil
	}
	flush(len(raw))
	return parts
}

// braceEnd returns the index after the } closing the { at raw[open],
// over nested braces and quotes; len(raw) when unclosed.
func braceEnd(raw string, open int) int {
	depth := 0
	for i := open; i < len(raw); i++ {
		switch c := raw[i]; c {
		case '\\':
			i++
		case '{':
			depth++
		case '}':
			depth--
			if depth == 0 {
				return i + 1
			}
		case '\'', '"', '`':
			for i++; i < len(raw) && raw[i] != c; i++ {
				if raw[i] == '\\' {
					i++
				}
			}
		}
	}
	return len(raw)
}

// pyFormatExpr strips an f-string field's conversion and format spec.
func pyFormatExpr(s string) string {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
		case '\'', '"':
			q := s[i]
			for i++; i < len(s) && s[i] != q; i++ {
			}
		case '!':
			if depth == 0 && i+1 < len(s) && s[i+1] != '=' {
				return s[:i]
			}
		case ':':
			if depth == 0 && !(i+1 < len(s) && s[i+1] == '=') {
				return s[:i]
			}
		case '=':
			// f"{x=}" prints x: the expression is x.
			if depth == 0 && i == len(strings.TrimRight(s, " "))-1 && i > 0 && !strings.ContainsRune("=!<>", rune(s[i-1])) {
				return s[:i]
			}
		}
	}
	return s
}

// perlVarEnd returns where a variable interpolated in a Perl or PHP
// string ends: $name, ${name}, $name{key}, $name[i], $name->{key}.
func perlVarEnd(raw string, i int, lang Lang) int {
	j := i + 1
	if j < len(raw) && raw[j] == '{' {
		return braceEnd(raw, j)
	}
	if j < len(raw) && lang == Perl && raw[j] == ':' && j+1 < len(raw) && raw[j+1] == ':' {
		j += 2
	}
	start := j
	for j < len(raw) && (isIdentByte(raw[j]) || lang == Perl && raw[j] == ':' && j+2 < len(raw) && raw[j+1] == ':' && isIdentStart(raw[j+2])) {
		if raw[j] == ':' {
			j++
		}
		j++
	}
	if j == start {
		return i
	}
	for j < len(raw) {
		switch {
		case raw[j] == '{' && lang == Perl:
			j = braceEnd(raw, j)
		case raw[j] == '[':
			k := strings.IndexByte(raw[j:], ']')
			if k < 0 {
				return j
			}
			j += k + 1
		case strings.HasPrefix(raw[j:], "->") && j+2 < len(raw) && (raw[j+2] == '{' || raw[j+2] == '[' || lang == PHP && isIdentStart(raw[j+2])):
			j += 2
			if lang == PHP {
				for j < len(raw) && isIdentByte(raw[j]) {
					j++
				}
			}
		default:
			return j
		}
	}
	return j
}

// pyString reads a Python string with its prefix (r, b, f, u, rb, fr, ...)
// and triple quotes.
func (l *lexer) pyString() bool {
	j := l.i
	raw, fmt := false, false
	for k := 0; k < 2 && j < len(l.src); k++ {
		switch l.src[j] {
		case 'r', 'R':
			raw = true
		case 'f', 'F', 't', 'T':
			fmt = true
		case 'b', 'B', 'u', 'U':
		default:
			k = 2
			continue
		}
		j++
	}
	if j >= len(l.src) || l.src[j] != '\'' && l.src[j] != '"' {
		return false
	}
	if j > l.i && l.i > 0 && isIdentByte(l.src[l.i-1]) {
		return false
	}
	q := l.src[j]
	triple := strings.HasPrefix(l.src[j:], strings.Repeat(string(q), 3))
	var body string
	if triple {
		l.i = j + 3
		end := strings.Repeat(string(q), 3)
		start := l.i
		for l.i < len(l.src) && !strings.HasPrefix(l.src[l.i:], end) {
			if l.src[l.i] == '\\' {
				l.i++
			}
			l.i++
		}
		body = l.src[start:min(l.i, len(l.src))]
		l.i = min(l.i+3, len(l.src))
	} else {
		l.i = j + 1
		body = l.until(q)
	}
	switch {
	case fmt:
		l.emitInterp(body, q)
		if raw {
			// rf"...": the literal parts keep their backslashes.
			t := &l.toks[len(l.toks)-1]
			if t.parts == nil {
				t.s = body
			}
		}
	case raw:
		l.emit(token{k: tStr, s: body})
	default:
		l.emit(token{k: tStr, s: l.unescape(body, q)})
	}
	// Adjacent literals concatenate: 'rm ' '-rf'.
	n := len(l.toks)
	if n >= 2 && l.toks[n-2].k == tStr && l.toks[n-2].f == 0 && l.toks[n-2].parts == nil && l.toks[n-1].parts == nil {
		l.toks[n-2].s += l.toks[n-1].s
		l.toks = l.toks[:n-1]
	}
	return true
}

// scriptQuote reads the quotes Perl, Ruby and PHP share: '...', "..."
// (with interpolation) and `...` (a command).
func (l *lexer) scriptQuote(c byte) bool {
	switch c {
	case '\'':
		return l.quoted(c)
	case '"':
		l.i++
		l.emitInterp(l.until('"'), '"')
		return true
	case '`':
		l.i++
		l.emitInterp(l.until('`'), '"')
		l.toks[len(l.toks)-1].f |= sCmd
		return true
	}
	return false
}

// quoted reads a string closed by the quote q that starts it, with
// backslash escapes.
func (l *lexer) quoted(q byte) bool {
	l.i++
	l.emit(token{k: tStr, s: l.unescape(l.until(q), q)})
	return true
}

// regex reads a /regex/ with its flags.
func (l *lexer) regex() bool {
	l.i++
	l.regexBody('/')
	l.flags()
	l.emit(token{k: tStr, f: sRegex})
	return true
}

// perlString reads, after the quotes Perl shares with Ruby, Perl's
// quote-like operators (q qq qw qx m qr s tr y) and heredocs.
func (l *lexer) perlString() bool {
	c := l.src[l.i]
	switch c {
	case '<':
		if strings.HasPrefix(l.src[l.i:], "<<") && len(l.src) > l.i+2 {
			d := l.src[l.i+2]
			if d == '"' || d == '\'' || d == '~' || isIdentStart(d) && d >= 'A' && d <= 'Z' {
				return l.heredocStart(2)
			}
		}
	}
	if !isIdentStart(c) || l.i > 0 && (isIdentByte(l.src[l.i-1]) || strings.IndexByte("$@%&*", l.src[l.i-1]) >= 0) {
		return false
	}
	j := l.i
	for j < len(l.src) && isIdentByte(l.src[j]) {
		j++
	}
	word := l.src[l.i:j]
	switch word {
	case "q", "qq", "qw", "qx", "m", "qr", "s", "tr", "y":
	default:
		return false
	}
	k := j
	for k < len(l.src) && (l.src[k] == ' ' || l.src[k] == '\t') {
		k++
	}
	if k >= len(l.src) {
		return false
	}
	d := l.src[k]
	if k > j && strings.IndexByte("{([<", d) < 0 {
		return false
	}
	if isIdentByte(d) || d == ' ' || d == '\n' || d == ',' || d == ';' || d == ')' || d == '=' && k+1 < len(l.src) && (l.src[k+1] == '>' || l.src[k+1] == '=') {
		return false
	}
	if n := len(l.toks); n > 0 && l.toks[n-1].k == tOp && (l.toks[n-1].s == "->" || l.toks[n-1].s == "{" && strings.HasPrefix(l.src[k:], "}")) {
		return false
	}
	l.i = k + 1
	body := l.delimited(d)
	switch word {
	case "q":
		l.emit(token{k: tStr, s: l.unescape(body, '\'')})
	case "qq":
		l.emitInterp(body, '"')
	case "qx":
		l.emitInterp(body, '"')
		l.toks[len(l.toks)-1].f |= sCmd
	case "qw":
		l.emit(token{k: tStr, s: body, f: sWords})
	case "m", "qr":
		l.flags()
		l.emit(token{k: tStr, f: sRegex})
	case "s", "tr", "y":
		repl := ""
		if strings.IndexByte("{([<", d) >= 0 {
			for l.i < len(l.src) && (l.src[l.i] == ' ' || l.src[l.i] == '\t' || l.src[l.i] == '\n') {
				l.i++
			}
			if l.i < len(l.src) {
				o := l.src[l.i]
				l.i++
				repl = l.delimited(o)
			}
		} else {
			repl = l.delimited(d)
		}
		fl := l.flags()
		t := token{k: tStr, f: sRegex}
		if word == "s" && strings.Contains(fl, "e") {
			t.f |= sCode
			t.s = repl
			if strings.Count(fl, "e") > 1 {
				t.s = Mark // s///ee evaluates the result again
			}
		}
		l.emit(t)
	}
	return true
}

// heredocStart reads a heredoc's introducer (<<TAG, <<"TAG", <<'TAG',
// <<~TAG, <<-TAG, PHP's <<<TAG) and registers its body for the next line.
func (l *lexer) heredocStart(n int) bool {
	j := l.i + n
	indent := l.lang == PHP
	if j < len(l.src) && (l.src[j] == '~' || l.src[j] == '-' && l.lang == Ruby) {
		indent = true
		j++
	}
	for l.lang == PHP && j < len(l.src) && l.src[j] == ' ' {
		j++
	}
	if j >= len(l.src) {
		return false
	}
	interp := true
	var tag string
	switch q := l.src[j]; {
	case q == '"' || q == '\'':
		k := strings.IndexByte(l.src[j+1:], q)
		if k < 0 {
			return false
		}
		tag = l.src[j+1 : j+1+k]
		interp = q == '"'
		j += k + 2
	case isIdentStart(q):
		k := j
		for k < len(l.src) && isIdentByte(l.src[k]) {
			k++
		}
		tag = l.src[j:k]
		j = k
	default:
		return false
	}
	if tag == "" {
		return false
	}
	l.i = j
	l.heredocs = append(l.heredocs, heredoc{tok: len(l.toks), tag: tag, indent: indent, interp: interp})
	l.emit(token{k: tStr})
	return true
}

// rubyString reads, after the quotes Ruby shares with Perl, Ruby's
// %-literals, symbols and heredocs.
func (l *lexer) rubyString() bool {
	c := l.src[l.i]
	switch c {
	case ':':
		// :symbol and :"symbol" (not ::).
		if l.peek(1) == ':' || l.i > 0 && l.src[l.i-1] == ':' {
			return false
		}
		if isIdentStart(l.peek(1)) && !(len(l.toks) > 0 && l.toks[len(l.toks)-1].k != tOp && !l.sp) {
			j := l.i + 1
			for j < len(l.src) && (isIdentByte(l.src[j]) || l.src[j] == '?' || l.src[j] == '!') {
				j++
			}
			l.emit(token{k: tStr, s: l.src[l.i+1 : j], f: sSym})
			l.i = j
			return true
		}
	case '%':
		d := l.peek(1)
		kind := byte('Q')
		open := d
		if strings.IndexByte("qQwWiIxrs", d) >= 0 && l.i+2 < len(l.src) && !isIdentByte(l.src[l.i+2]) && l.src[l.i+2] != ' ' {
			kind, open = d, l.src[l.i+2]
		} else if strings.IndexByte("([{<|!/", d) < 0 {
			return false
		}
		if !l.regexOK() && !(l.sp && l.peek(2) != ' ') {
			return false
		}
		if kind == d {
			l.i += 3
		} else {
			l.i += 2
		}
		body := l.delimited(open)
		switch kind {
		case 'q', 's':
			l.emit(token{k: tStr, s: l.unescape(body, '\'')})
		case 'w', 'W', 'i', 'I':
			l.emit(token{k: tStr, s: body, f: sWords})
		case 'x':
			l.emitInterp(body, '"')
			l.toks[len(l.toks)-1].f |= sCmd
		case 'r':
			l.flags()
			l.emit(token{k: tStr, f: sRegex})
		default:
			l.emitInterp(body, '"')
		}
		return true
	case '<':
		if strings.HasPrefix(l.src[l.i:], "<<") && len(l.src) > l.i+2 {
			d := l.src[l.i+2]
			if d == '~' || d == '-' || d == '"' || d == '\'' || d >= 'A' && d <= 'Z' {
				return l.heredocStart(2)
			}
		}
	case '?':
		// ?c character literal.
		if l.regexOK() && l.i+2 <= len(l.src) && l.i+1 < len(l.src) && !isIdentByte(l.peek(2)) && l.peek(1) != ' ' && l.peek(1) != '\n' {
			l.emit(token{k: tStr, s: string(l.src[l.i+1])})
			l.i += 2
			return true
		}
	}
	return false
}

// sigil reports a Perl or PHP variable ($x, @x, %x, $::x, ${...}) or a Ruby
// instance or global variable starting at l.i.
func (l *lexer) sigil() bool {
	c := l.src[l.i]
	switch l.lang {
	case Perl:
		if c == '$' || c == '@' || c == '%' && l.regexOK() || c == '&' && isIdentStart(l.peek(1)) && l.regexOK() {
			n := l.peek(1)
			return isIdentStart(n) || n == ':' && l.peek(2) == ':' || n == '{' || n == '#' || c == '$' && (isDigit(n) || strings.IndexByte("_&`'+!@/\\,;.0<>[]$^", n) >= 0)
		}
	case PHP:
		return c == '$' && (isIdentStart(l.peek(1)) || l.peek(1) == '$' || l.peek(1) == '{')
	case Ruby:
		return (c == '@' || c == '$') && (isIdentStart(l.peek(1)) || c == '@' && l.peek(1) == '@')
	case JavaScript:
		return c == '$' || c == '#' && isIdentStart(l.peek(1))
	}
	return false
}

func (l *lexer) ident() {
	start := l.i
	c := l.src[l.i]
	if !isIdentStart(c) {
		// A sigil.
		l.i++
		if l.lang == Perl && c == '$' && l.peek(0) == '#' {
			l.i++
		}
		if l.lang == Ruby && c == '@' && l.peek(0) == '@' {
			l.i++
		}
		if l.peek(0) == '{' && (l.lang == Perl || l.lang == PHP) {
			// ${name} or ${ expr }: the name if simple.
			j := strings.IndexByte(l.src[l.i:], '}')
			if j > 0 && isSimpleName(l.src[l.i+1:l.i+j]) {
				name := strings.TrimSpace(l.src[l.i+1 : l.i+j])
				l.i += j + 1
				l.emit(token{k: tIdent, s: string(c) + name})
				return
			}
			l.emit(token{k: tIdent, s: string(c)})
			return
		}
		if l.lang == Perl && c == '$' && l.i < len(l.src) && !isIdentStart(l.src[l.i]) && l.src[l.i] != ':' {
			// Punctuation variables: $_, $0, $1, $<, $$.
			if isDigit(l.src[l.i]) {
				for l.i < len(l.src) && isDigit(l.src[l.i]) {
					l.i++
				}
			} else {
				l.i++
			}
			l.emit(token{k: tIdent, s: l.src[start:l.i]})
			return
		}
	}
	for l.i < len(l.src) {
		c := l.src[l.i]
		switch {
		case isIdentByte(c):
			l.i++
		case c == '.' && l.lang == R && l.i+1 < len(l.src) && (isIdentByte(l.src[l.i+1]) || l.src[l.i+1] == '.'):
			l.i++
		case c == ':' && l.lang == Perl && l.peek(1) == ':' && isIdentStart(l.peek(2)):
			l.i += 2
		case (c == '?' || c == '!') && l.lang == Ruby && l.peek(1) != '=' && !isIdentByte(l.peek(1)) && l.peek(1) != '(' || c == '!' && l.lang == Ruby && l.peek(1) == '(':
			l.i++
			goto done
		default:
			goto done
		}
	}
done:
	if l.lang == Perl && start < l.i && strings.Contains(l.src[start:l.i], "::") {
		// Perl package names: File::Path::rmtree is one identifier with
		// dots, as the other languages' names.
		l.emit(token{k: tIdent, s: strings.ReplaceAll(l.src[start:l.i], "::", ".")})
		return
	}
	l.emit(token{k: tIdent, s: l.src[start:l.i]})
}

func isSimpleName(s string) bool {
	s = strings.TrimSpace(s)
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isIdentByte(s[i]) && s[i] != ':' {
			return false
		}
	}
	return true
}

func (l *lexer) number() {
	start := l.i
	for l.i < len(l.src) {
		c := l.src[l.i]
		if isIdentByte(c) || c == '.' && l.i+1 < len(l.src) && isDigit(l.src[l.i+1]) {
			l.i++
			continue
		}
		break
	}
	l.emit(token{k: tNum, s: l.src[start:l.i]})
}

// The operators, longest first within each leading character.
var ops = [...]string{
	"...", "**=", "//=", "<<=", ">>=", "===", "!==", "<=>", "<<-", "->>", "?.(",
	"**", "//", "::", "->", "=>", "==", "!=", "<=", ">=", "&&", "||", "??", "?.", "..", "+=", "-=", "*=", "/=", ".=",
	"|=", "&=", "<-", "<<", ">>", "|>", "=~", "!~", "%=", "~=",
}

func (l *lexer) op() {
	s := l.src[l.i:]
	c := s[0]
	if l.lang == R && c == '%' {
		if j := strings.IndexByte(s[1:], '%'); j >= 0 && j < 32 && !strings.ContainsAny(s[1:1+j], "\n") {
			l.i += j + 2
			l.emit(token{k: tOp, s: s[:j+2]})
			return
		}
	}
	for _, o := range ops {
		if o[0] == c && strings.HasPrefix(s, o) {
			if !opIn(l.lang, o) {
				continue
			}
			l.i += len(o)
			l.emit(token{k: tOp, s: o})
			l.bracket(o)
			return
		}
	}
	if c >= 0x80 {
		_, n := utf8.DecodeRuneInString(s)
		l.i += n
		l.emit(token{k: tOp, s: s[:n]})
		return
	}
	l.i++
	l.emit(token{k: tOp, s: s[:1]})
	l.bracket(s[:1])
}

// opIn reports operators a language does not have, which would eat
// characters of its own operators (R's <- in JavaScript's a<-1).
func opIn(lang Lang, o string) bool {
	switch o {
	case "<-", "<<-", "->>":
		return lang == R
	case "//", "//=":
		return lang == Python || lang == Perl || lang == Lua
	case "=~", "!~":
		return lang == Perl || lang == Ruby
	case "|>":
		return lang == R || lang == JavaScript
	case "?.(":
		return lang == JavaScript
	case "~=":
		return lang == Lua
	}
	return true
}

func (l *lexer) bracket(o string) {
	switch o {
	case "(", "[", "{", "?.(":
		l.depth++
	case ")", "]", "}":
		if l.depth > 0 {
			l.depth--
		}
	}
}

// unescape decodes a string literal's backslash escapes as the language
// reads them; q is the quote (' for single-quoted forms that only know
// \\ and \').
func (l *lexer) unescape(s string, q byte) string {
	if strings.IndexByte(s, '\\') < 0 {
		return s
	}
	single := q == '\'' && (l.lang == Perl || l.lang == Ruby || l.lang == PHP)
	var b strings.Builder
	b.Grow(len(s))
	for i, ok := textlex.NextEscape(&b, s, 0); ok; i, ok = textlex.NextEscape(&b, s, i+1) {
		e := s[i]
		if single {
			if e != '\\' && e != q {
				b.WriteByte('\\')
			}
			b.WriteByte(e)
			continue
		}
		if c, ok := textlex.CEscape(e); ok {
			b.WriteByte(c)
			continue
		}
		switch e {
		case 'e':
			b.WriteByte(27)
		case '\n':
			// line continuation
		case 'x':
			if k, ok := bracedHex(&b, s, i); ok {
				i = k
				continue
			}
			n := 2
			if l.lang == PHP || l.lang == Perl {
				n = 0
				for n < 2 && i+1+n < len(s) && isHex(s[i+1+n]) {
					n++
				}
			}
			if v, ok := parseHex(s[i+1 : min(i+1+n, len(s))]); ok && n > 0 {
				b.WriteByte(byte(v))
				i += n
			} else {
				b.WriteString(`\x`)
			}
		case 'u', 'U':
			n := 4
			if e == 'U' {
				n = 8
			}
			if k, ok := bracedHex(&b, s, i); ok {
				i = k
				continue
			}
			if i+n < len(s) {
				if r, ok := parseHex(s[i+1 : i+1+n]); ok {
					b.WriteRune(rune(r))
					i += n
					continue
				}
			}
			b.WriteByte('\\')
			b.WriteByte(e)
		case 'z':
			if l.lang == Lua {
				for i+1 < len(s) && (s[i+1] == ' ' || s[i+1] == '\n' || s[i+1] == '\t' || s[i+1] == '\r') {
					i++
				}
				continue
			}
			b.WriteByte('z')
		default:
			if e >= '0' && e <= '9' {
				// Lua: up to three decimal digits; the others: octal.
				v, n := 0, 0
				for n < 3 && i+n < len(s) && s[i+n] >= '0' && s[i+n] <= '9' && (l.lang == Lua || s[i+n] <= '7') {
					if l.lang == Lua {
						v = v*10 + int(s[i+n]-'0')
					} else {
						v = v*8 + int(s[i+n]-'0')
					}
					n++
				}
				if n > 0 {
					b.WriteByte(byte(v))
					i += n - 1
					continue
				}
			}
			if (l.lang == Python || l.lang == PHP) && !strings.ContainsRune("\\'\"`$", rune(e)) {
				b.WriteByte('\\')
			}
			b.WriteByte(e)
		}
	}
	return b.String()
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

func parseHex(s string) (int, bool) {
	if s == "" || len(s) > 8 {
		return 0, false
	}
	v := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9':
			v = v*16 + int(c-'0')
		case c >= 'a' && c <= 'f':
			v = v*16 + int(c-'a'+10)
		case c >= 'A' && c <= 'F':
			v = v*16 + int(c-'A'+10)
		default:
			return 0, false
		}
	}
	if v > utf8.MaxRune {
		return 0, false
	}
	return v, true
}

// bracedHex writes the code point of a \x{...} or \u{...} escape whose
// letter is at s[i] and returns the index of its }.
func bracedHex(b *strings.Builder, s string, i int) (int, bool) {
	if i+1 < len(s) && s[i+1] == '{' {
		if j := strings.IndexByte(s[i:], '}'); j > 0 {
			if r, ok := parseHex(s[i+2 : i+j]); ok {
				b.WriteRune(rune(r))
			}
			return i + j, true
		}
	}
	return i, false
}

// closeEnd returns the index after the byte that closes the one at src[i],
// or len(src) when none does. delims holds the open and close bytes, an
// escape byte that hides the byte after it, then up to two bytes at which
// skip returns the index of the last byte of the quoted or nested text
// that starts there.
func closeEnd(src string, i int, delims string, skip func(src string, j int) int) int {
	open, close, esc := delims[0], delims[1], delims[2]
	q1, q2 := esc, esc
	if len(delims) > 3 {
		q1, q2 = delims[3], delims[len(delims)-1]
	}
	// The bytes of delims as a bit set: the scan tests one bit a byte.
	var set [8]uint32
	for k := range len(delims) {
		set[delims[k]>>5] |= 1 << (delims[k] & 31)
	}
	depth := 0
	for j := i; j < len(src); j++ {
		c := src[j]
		if set[c>>5]&(1<<(c&31)) == 0 {
			continue
		}
		switch c {
		case esc:
			j++
		case open:
			depth++
		case close:
			depth--
			if depth == 0 {
				return j + 1
			}
		case q1, q2:
			j = skip(src, j)
		}
	}
	return len(src)
}

// escapeLetter returns the byte an escape letter e stands for when it is
// one of known (a subset of n t r 0, the escapes a quoting form knows), e
// itself otherwise.
func escapeLetter(e byte, known string) byte {
	if strings.IndexByte(known, e) >= 0 {
		switch e {
		case 'n':
			return '\n'
		case 't':
			return '\t'
		case 'r':
			return '\r'
		case '0':
			return 0
		}
	}
	return e
}
