package interp

import (
	"strings"

	"github.com/shellguard/shellguard/shellparse"
)

// LangOf returns the language of an interpreter from its program name (a
// basename in lower case without .exe), or NoLang.
func LangOf(name string) Lang {
	if name == "" {
		return NoLang
	}
	switch name[0] { // most programs are none of these: answer at once
	case 'p', 'n', 'd', 'b', 'j', 't', 'l', 'r', 'o', 'w':
	default:
		return NoLang
	}
	switch {
	case strings.HasPrefix(name, "python") && !strings.HasSuffix(name, "-config") || strings.HasPrefix(name, "pypy"):
		return Python
	case name == "node" || name == "nodejs" || name == "deno" || name == "bun":
		return JavaScript
	case name == "perl" || strings.HasPrefix(name, "perl5") || versioned(name, "perl"):
		return Perl
	case name == "ruby" || name == "jruby" || name == "truffleruby" || versioned(name, "ruby"):
		return Ruby
	case name == "php" || versioned(name, "php"):
		return PHP
	case name == "lua" || name == "luajit" || versioned(name, "lua"):
		return Lua
	case name == "rscript" || name == "r":
		return R
	case name == "tclsh" || name == "wish" || versioned(name, "tclsh") || versioned(name, "wish"):
		return Tcl
	case name == "osascript":
		return AppleScript
	case name == "pwsh" || name == "powershell" || name == "pwsh-preview" || name == "powershell_ise":
		return PowerShell
	}
	return NoLang
}

// versioned reports base followed by a version (php8.2, lua5.4, tclsh8.6).
func versioned(name, base string) bool {
	if !strings.HasPrefix(name, base) || len(name) == len(base) {
		return false
	}
	for _, c := range name[len(base):] {
		if c != '.' && (c < '0' || c > '9') {
			return false
		}
	}
	return true
}

// Source is a piece of code an interpreter's command line carries.
type Source struct {
	Lang Lang
	Code string
	// Dynamic: the shell computes the code (a parameter or command
	// substitution in the word); Code holds its literal parts, with Mark
	// for the rest.
	Dynamic bool
	// Encoded: pwsh -EncodedCommand, Code already decoded.
	Encoded bool
}

// Sources returns the code on an interpreter's command line: python -c,
// node -e/-p/--eval, deno eval, bun -e, perl -e/-E, ruby -e, php -r/-B/-R/-E,
// lua -e, Rscript/R -e, osascript -e (-l JavaScript), pwsh/powershell
// -Command/-c and -EncodedCommand. name is the program's basename in lower
// case; args is its argv without the program.
func Sources(name string, args []shellparse.Arg) []Source {
	lang := LangOf(name)
	if lang == NoLang {
		return nil
	}
	var out []Source
	add := func(l Lang, a shellparse.Arg) {
		if len(out) >= 16 {
			return
		}
		s := Source{Lang: l, Code: a.Value}
		if a.Dynamic {
			s.Code, s.Dynamic = wordCode(a.Raw), true
		}
		out = append(out, s)
	}
	switch lang {
	case PowerShell:
		return pwshSources(name, args)
	case AppleScript:
		return osascriptSources(args)
	}
	if name == "deno" {
		// deno eval [options] CODE
		for i := 0; i < len(args); i++ {
			if args[i].Value == "eval" {
				for j := i + 1; j < len(args); j++ {
					v := args[j].Value
					if strings.HasPrefix(v, "-") && !args[j].Dynamic {
						if v == "--ext" || v == "--import-map" || v == "--config" || v == "-c" || v == "--location" {
							j++
						}
						continue
					}
					add(lang, args[j])
					return out
				}
				return out
			}
			if !strings.HasPrefix(args[i].Value, "-") {
				return out
			}
		}
		return out
	}
	for i := 0; i < len(args); i++ {
		v := args[i].Value
		if args[i].Dynamic && i > 0 {
			// An option's value the shell computes: still code if the
			// option before it takes code.
			v = ""
		}
		if v == "--" || v == "-" || !strings.HasPrefix(v, "-") || len(v) < 2 {
			// The script (or stdin): its arguments follow. Perl and Ruby
			// may still take -e after a non-option (-r LIB, -I DIR).
			if lang == Python || lang == JavaScript || lang == Lua || lang == PHP && !strings.HasPrefix(v, "-") && v != "" && (i == 0 || !takesValue(lang, args[i-1].Value)) {
				return out
			}
			continue
		}
		next := func() {
			if i+1 < len(args) {
				add(lang, args[i+1])
				i++
			}
		}
		switch lang {
		case JavaScript:
			switch {
			case v == "-e" || v == "--eval" || v == "-p" || v == "--print" || v == "-pe" || v == "-ep":
				next()
			case strings.HasPrefix(v, "--eval=") || strings.HasPrefix(v, "--print="):
				a := args[i]
				a.Value = v[strings.IndexByte(v, '=')+1:]
				add(lang, a)
			case v == "-r" || v == "--require" || v == "--import" || v == "--loader" || v == "-C" || v == "--conditions" || v == "--input-type":
				i++
			}
			continue
		case PHP:
			switch {
			case v == "-r" || v == "-B" || v == "-R" || v == "-E":
				next()
			case len(v) > 2 && (v[:2] == "-r" || v[:2] == "-B" || v[:2] == "-R" || v[:2] == "-E"):
				a := args[i]
				a.Value = v[2:]
				add(lang, a)
			case v == "-d" || v == "-c" || v == "-z" || v == "-F" || v == "-f":
				if v == "-f" || v == "-F" {
					return out
				}
				i++
			}
			continue
		case Lua:
			switch {
			case v == "-e":
				next()
			case strings.HasPrefix(v, "-e"):
				a := args[i]
				a.Value = v[2:]
				add(lang, a)
			case v == "-l":
				i++
			}
			continue
		case R:
			switch {
			case v == "-e" || v == "--expr":
				next()
			case strings.HasPrefix(v, "--file="), v == "-f" || v == "--file":
				return out
			}
			continue
		case Tcl:
			continue
		}
		if strings.HasPrefix(v, "--") {
			continue
		}
		// Clustered one-letter options: python -Bc CODE, perl -lne CODE,
		// perl -e'CODE', ruby -rjson -e CODE.
		key := byte('c')
		stop := "WXmQ"
		if lang == Perl || lang == Ruby {
			key, stop = 'e', "iIMmxCdDFrTWXl0"
		}
		for j := 1; j < len(v); j++ {
			c := v[j]
			if c == key || lang == Perl && c == 'E' {
				if j+1 < len(v) {
					a := args[i]
					a.Value = v[j+1:]
					if a.Dynamic {
						a.Raw = strings.TrimPrefix(a.Raw, v[:j+1])
					}
					add(lang, a)
				} else {
					next()
				}
				break
			}
			if lang == Python && (c == 'W' || c == 'X') && j+1 == len(v) {
				i++ // -W VALUE
				break
			}
			if lang == Python && c == 'm' {
				return out // python -m MODULE
			}
			if strings.IndexByte(stop, c) >= 0 && !(c == 'l' && lang == Perl && j+1 < len(v) && !isDigitByte(v[j+1])) {
				if (lang == Ruby) && (c == 'r' || c == 'I' || c == 'C') && j+1 == len(v) {
					i++ // ruby -r LIB
				}
				break
			}
		}
	}
	return out
}

func isDigitByte(c byte) bool { return c >= '0' && c <= '9' }

func takesValue(lang Lang, opt string) bool {
	switch lang {
	case PHP:
		return opt == "-d" || opt == "-c" || opt == "-z"
	}
	return false
}

func osascriptSources(args []shellparse.Arg) []Source {
	lang := AppleScript
	var code []string
	dynamic := false
	for i := 0; i < len(args); i++ {
		v := args[i].Value
		switch {
		case v == "-l" && i+1 < len(args):
			if strings.EqualFold(args[i+1].Value, "JavaScript") {
				lang = JavaScript
			}
			i++
		case v == "-e" && i+1 < len(args):
			a := args[i+1]
			if a.Dynamic {
				code = append(code, wordCode(a.Raw))
				dynamic = true
			} else {
				code = append(code, a.Value)
			}
			i++
		case v == "-s" && i+1 < len(args):
			i++
		case !strings.HasPrefix(v, "-"):
			i = len(args)
		}
	}
	if len(code) == 0 {
		return nil
	}
	return []Source{{Lang: lang, Code: strings.Join(code, "\n"), Dynamic: dynamic}}
}

// pwshSources reads pwsh's and powershell's command line: -Command (and its
// abbreviations, -c; the rest of the line is the command), -EncodedCommand
// (base64 of UTF-16LE), -File. powershell.exe takes a command where pwsh
// takes a file.
func pwshSources(name string, args []shellparse.Arg) []Source {
	for i := 0; i < len(args); i++ {
		v := args[i].Value
		if args[i].Dynamic && i == 0 {
			return []Source{{Lang: PowerShell, Code: wordCode(args[i].Raw), Dynamic: true}}
		}
		if !strings.HasPrefix(v, "-") && !(strings.HasPrefix(v, "/") && name == "powershell") {
			if name == "pwsh" || name == "pwsh-preview" {
				return nil // pwsh FILE
			}
			return pwshCommand(args[i:])
		}
		o := strings.ToLower(strings.TrimLeft(v, "-/"))
		val := ""
		if k := strings.IndexByte(o, ':'); k > 0 {
			o, val = o[:k], v[strings.IndexByte(v, ':')+1:]
		}
		switch {
		case o == "c" || len(o) >= 2 && strings.HasPrefix("command", o) || o == "cwa" || strings.HasPrefix("commandwithargs", o) && len(o) > 7:
			if val != "" {
				return []Source{{Lang: PowerShell, Code: val}}
			}
			if o == "cwa" || len(o) > 7 {
				return pwshCommand(args[i+1 : min(i+2, len(args))])
			}
			return pwshCommand(args[i+1:])
		case o == "e" || o == "ec" || len(o) >= 2 && strings.HasPrefix("encodedcommand", o):
			if i+1 >= len(args) {
				return nil
			}
			a := args[i+1]
			if a.Dynamic {
				return []Source{{Lang: PowerShell, Code: Mark, Dynamic: true, Encoded: true}}
			}
			code := utf16le(decodeB64(a.Value))
			if code == "" {
				return []Source{{Lang: PowerShell, Code: Mark, Dynamic: true, Encoded: true}}
			}
			return []Source{{Lang: PowerShell, Code: code, Encoded: true}}
		case o == "f" || len(o) >= 2 && strings.HasPrefix("file", o):
			return nil
		case o == "ex" || o == "ep" || len(o) >= 3 && strings.HasPrefix("executionpolicy", o), o == "w" || len(o) >= 2 && strings.HasPrefix("windowstyle", o),
			o == "wd" || len(o) >= 2 && strings.HasPrefix("workingdirectory", o), strings.HasPrefix("configurationname", o) && len(o) >= 4,
			o == "o" || o == "of" || strings.HasPrefix("outputformat", o) && len(o) >= 2, o == "if" || o == "inp" || strings.HasPrefix("inputformat", o) && len(o) >= 2,
			o == "v" || strings.HasPrefix("version", o) && len(o) >= 2, strings.HasPrefix("psconsolefile", o) && len(o) >= 2,
			strings.HasPrefix("settingsfile", o) && len(o) >= 2, strings.HasPrefix("custompipename", o) && len(o) >= 2,
			o == "ea" || strings.HasPrefix("encodedarguments", o) && len(o) > 7:
			if val == "" {
				i++
			}
		}
	}
	return nil
}

// pwshCommand joins the words after -Command: PowerShell runs them as one
// command line; "-" reads it from standard input.
func pwshCommand(args []shellparse.Arg) []Source {
	if len(args) == 0 || len(args) == 1 && args[0].Value == "-" {
		return nil
	}
	var parts []string
	dynamic := false
	for _, a := range args {
		if a.Dynamic {
			parts = append(parts, wordCode(a.Raw))
			dynamic = true
			continue
		}
		parts = append(parts, a.Value)
	}
	return []Source{{Lang: PowerShell, Code: strings.Join(parts, " "), Dynamic: dynamic}}
}

// ReadsStdin returns the language of an interpreter whose program comes
// from standard input (python -, python with no script, node, perl and ruby
// without -e or a script, php without -r, lua -, tclsh with no script,
// osascript with no script, pwsh -Command -), or NoLang. Its input text,
// when the shell knows it (a heredoc, a here-string, echo '...' |), is
// code to give Analyze.
func ReadsStdin(name string, args []shellparse.Arg) Lang {
	lang := LangOf(name)
	if lang == NoLang {
		return NoLang
	}
	if len(Sources(name, args)) > 0 {
		return NoLang
	}
	switch lang {
	case PowerShell:
		for i, a := range args {
			o := strings.ToLower(strings.TrimLeft(a.Value, "-/"))
			if (o == "c" || len(o) >= 2 && strings.HasPrefix("command", o) || o == "f" || strings.HasPrefix("file", o) && len(o) >= 2) && i+1 < len(args) && args[i+1].Value == "-" {
				return lang
			}
		}
		if len(args) == 0 || args[len(args)-1].Value == "-" {
			return lang
		}
		return NoLang
	case R:
		if name == "r" {
			for _, a := range args {
				if a.Value == "-f" || a.Value == "--file" || strings.HasPrefix(a.Value, "--file=") {
					return NoLang
				}
			}
			return lang // R reads commands from stdin
		}
	}
	if name == "deno" || name == "bun" {
		for i, a := range args {
			if a.Value == "-" && i > 0 {
				return lang // deno run -, bun run -
			}
		}
		return NoLang
	}
	// The first operand is the script; "-" is stdin.
	for i := 0; i < len(args); i++ {
		v := args[i].Value
		if v == "-" {
			return lang
		}
		if v == "--" {
			if i+1 < len(args) && args[i+1].Value != "-" {
				return NoLang
			}
			return lang
		}
		if !strings.HasPrefix(v, "-") {
			return NoLang
		}
		switch {
		case lang == Python && (v == "-m" || strings.HasSuffix(v, "m") && !strings.HasPrefix(v, "--")):
			return NoLang
		case lang == Python && (v == "-W" || v == "-X"),
			lang == JavaScript && (v == "-r" || v == "--require" || v == "--import"),
			(lang == Perl || lang == Ruby) && (v == "-I" || v == "-r" || v == "-C" || v == "-M"),
			lang == PHP && (v == "-d" || v == "-c" || v == "-z"),
			lang == Lua && v == "-l",
			lang == AppleScript && (v == "-l" || v == "-s"):
			i++
		}
	}
	return lang
}

// wordCode turns a shell word the shell expands at run time into the code
// the program receives: quotes removed, $HOME kept (the code then names the
// home directory), anything else the shell computes as Mark.
func wordCode(raw string) string {
	var b strings.Builder
	quote := byte(0)
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		switch {
		case quote == '\'':
			if c == '\'' {
				quote = 0
			} else {
				b.WriteByte(c)
			}
		case c == '\'' && quote == 0:
			quote = '\''
		case c == '"':
			if quote == '"' {
				quote = 0
			} else {
				quote = '"'
			}
		case c == '\\' && i+1 < len(raw):
			n := raw[i+1]
			if quote == '"' && !strings.ContainsRune("$`\"\\\n", rune(n)) {
				b.WriteByte(c)
				continue
			}
			i++
			if n != '\n' {
				b.WriteByte(n)
			}
		case c == '$' && i+1 < len(raw):
			end, home := expansionEnd(raw, i)
			if end <= i+1 {
				b.WriteByte(c)
				continue
			}
			if home {
				b.WriteString("$HOME")
			} else {
				b.WriteString(Mark)
			}
			i = end - 1
		case c == '`':
			j := strings.IndexByte(raw[i+1:], '`')
			if j < 0 {
				b.WriteString(Mark)
				i = len(raw)
				continue
			}
			b.WriteString(Mark)
			i += j + 1
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// expansionEnd returns where the expansion starting at raw[i] ('$') ends,
// and whether it is $HOME.
func expansionEnd(raw string, i int) (int, bool) {
	j := i + 1
	switch c := raw[j]; {
	case c == '(':
		return closeEnd(raw, j, "()\\'", func(raw string, k int) int {
			if q := strings.IndexByte(raw[k+1:], '\''); q >= 0 {
				k += q + 1
			}
			return k
		}), false
	case c == '{':
		k := strings.IndexByte(raw[j:], '}')
		if k < 0 {
			return len(raw), false
		}
		return j + k + 1, raw[j+1:j+k] == "HOME"
	case c == '\'':
		// $'...': ANSI-C quoting; its content is static but rare here.
		k := strings.IndexByte(raw[j+1:], '\'')
		if k < 0 {
			return len(raw), false
		}
		return j + k + 2, false
	case isIdentStart(c):
		k := j
		for k < len(raw) && isIdentByte(raw[k]) {
			k++
		}
		return k, raw[j:k] == "HOME"
	case isDigit(c) || strings.IndexByte("@*#?$!-_", c) >= 0:
		return j + 1, false
	}
	return j, false
}

// Invocation analyses the code on an interpreter's command line (name is
// the program's basename in lower case, args its argv without the
// program): the code strings of each language are read together, as the
// interpreter joins them (perl -e A -e B). Code the shell computes
// entirely ("$CODE", "$(cat x)") and an -EncodedCommand that does not
// decode are Unknown.
func Invocation(name string, args []shellparse.Arg) []Finding {
	srcs := Sources(name, args)
	if len(srcs) == 0 {
		return nil
	}
	var out []Finding
	var code []string
	lang := srcs[0].Lang
	flush := func() {
		if len(code) > 0 {
			out = append(out, Analyze(lang, strings.Join(code, "\n"))...)
			code = code[:0]
		}
	}
	for _, s := range srcs {
		if s.Lang != lang {
			flush()
			lang = s.Lang
		}
		if s.Dynamic && strings.Trim(s.Code, Mark+" \t\r\n;") == "" {
			why := "the shell computes the code"
			if s.Encoded {
				why = "an encoded command that cannot be decoded"
			}
			out = append(out, Finding{Kind: Unknown, Text: why})
			continue
		}
		code = append(code, s.Code)
	}
	flush()
	return out
}

// Stdin analyses the program an interpreter reads from standard input
// when the shell knows that text (a heredoc, a here-string, echo '...' |):
// name and args as for Invocation. It returns nil when the interpreter
// takes its program from its arguments or a file.
func Stdin(name string, args []shellparse.Arg, text string) []Finding {
	lang := ReadsStdin(name, args)
	if lang == NoLang {
		return nil
	}
	return Analyze(lang, text)
}
