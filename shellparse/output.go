package shellparse

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/shellguard/shellguard/internal/textlex"
)

// The output of echo and printf with static arguments, as bash's
// builtins print it: what a pipe from them holds, and what $(echo ...) or
// $(printf ...) expands to. Anything the emulation does not cover exactly
// (a conversion it does not know, a number it cannot read) is reported as
// not known, never guessed.

// maxOutput bounds the text one echo or printf may be emulated to print
// (a width of %999999s would otherwise build a megabyte).
const maxOutput = 64 << 10

// echoOutput returns what bash's echo prints for args (args[0] is "echo").
// alt is what an echo that interprets backslash escapes by default (sh's
// and zsh's, bash's with xpg_echo) prints instead, when that differs.
func echoOutput(args []Arg) (out, alt string, ok bool) {
	newline, escapes, explicit := true, false, false
	i := 1
	for ; i < len(args); i++ {
		v := args[i].Value
		if len(v) < 2 || v[0] != '-' || strings.Trim(v[1:], "neE") != "" {
			break
		}
		for _, c := range v[1:] {
			switch c {
			case 'n':
				newline = false
			case 'e':
				escapes, explicit = true, true
			case 'E':
				escapes, explicit = false, true
			}
		}
	}
	var b strings.Builder
	for k, a := range args[i:] {
		if a.Dynamic || a.Glob {
			return "", "", false
		}
		if k > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(a.Value)
		if b.Len() > maxOutput {
			return "", "", false
		}
	}
	text := b.String()
	render := func(interpret bool) string {
		s := text
		stop := false
		if interpret {
			s, stop = echoEscapes(s, false)
		}
		if newline && !stop {
			s += "\n"
		}
		return s
	}
	out = render(escapes)
	if !explicit && strings.IndexByte(text, '\\') >= 0 {
		if a := render(true); a != out {
			alt = a
		}
	}
	return out, alt, true
}

// echoEscapes resolves the escapes of echo -e (and of printf's %b): \a \b
// \c (stop: nothing more is printed) \e \E \f \n \r \t \v \\ \0nnn \xHH
// \uHHHH \UHHHHHHHH; with octal, also \nnn (printf's %b reads both octal
// forms, echo -e only \0nnn).
func echoEscapes(s string, octal bool) (string, bool) {
	if strings.IndexByte(s, '\\') < 0 {
		return s, false
	}
	var b strings.Builder
	for i, ok := textlex.NextEscape(&b, s, 0); ok; i, ok = textlex.NextEscape(&b, s, i+1) {
		switch e := s[i]; e {
		case 'c':
			return b.String(), true
		case '0':
			i = octalEscape(&b, s, i+1)
		case '1', '2', '3', '4', '5', '6', '7':
			if !octal {
				b.WriteByte('\\')
				b.WriteByte(e)
				continue
			}
			i = octalEscape(&b, s, i)
		default:
			if !commonEscape(&b, s, &i) {
				b.WriteByte('\\')
				b.WriteByte(e)
			}
		}
	}
	return b.String(), false
}

// commonEscape writes the escape at s[*i] (the byte after the backslash)
// shared by echo -e and printf's format: letters, \\, \xHH, \uHHHH,
// \UHHHHHHHH. It reports false for any other byte.
func commonEscape(b *strings.Builder, s string, i *int) bool {
	if c, ok := textlex.CEscape(s[*i]); ok {
		b.WriteByte(c)
		return true
	}
	switch e := s[*i]; e {
	case 'e', 'E':
		b.WriteByte(0x1b)
	case '\\':
		b.WriteByte('\\')
	case 'x', 'u', 'U':
		digits := 8
		switch e {
		case 'x':
			digits = 2
		case 'u':
			digits = 4
		}
		j := *i + 1
		for j < len(s) && j-*i-1 < digits && isHex(s[j]) {
			j++
		}
		if j == *i+1 {
			return false
		}
		v, _ := strconv.ParseUint(s[*i+1:j], 16, 32)
		if e == 'x' {
			b.WriteByte(byte(v))
		} else if v <= utf8.MaxRune {
			b.WriteRune(rune(v))
		}
		*i = j - 1
	default:
		return false
	}
	return true
}

// octalEscape writes the byte of the up to three octal digits at s[i:]
// (NUL for none) and returns the index of the last byte it read.
func octalEscape(b *strings.Builder, s string, i int) int {
	j := i
	for j < len(s) && j-i < 3 && s[j] >= '0' && s[j] <= '7' {
		j++
	}
	v, _ := strconv.ParseUint(s[i:j], 8, 16)
	b.WriteByte(byte(v))
	return j - 1
}

// printfOutput returns what bash's printf prints for args (args[0] is
// "printf"). printf -v prints nothing (it assigns a variable). ok is false
// when the output cannot be known: a dynamic word, a conversion the
// emulation does not cover (%(...)T, floating point), a number it cannot
// read.
func printfOutput(args []Arg) (string, bool) {
	for _, a := range args[1:] {
		if a.Dynamic || a.Glob {
			return "", false
		}
	}
	rest := args[1:]
	if len(rest) > 0 && rest[0].Value == "-v" {
		return "", true
	}
	if len(rest) > 0 && strings.HasPrefix(rest[0].Value, "-v") {
		return "", true
	}
	if len(rest) > 0 && rest[0].Value == "--" {
		rest = rest[1:]
	}
	if len(rest) == 0 {
		return "", false // usage error
	}
	vals := make([]string, len(rest)-1)
	for i, a := range rest[1:] {
		vals[i] = a.Value
	}
	return printf(rest[0].Value, vals)
}

// printf formats like bash's printf builtin: the format is reused while
// arguments remain.
func printf(format string, args []string) (string, bool) {
	var b strings.Builder
	for {
		used, stop, ok := printfOnce(&b, format, &args)
		if !ok || b.Len() > maxOutput {
			return "", false
		}
		if stop || len(args) == 0 || used == 0 {
			return b.String(), true
		}
	}
}

// printfOnce applies format once, consuming arguments from args; used
// counts the arguments consumed, stop reports a \c in a %b argument.
func printfOnce(b *strings.Builder, format string, args *[]string) (used int, stop, ok bool) {
	next := func() (string, bool) {
		if len(*args) == 0 {
			return "", false
		}
		v := (*args)[0]
		*args = (*args)[1:]
		used++
		return v, true
	}
	for i := 0; i < len(format); i++ {
		c := format[i]
		if c == '\\' && i+1 < len(format) {
			i++
			switch e := format[i]; {
			case e >= '0' && e <= '7':
				i = octalEscape(b, format, i)
			case e == '"' || e == '\'' || e == '?':
				b.WriteByte(e)
			default:
				if !commonEscape(b, format, &i) {
					b.WriteByte('\\')
					b.WriteByte(e)
				}
			}
			continue
		}
		if c != '%' {
			b.WriteByte(c)
			continue
		}
		if i+1 < len(format) && format[i+1] == '%' {
			b.WriteByte('%')
			i++
			continue
		}
		// %[flags][width][.precision]conversion
		j := i + 1
		for j < len(format) && strings.IndexByte("-+ #0", format[j]) >= 0 {
			j++
		}
		flags := format[i+1 : j]
		width, prec := -1, -1
		num := func() (int, bool) {
			if j < len(format) && format[j] == '*' {
				j++
				v, _ := next()
				n, err := strconv.Atoi(strings.TrimSpace(v))
				if v != "" && err != nil {
					return 0, false
				}
				return n, true
			}
			k := j
			for j < len(format) && format[j] >= '0' && format[j] <= '9' {
				j++
			}
			if k == j {
				return -1, true
			}
			n, err := strconv.Atoi(format[k:j])
			return n, err == nil && n <= maxOutput
		}
		var good bool
		if width, good = num(); !good {
			return used, false, false
		}
		if j < len(format) && format[j] == '.' {
			j++
			if prec, good = num(); !good {
				return used, false, false
			}
			if prec < 0 {
				prec = 0
			}
		}
		if j >= len(format) {
			return used, false, false
		}
		conv := format[j]
		i = j
		var s string
		switch conv {
		case 's':
			s, _ = next()
			if prec >= 0 && prec < len(s) {
				s = s[:prec]
			}
		case 'b':
			v, _ := next()
			s, stop = echoEscapes(v, true)
			if prec >= 0 && prec < len(s) {
				s = s[:prec]
			}
		case 'c':
			v, _ := next()
			if v != "" {
				s = v[:1]
			}
		case 'q':
			v, _ := next()
			var qok bool
			if s, qok = quoteQ(v); !qok {
				return used, false, false
			}
		case 'd', 'i', 'u', 'o', 'x', 'X':
			v, _ := next()
			n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
			if v == "" {
				n, err = 0, nil
			}
			if err != nil || n < 0 && conv != 'd' && conv != 'i' {
				return used, false, false
			}
			if strings.ContainsAny(flags, "+ #") {
				return used, false, false
			}
			base := 10
			switch conv {
			case 'o':
				base = 8
			case 'x', 'X':
				base = 16
			}
			s = strconv.FormatInt(n, base)
			if conv == 'X' {
				s = strings.ToUpper(s)
			}
			if prec >= 0 {
				neg := strings.HasPrefix(s, "-")
				digits := strings.TrimPrefix(s, "-")
				if len(digits) < prec {
					digits = strings.Repeat("0", prec-len(digits)) + digits
				}
				if neg {
					digits = "-" + digits
				}
				s = digits
			}
			if width > len(s) && strings.Contains(flags, "0") && !strings.Contains(flags, "-") && prec < 0 {
				if strings.HasPrefix(s, "-") {
					s = "-" + strings.Repeat("0", width-len(s)) + s[1:]
				} else {
					s = strings.Repeat("0", width-len(s)) + s
				}
			}
		default:
			// Floating point, %(...)T, %n, an invalid conversion.
			return used, false, false
		}
		if width > len(s) {
			pad := strings.Repeat(" ", width-len(s))
			if strings.Contains(flags, "-") {
				s += pad
			} else {
				s = pad + s
			}
		}
		b.WriteString(s)
		if stop {
			return used, true, true
		}
	}
	return used, false, true
}

// quoteQ quotes s as printf %q does: backslashes before the characters
// the shell reads specially, and a pair of single quotes for the empty
// string. Control characters (which bash writes as $'...') are not
// covered.
func quoteQ(s string) (string, bool) {
	if s == "" {
		return "''", true
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c < 0x20 || c == 0x7f:
			return "", false
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c >= 0x80,
			strings.IndexByte("-_./:,+@%=^", c) >= 0:
		case c == '~' && i > 0:
		default:
			b.WriteByte('\\')
		}
		b.WriteByte(c)
	}
	return b.String(), true
}
