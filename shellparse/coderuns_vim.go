package shellparse

import (
	"strings"

	"github.com/shellguard/shellguard/internal/textlex"
)

// vimCode records the shell commands vim (or ex, ed, less) Ex commands run:
// :!cmd and :{range}!cmd, :r !cmd, :w !cmd, :terminal cmd, :set of the
// options that name programs (shell, makeprg, ...), :make, and, anywhere
// in an expression or in :lua/:python code, calls that run commands
// (system(), jobstart(), os.execute(), ...; see callSink). :execute and
// :normal are followed into the commands they give; :global, :windo and
// the like into the command they repeat; :autocmd and :command into the
// command they define.
func vimCode(text string, f *foundCode) { vimCodeDepth(text, f, 0) }

func vimCodeDepth(text string, f *foundCode, depth int) {
	if f.tooDeep(depth, "execute") {
		return
	}
	lines := strings.Split(text, "\n")
	for li := 0; li < len(lines) && !f.over; li++ {
		line := strings.TrimSuffix(lines[li], "\r")
		// :lua << EOF ... EOF (and python, perl, ruby): the lines up to
		// the marker are code of that language.
		if marker, ok := vimHeredoc(line); ok {
			var body string
			body, li = blockTo(lines, li+1, marker)
			callSinks(body, f, depth+1)
			continue
		}
		for guard := 0; line != "" && guard < 256 && !f.over; guard++ {
			line = vimCommand(line, f, depth)
		}
	}
}

// vimHeredoc reports a line that starts a script heredoc (lua << EOF),
// and its end marker.
func vimHeredoc(line string) (string, bool) {
	s := strings.TrimLeft(line, " \t:")
	name := s
	if k := strings.IndexAny(s, " \t<"); k >= 0 {
		name = s[:k]
	}
	if !vimScriptCommand(name) {
		return "", false
	}
	rest := strings.TrimSpace(s[len(name):])
	after, ok := strings.CutPrefix(rest, "<<")
	if !ok {
		return "", false
	}
	f := strings.Fields(after)
	for len(f) > 0 && (f[0] == "trim" || f[0] == "eval") {
		f = f[1:]
	}
	if len(f) == 0 {
		return ".", true
	}
	return f[0], true
}

// vimAbbrev reports whether name is full or one of its abbreviations of at
// least least letters.
func vimAbbrev(name, full string, least int) bool {
	return len(name) >= least && len(name) <= len(full) && full[:len(name)] == name
}

func vimScriptCommand(name string) bool {
	switch name {
	case "lua", "luado", "py", "pyt", "pyth", "pytho", "python", "py3", "python3", "pyx", "pythonx", "pydo", "py3do",
		"pyxdo", "perl", "perldo", "pe", "ruby", "rub", "rubydo", "mz", "mzscheme", "tcl", "tcldo":
		return true
	}
	return false
}

// vimCommand reads one Ex command at the start of cmd, records what it
// runs, and returns the text after the | that ends it ("" when the command
// takes the rest of the line).
func vimCommand(cmd string, f *foundCode, depth int) string {
	s := strings.TrimLeft(cmd, " \t:")
	if s == "" || s[0] == '"' {
		return ""
	}
	s = vimSkipRange(s)
	if s == "" {
		return ""
	}
	if s[0] == '!' {
		// :!cmd, :{range}!filter: the rest of the line, | included.
		rest := s[1:]
		if strings.HasPrefix(rest, "!") {
			f.unknown(":!!") // repeats an earlier command
			return ""
		}
		f.shell(":!", rest)
		return ""
	}
	j := 0
	for j < len(s) && (s[j] >= 'a' && s[j] <= 'z' || s[j] >= 'A' && s[j] <= 'Z' || j > 0 && s[j] >= '0' && s[j] <= '9') {
		j++
	}
	name := s[:j]
	if name == "" {
		return vimRestAfterBar(s)
	}
	rest := s[j:]
	bang := strings.HasPrefix(rest, "!")
	if bang {
		rest = rest[1:]
	}
	switch {
	case vimModifier(name):
		return rest
	case vimAbbrev(name, "sandbox", 3):
		return "" // no shell commands in the sandbox
	case vimAbbrev(name, "read", 1):
		arg := vimSkipPlusOpts(rest)
		switch {
		case bang:
			f.shell(":r !", rest)
			return ""
		case strings.HasPrefix(arg, "!"):
			f.shell(":r !", arg[1:])
			return ""
		}
		return vimRestAfterBar(rest)
	case vimAbbrev(name, "write", 1), vimAbbrev(name, "update", 2), name == "wq", name == "x", vimAbbrev(name, "xit", 1),
		vimAbbrev(name, "edit", 1):
		arg := vimSkipPlusOpts(rest)
		if strings.HasPrefix(arg, "!") && (len(rest) > 0 && (rest[0] == ' ' || rest[0] == '\t') || name == "e" || vimAbbrev(name, "edit", 1)) {
			f.shell(":"+name+" !", arg[1:])
			return ""
		}
		return vimRestAfterBar(rest)
	case vimAbbrev(name, "terminal", 3):
		arg := vimSkipPlusOpts(rest)
		if strings.TrimSpace(arg) != "" {
			f.shell(":terminal", arg)
		}
		return ""
	case vimAbbrev(name, "execute", 3):
		expr, after := vimUntilBar(rest, true)
		if str, ok := vimStringExpr(expr); ok {
			vimCodeDepth(str, f, depth+1)
		} else {
			callSinks(expr, f, depth+1)
			if !vimHarmlessExpr(expr) {
				f.unknown(":execute")
			}
		}
		return after
	case vimAbbrev(name, "normal", 4):
		vimKeysDepth(rest, f, depth+1)
		return ""
	case vimAbbrev(name, "global", 1), vimAbbrev(name, "vglobal", 1):
		arg := strings.TrimLeft(rest, " \t")
		if arg == "" {
			return ""
		}
		d := arg[0]
		k := 1
		for k < len(arg) && arg[k] != d {
			if arg[k] == '\\' {
				k++
			}
			k++
		}
		if k < len(arg) {
			vimCodeDepth(arg[k+1:], f, depth+1)
		}
		return ""
	case name == "windo" || vimAbbrev(name, "bufdo", 4) || vimAbbrev(name, "argdo", 4) || vimAbbrev(name, "tabdo", 4) ||
		name == "cdo" || name == "ldo" || vimAbbrev(name, "cfdo", 3) || vimAbbrev(name, "lfdo", 3) ||
		vimAbbrev(name, "folddoopen", 5) || vimAbbrev(name, "folddoclosed", 7):
		vimCodeDepth(rest, f, depth+1)
		return ""
	case vimAbbrev(name, "autocmd", 2):
		// autocmd [group] {event} {pattern} [++once] [++nested] {cmd}:
		// the command after two or three words.
		words := strings.Fields(rest)
		for skip := 2; skip <= 3 && skip < len(words); skip++ {
			k := skip
			for k < len(words) && (strings.HasPrefix(words[k], "++") || words[k] == "nested") {
				k++
			}
			if k < len(words) {
				vimCodeDepth(strings.Join(words[k:], " "), f, depth+1)
			}
		}
		return ""
	case vimAbbrev(name, "command", 3):
		words := strings.Fields(rest)
		k := 0
		for k < len(words) && strings.HasPrefix(words[k], "-") {
			k++
		}
		if k+1 < len(words) {
			vimCodeDepth(strings.Join(words[k+1:], " "), f, depth+1)
		}
		return ""
	case vimScriptCommand(name):
		callSinks(rest, f, depth+1)
		return ""
	case vimAbbrev(name, "source", 2), vimAbbrev(name, "runtime", 2), strings.HasSuffix(name, "file"):
		return vimRestAfterBar(rest)
	case vimAbbrev(name, "set", 2), vimAbbrev(name, "setlocal", 4), vimAbbrev(name, "setglobal", 4):
		arg, after := vimUntilBar(rest, false)
		vimSet(arg, f, depth)
		return after
	case vimAbbrev(name, "make", 3), vimAbbrev(name, "lmake", 2):
		arg, after := vimUntilBar(rest, false)
		f.shell(":make", "make "+arg)
		return after
	case vimAbbrev(name, "let", 1), vimAbbrev(name, "call", 3), vimAbbrev(name, "echo", 2), vimAbbrev(name, "echomsg", 5),
		vimAbbrev(name, "echon", 5), vimAbbrev(name, "eval", 2), vimAbbrev(name, "if", 2), vimAbbrev(name, "elseif", 5),
		vimAbbrev(name, "while", 2), vimAbbrev(name, "for", 3), vimAbbrev(name, "return", 3), name == "const", name == "var",
		name == "final":
		expr, after := vimUntilBar(rest, true)
		callSinks(expr, f, depth+1)
		return after
	}
	// Any other command: its argument may still hold an expression
	// (:s/x/\=system('...')/).
	arg, after := vimUntilBar(rest, true)
	callSinks(arg, f, depth+1)
	return after
}

// vimModifier reports command modifiers: the command follows them.
func vimModifier(name string) bool {
	switch {
	case vimAbbrev(name, "silent", 3), vimAbbrev(name, "unsilent", 3), vimAbbrev(name, "noautocmd", 3),
		vimAbbrev(name, "keepalt", 5), vimAbbrev(name, "keepjumps", 5), vimAbbrev(name, "keepmarks", 3),
		vimAbbrev(name, "keeppatterns", 5), vimAbbrev(name, "lockmarks", 3), vimAbbrev(name, "noswapfile", 3),
		vimAbbrev(name, "verbose", 4), vimAbbrev(name, "vertical", 4), vimAbbrev(name, "topleft", 2),
		vimAbbrev(name, "botright", 2), vimAbbrev(name, "aboveleft", 3), vimAbbrev(name, "belowright", 3),
		vimAbbrev(name, "leftabove", 5), vimAbbrev(name, "rightbelow", 6), name == "tab", vimAbbrev(name, "hide", 3),
		vimAbbrev(name, "confirm", 4), vimAbbrev(name, "browse", 3), vimAbbrev(name, "legacy", 3),
		vimAbbrev(name, "vim9cmd", 4), vimAbbrev(name, "horizontal", 3):
		return true
	}
	return false
}

// vimSkipRange skips a range or count at the start of s (%, ., $, 1,3,
// 'a, /pat/, ?pat?, +N).
func vimSkipRange(s string) string {
	i := 0
	for i < len(s) {
		c := s[i]
		switch {
		case c >= '0' && c <= '9' || c == '.' || c == '$' || c == '%' || c == ',' || c == ';' || c == '+' || c == '-' ||
			c == ' ' || c == '\t' || c == '*':
			i++
		case c == '\'' && i+1 < len(s):
			i += 2
		case c == '/' || c == '?':
			j := i + 1
			for j < len(s) && s[j] != c {
				if s[j] == '\\' {
					j++
				}
				j++
			}
			i = min(j+1, len(s))
		case c == '\\' && i+1 < len(s) && (s[i+1] == '/' || s[i+1] == '?' || s[i+1] == '&'):
			i += 2
		default:
			return s[i:]
		}
	}
	return ""
}

// vimSkipPlusOpts skips blanks and ++opt arguments (:r ++enc=x !cmd).
func vimSkipPlusOpts(s string) string {
	for {
		s = strings.TrimLeft(s, " \t")
		if !strings.HasPrefix(s, "++") {
			return s
		}
		k := strings.IndexAny(s, " \t")
		if k < 0 {
			return ""
		}
		s = s[k:]
	}
}

// vimRestAfterBar returns the text after the first | of s that is not
// escaped, or "".
func vimRestAfterBar(s string) string {
	_, after := vimUntilBar(s, false)
	return after
}

// vimUntilBar splits s at the first | that ends the command: not escaped
// with a backslash, and, in an expression, not inside a string or part of
// ||.
func vimUntilBar(s string, expr bool) (arg, after string) {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\\':
			i++
		case expr && (c == '"' || c == '\''):
			j := i + 1
			for j < len(s) && s[j] != c {
				if s[j] == '\\' && c == '"' {
					j++
				}
				j++
			}
			i = j
		case c == '|':
			if expr && i+1 < len(s) && s[i+1] == '|' {
				i++
				continue
			}
			return s[:i], s[i+1:]
		}
	}
	return s, ""
}

// vimString reads a vim string literal at s[i]: '...' (with ” for a
// quote) or "..." (with backslash escapes).
func vimString(s string, i int) (val string, end int, ok bool) {
	q := s[i]
	var b strings.Builder
	for j := i + 1; j < len(s); j++ {
		c := s[j]
		switch {
		case c == q && q == '\'' && j+1 < len(s) && s[j+1] == '\'':
			b.WriteByte('\'')
			j++
		case c == q:
			return b.String(), j + 1, true
		case c == '\\' && q == '"' && j+1 < len(s):
			j++
			if c, ok := textlex.CEscapeAmong(s[j], "nrt"); ok {
				b.WriteByte(c)
				continue
			}
			switch s[j] {
			case 'e':
				b.WriteByte(27)
			case '<':
				// "\<CR>": a key notation.
				k := strings.IndexByte(s[j:], '>')
				if k < 0 {
					b.WriteByte('<')
					continue
				}
				b.WriteString(vimKeyName(s[j : j+k+1]))
				j += k
			default:
				b.WriteByte(s[j])
			}
		default:
			b.WriteByte(c)
		}
	}
	return "", len(s), false
}

// vimStringExpr evaluates an expression that is string literals joined by
// . or .. (:execute "!rm " . "-rf x"); ok is false for anything else.
func vimStringExpr(expr string) (string, bool) {
	var b strings.Builder
	i := skipBlanks(expr, 0)
	parts := 0
	for i < len(expr) {
		c := expr[i]
		switch {
		case c == '"' || c == '\'':
			v, end, ok := vimString(expr, i)
			if !ok {
				return "", false
			}
			if parts > 0 {
				b.WriteByte(' ') // :execute joins its arguments with spaces
			}
			b.WriteString(v)
			parts++
			i = skipBlanks(expr, end)
			for i < len(expr) && expr[i] == '.' {
				i = skipBlanks(expr, i+1)
				parts = 0 // concatenated, not a separate argument
			}
		default:
			return "", false
		}
	}
	return b.String(), b.Len() > 0
}

// vimHarmlessExpr reports an :execute argument that cannot be a command
// running a program: empty, or a plain count or number.
func vimHarmlessExpr(expr string) bool {
	return strings.TrimSpace(expr) == ""
}

// vimKeyName renders a key notation (<CR>, <Esc>) as what it types; other
// notations are dropped.
func vimKeyName(k string) string {
	switch strings.ToLower(k) {
	case "<cr>", "<enter>", "<return>", "<nl>", "<c-m>", "<c-j>":
		return "\r"
	case "<space>":
		return " "
	case "<tab>":
		return "\t"
	case "<bar>":
		return "|"
	case "<lt>":
		return "<"
	case "<bslash>":
		return "\\"
	}
	return "\x1b"
}

// vimSet reads :set arguments: the options that name a program (shell,
// makeprg, grepprg, ...) run it later; the expression options are read
// for calls.
func vimSet(arg string, f *foundCode, depth int) {
	for _, w := range vimSetWords(arg) {
		name, val, ok := strings.Cut(w, "=")
		if !ok {
			name, val, ok = strings.Cut(w, ":")
		}
		if !ok {
			continue
		}
		name = strings.TrimRight(name, "+-^")
		switch name {
		case "shell", "sh", "makeprg", "mp", "grepprg", "gp", "keywordprg", "kp", "equalprg", "ep", "formatprg", "fp",
			"cscopeprg", "csprg", "shellpipe", "sp", "shellredir", "srr":
			f.shell(":set "+name, val)
		case "diffexpr", "dex", "patchexpr", "pex", "charconvert", "ccv", "printexpr", "pexpr", "includeexpr", "inex",
			"indentexpr", "inde", "foldexpr", "fde", "formatexpr", "fex", "balloonexpr", "bexpr", "tagfunc", "tfu",
			"omnifunc", "ofu", "completefunc", "cfu", "operatorfunc", "opfunc", "statusline", "stl", "tabline", "tal",
			"rulerformat", "ruf", "guitablabel", "gtl", "titlestring", "iconstring":
			callSinks(val, f, depth+1)
		case "pythondll", "pythonthreedll", "luadll", "perldll", "rubydll", "tcldll", "mzschemedll":
			f.unknown(":set " + name)
		}
	}
}

// vimSetWords splits :set arguments at blanks not escaped with a
// backslash, resolving the escapes.
func vimSetWords(s string) []string {
	var out []string
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\\' && i+1 < len(s):
			i++
			b.WriteByte(s[i])
		case c == ' ' || c == '\t':
			out = endWord(out, &b)
		default:
			b.WriteByte(c)
		}
	}
	out = endWord(out, &b)
	return out
}

// vimKeys records what keys typed into vim run: an Ex command line
// (:...<CR>), a filter (!{motion}cmd<CR>).
func vimKeys(keys string, f *foundCode) { vimKeysDepth(keys, f, 0) }

func vimKeysDepth(keys string, f *foundCode, depth int) {
	if f.tooDeep(depth, "keys") {
		return
	}
	typed := vimTyped(keys)
	for i := 0; i < len(typed) && !f.over; i++ {
		c := typed[i]
		if c != ':' && c != '!' {
			continue
		}
		end := strings.IndexAny(typed[i+1:], "\r\n\x1b")
		line := typed[i+1:]
		if end >= 0 {
			line = typed[i+1 : i+1+end]
		}
		if c == ':' {
			vimCodeDepth(line, f, depth+1)
		} else if len(line) > 1 {
			// !{motion}: the motion, then the filter command.
			cmd := line[1:]
			if line[0] == '!' || line[0] == 'G' || line[0] == 'j' || line[0] == 'k' || line[0] == '}' || line[0] == '{' {
				f.shell("normal !", cmd)
			}
		}
		if end < 0 {
			return
		}
		i += end + 1
	}
}

// vimTyped renders key notations (<CR>, <Esc>) in keys as the bytes they
// type.
func vimTyped(keys string) string {
	if !strings.Contains(keys, "<") && !strings.Contains(keys, "^M") {
		return keys
	}
	var b strings.Builder
	for i := 0; i < len(keys); i++ {
		c := keys[i]
		if c == '^' && i+1 < len(keys) && (keys[i+1] == 'M' || keys[i+1] == 'J') {
			b.WriteByte('\r')
			i++
			continue
		}
		if c == '<' {
			if k := strings.IndexByte(keys[i:], '>'); k > 1 && k < 16 {
				b.WriteString(vimKeyName(keys[i : i+k+1]))
				i += k
				continue
			}
		}
		b.WriteByte(c)
	}
	return b.String()
}
