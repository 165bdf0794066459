package tomldoc

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"testing"
	"time"

	"github.com/pelletier/go-toml/v2"
)

// The documents below are the table tests of shellguard's former TOML 1.0
// decoder (config/internal/tomldec), kept so that go-toml/v2, which
// replaced it, is held to what it accepted and rejected, and where.

type m = map[string]any
type a = []any

func tables(ts ...map[string]any) []any {
	out := make([]any, len(ts))
	for i, t := range ts {
		out[i] = t
	}
	return out
}

func ld(y, mo, d int) toml.LocalDate { return toml.LocalDate{Year: y, Month: mo, Day: d} }
func lt(h, mi, s, ns int) toml.LocalTime {
	return toml.LocalTime{Hour: h, Minute: mi, Second: s, Nanosecond: ns}
}
func ldt(y, mo, d, h, mi, s, ns int) toml.LocalDateTime {
	return toml.LocalDateTime{LocalDate: ld(y, mo, d), LocalTime: lt(h, mi, s, ns)}
}

var validTests = []struct {
	name string
	src  string
	want m
}{
	// Document structure, comments, whitespace.
	{"empty", "", m{}},
	{"only comments", "# a\n  # b\r\n\t\n", m{}},
	{"bom", "\ufeffa = 1", m{"a": int64(1)}},
	{"crlf", "a = 1\r\nb = 2\r\n", m{"a": int64(1), "b": int64(2)}},
	{"comment after value", "a = 1 # one\nb = 'x'# two", m{"a": int64(1), "b": "x"}},
	{"comment with unicode and tab", "# é\tü 😀\na = true", m{"a": true}},
	{"whitespace around =", "a\t=\t1\n  b   =2", m{"a": int64(1), "b": int64(2)}},
	{"no trailing newline", "a = 'x'", m{"a": "x"}},

	// Keys.
	{"bare keys", "key = 1\nbare_key = 2\nbare-key = 3\n1234 = 4\n-_- = 5",
		m{"key": int64(1), "bare_key": int64(2), "bare-key": int64(3), "1234": int64(4), "-_-": int64(5)}},
	{"quoted keys", `"127.0.0.1" = 1` + "\n" + `"ʎǝʞ" = 2` + "\n" + `'quoted "value"' = 3` + "\n" + `"tab\tkey" = 4`,
		m{"127.0.0.1": int64(1), "ʎǝʞ": int64(2), `quoted "value"`: int64(3), "tab\tkey": int64(4)}},
	{"empty quoted keys", `"" = 1` + "\n" + `a.'' = 2`, m{"": int64(1), "a": m{"": int64(2)}}},
	{"dotted keys", "name.first = 'Tom'\nsite.\"google.com\" = true\na . b . c = 1",
		m{"name": m{"first": "Tom"}, "site": m{"google.com": true}, "a": m{"b": m{"c": int64(1)}}}},
	{"dotted keys extend in same section", "fruit.apple.color = 'red'\nfruit.apple.taste.sweet = true\nfruit.orange = 2",
		m{"fruit": m{"apple": m{"color": "red", "taste": m{"sweet": true}}, "orange": int64(2)}}},
	{"number-looking dotted key", "3.14159 = 'pi'", m{"3": m{"14159": "pi"}}},
	{"unicode escape in key", `"\u00e9" = 1`, m{"é": int64(1)}},

	// Strings.
	{"basic escapes", `s = "\b\t\n\f\r\"\\ \u00E9 \U0001F600"`, m{"s": "\b\t\n\f\r\"\\ é 😀"}},
	{"basic with tab and unicode", "s = \"a\tb é\"", m{"s": "a\tb é"}},
	{"literal", `s = 'C:\Users\nodejs\templates'`, m{"s": `C:\Users\nodejs\templates`}},
	{"literal with tab", "s = 'a\tb'", m{"s": "a\tb"}},
	{"empty strings", `a = ""` + "\nb = ''", m{"a": "", "b": ""}},
	{"multi-line basic trims first newline", "s = \"\"\"\nRoses\nViolets\"\"\"", m{"s": "Roses\nViolets"}},
	{"multi-line basic keeps crlf", "s = \"\"\"\r\na\r\nb\"\"\"", m{"s": "a\r\nb"}},
	{"line-ending backslash", "s = \"\"\"\nThe quick \\\n\n\n   brown \\\t \r\n  fox.\\\n  \"\"\"", m{"s": "The quick brown fox."}},
	{"quotes inside multi-line basic", `s = """Here are two quotation marks: "". Simple enough."""`, m{"s": `Here are two quotation marks: "". Simple enough.`}},
	{"quotes at end of multi-line basic", `s = """"This," she said, "is just a pointless statement.""""`, m{"s": `"This," she said, "is just a pointless statement."`}},
	{"five quotes", `s = """a"""""`, m{"s": `a""`}},
	{"seven quotes", `s = """""""`, m{"s": `"`}},
	{"multi-line literal", "s = '''\nThe first newline is\ntrimmed in raw strings.\n   All other whitespace\n   is preserved. \\n\n'''",
		m{"s": "The first newline is\ntrimmed in raw strings.\n   All other whitespace\n   is preserved. \\n\n"}},
	{"quotes in multi-line literal", `s = '''Here are fifteen quotation marks: """""""""""""""'''`, m{"s": `Here are fifteen quotation marks: """""""""""""""`}},
	{"apostrophes at end of multi-line literal", `s = ''''That,' she said, 'is still pointless.''''`, m{"s": `'That,' she said, 'is still pointless.'`}},
	{"escape of max rune", `s = "\U0010FFFF"`, m{"s": "\U0010FFFF"}},
	{"nul escape", `s = "\u0000"`, m{"s": "\x00"}},
	{"bom inside string", "s = \"\ufeff\"", m{"s": "\ufeff"}},

	// Integers.
	{"decimal integers", "a = +99\nb = 42\nc = 0\nd = -17\ne = -0\nf = +0",
		m{"a": int64(99), "b": int64(42), "c": int64(0), "d": int64(-17), "e": int64(0), "f": int64(0)}},
	{"underscores", "a = 1_000\nb = 5_349_221\nc = 53_49_221\nd = 1_2_3_4_5",
		m{"a": int64(1000), "b": int64(5349221), "c": int64(5349221), "d": int64(12345)}},
	{"int64 limits", "a = 9223372036854775807\nb = -9223372036854775808",
		m{"a": int64(math.MaxInt64), "b": int64(math.MinInt64)}},
	{"hex oct bin", "a = 0xDEADBEEF\nb = 0xdead_beef\nc = 0o01234567\nd = 0o755\ne = 0b11010110\nf = 0x0\ng = 0x7FFFFFFFFFFFFFFF",
		m{"a": int64(0xDEADBEEF), "b": int64(0xDEADBEEF), "c": int64(0o1234567), "d": int64(0o755), "e": int64(0b11010110), "f": int64(0), "g": int64(math.MaxInt64)}},

	// Floats.
	{"floats", "a = +1.0\nb = 3.1415\nc = -0.01\nd = 5e+22\ne = 1e06\nf = -2E-2\ng = 6.626e-34\nh = 224_617.445_991_228\ni = 0.1e007\nj = 0e0",
		m{"a": 1.0, "b": 3.1415, "c": -0.01, "d": 5e+22, "e": 1e06, "f": -2e-2, "g": 6.626e-34, "h": 224617.445991228, "i": 1e6, "j": 0.0}},
	{"signed zero", "a = -0.0\nb = +0.0", m{"a": math.Copysign(0, -1), "b": 0.0}},
	{"underflow is zero", "a = 1e-400", m{"a": 0.0}},
	{"inf", "a = inf\nb = +inf\nc = -inf", m{"a": math.Inf(1), "b": math.Inf(1), "c": math.Inf(-1)}},

	// Booleans.
	{"booleans", "t = true\nf = false", m{"t": true, "f": false}},

	// Dates and times.
	{"offset date-times", "a = 1979-05-27T07:32:00Z\nb = 1979-05-27T00:32:00-07:00\nc = 1979-05-27T00:32:00.999999+07:30\nd = 1979-05-27 07:32:00z\ne = 1979-05-27t07:32:00Z",
		m{
			"a": time.Date(1979, 5, 27, 7, 32, 0, 0, time.UTC),
			"b": time.Date(1979, 5, 27, 0, 32, 0, 0, time.FixedZone("", -7*3600)),
			"c": time.Date(1979, 5, 27, 0, 32, 0, 999999000, time.FixedZone("", 7*3600+1800)),
			"d": time.Date(1979, 5, 27, 7, 32, 0, 0, time.UTC),
			"e": time.Date(1979, 5, 27, 7, 32, 0, 0, time.UTC),
		}},
	{"local date-times", "a = 1979-05-27T07:32:00\nb = 1979-05-27 00:32:00.999999\nc = 1979-05-27T00:32:00.1234567891",
		m{
			"a": ldt(1979, 5, 27, 7, 32, 0, 0),
			"b": ldt(1979, 5, 27, 0, 32, 0, 999999000),
			"c": ldt(1979, 5, 27, 0, 32, 0, 123456789),
		}},
	{"local dates", "a = 1979-05-27\nb = 2000-02-29\nc = 1979-05-27 # c", m{"a": ld(1979, 5, 27), "b": ld(2000, 2, 29), "c": ld(1979, 5, 27)}},
	{"local times", "a = 07:32:00\nb = 00:32:00.999999\nc = 23:59:59", m{"a": lt(7, 32, 0, 0), "b": lt(0, 32, 0, 999999000), "c": lt(23, 59, 59, 0)}},

	// Arrays.
	{"arrays", "a = [ 1, 2, 3 ]\nb = [ \"red\", 'yellow' ]\nc = [ [ 1, 2 ], [3, 4, 5] ]\nd = []",
		m{"a": a{int64(1), int64(2), int64(3)}, "b": a{"red", "yellow"}, "c": a{a{int64(1), int64(2)}, a{int64(3), int64(4), int64(5)}}, "d": a{}}},
	{"mixed arrays", "a = [ 0.1, 0.2, 'x', 1, true, 1979-05-27, {x = 1}, [] ]",
		m{"a": a{0.1, 0.2, "x", int64(1), true, ld(1979, 5, 27), m{"x": int64(1)}, a{}}}},
	{"multi-line array with comments and trailing comma", "a = [ # start\n  1, # one\n\n  2 # two\n  , # comma\n] # end",
		m{"a": a{int64(1), int64(2)}}},
	{"array of inline tables", "points = [ { x = 1, y = 2 },\n  { x = 7, y = 8 } ]",
		m{"points": a{m{"x": int64(1), "y": int64(2)}, m{"x": int64(7), "y": int64(8)}}}},

	// Inline tables.
	{"inline tables", "name = { first = 'Tom', last = \"Preston-Werner\" }\npoint = {x=1,y=2}\nanimal = { type.name = 'pug' }\ne = {}",
		m{"name": m{"first": "Tom", "last": "Preston-Werner"}, "point": m{"x": int64(1), "y": int64(2)}, "animal": m{"type": m{"name": "pug"}}, "e": m{}}},
	{"inline table dotted keys share a table", "a = { b.c = 1, b.d = 2 }", m{"a": m{"b": m{"c": int64(1), "d": int64(2)}}}},
	{"inline table with multi-line array", "a = { b = [\n1,\n2\n] }", m{"a": m{"b": a{int64(1), int64(2)}}}},
	{"nested inline tables", "a = { b = { c = { d = 1 } } }", m{"a": m{"b": m{"c": m{"d": int64(1)}}}}},

	// Tables.
	{"tables", "[table-1]\nkey1 = 'some string'\n[table-2]\nkey1 = 2\n[ dog . \"tater.man\" ]\ntype.name = 'pug'",
		m{"table-1": m{"key1": "some string"}, "table-2": m{"key1": int64(2)}, "dog": m{"tater.man": m{"type": m{"name": "pug"}}}}},
	{"super-table after sub-table", "[x.y.z.w]\n[x]\na = 1", m{"x": m{"a": int64(1), "y": m{"z": m{"w": m{}}}}}},
	{"implicit tables", "[a.b.c]\nd = 1\n[a.b]\ne = 2", m{"a": m{"b": m{"c": m{"d": int64(1)}, "e": int64(2)}}}},
	{"sub-table of dotted table", "[fruit]\napple.color = 'red'\napple.taste.sweet = true\n[fruit.apple.texture]\nsmooth = true",
		m{"fruit": m{"apple": m{"color": "red", "taste": m{"sweet": true}, "texture": m{"smooth": true}}}}},
	{"empty table", "[a]", m{"a": m{}}},
	{"header with comment and spaces", "[ a ] # c\n[[ b ]]# c", m{"a": m{}, "b": tables(m{})}},

	// Arrays of tables.
	{"array of tables", "[[products]]\nname = 'Hammer'\nsku = 738594937\n\n[[products]]\n\n[[products]]\nname = 'Nail'",
		m{"products": tables(m{"name": "Hammer", "sku": int64(738594937)}, m{}, m{"name": "Nail"})}},
	{"nested arrays of tables", "[[fruits]]\nname = 'apple'\n[fruits.physical]\ncolor = 'red'\n[[fruits.varieties]]\nname = 'red delicious'\n[[fruits.varieties]]\nname = 'granny smith'\n[[fruits]]\nname = 'banana'\n[[fruits.varieties]]\nname = 'plantain'",
		m{"fruits": tables(
			m{"name": "apple", "physical": m{"color": "red"}, "varieties": tables(m{"name": "red delicious"}, m{"name": "granny smith"})},
			m{"name": "banana", "varieties": tables(m{"name": "plantain"})},
		)}},
	{"array of tables under implicit table", "[[a.b]]\nx = 1\n[a]\ny = 2", m{"a": m{"b": tables(m{"x": int64(1)}), "y": int64(2)}}},
}

func TestDecodeValid(t *testing.T) {
	for _, tt := range validTests {
		t.Run(tt.name, func(t *testing.T) {
			for _, dec := range []func([]byte) (map[string]any, Lines, error){Decode, Decode10} {
				got, _, err := dec([]byte(tt.src))
				if err != nil {
					t.Fatalf("Decode(%q): %v", tt.src, err)
				}
				if !sameDecoded(got, tt.want) {
					t.Errorf("Decode(%q)\n got  %#v\n want %#v", tt.src, got, tt.want)
				}
			}
		})
	}
}

// sameDecoded compares decoded documents; times compare by instant and
// offset, local times by their text, floats by bits (so -0 is checked
// too).
func sameDecoded(got, want any) bool {
	switch w := want.(type) {
	case float64:
		g, ok := got.(float64)
		return ok && math.Float64bits(g) == math.Float64bits(w)
	case time.Time:
		g, ok := got.(time.Time)
		_, go_ := g.Zone()
		_, wo := w.Zone()
		return ok && g.Equal(w) && go_ == wo
	case toml.LocalDate, toml.LocalTime, toml.LocalDateTime:
		return reflect.TypeOf(got) == reflect.TypeOf(want) && fmt.Sprint(got) == fmt.Sprint(want)
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok || len(g) != len(w) {
			return false
		}
		for k, v := range w {
			if gv, ok := g[k]; !ok || !sameDecoded(gv, v) {
				return false
			}
		}
		return true
	case []any:
		g, ok := got.([]any)
		if !ok || g == nil || len(g) != len(w) {
			return false
		}
		for i := range w {
			if !sameDecoded(g[i], w[i]) {
				return false
			}
		}
		return true
	}
	return reflect.DeepEqual(got, want)
}

func TestNaN(t *testing.T) {
	got, _, err := Decode10([]byte("a = nan\nb = +nan\nc = -nan"))
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"a", "b", "c"} {
		if f, ok := got[k].(float64); !ok || !math.IsNaN(f) {
			t.Errorf("%s = %#v, want NaN", k, got[k])
		}
	}
}

var invalidTests = []struct {
	name string
	src  string
	line int
}{
	// Encoding and control characters.
	{"invalid utf-8", "a = 1\nb = \"\xff\"", 2},
	{"invalid utf-8 in comment", "# \xc3\x28", 1},
	{"utf-16 bom", "\xff\xfea = 1", 1},
	{"bom not at start", "a = 1\n\ufeffb = 2", 2},
	{"bare carriage return", "a = 1\rb = 2", 1},
	{"carriage return in comment", "# x\ry\na = 1", 1},
	{"nul in comment", "# \x00", 1},
	{"del in comment", "a = 1 # \x7f", 1},
	{"control character in string", "a = \"\x01\"", 1},
	{"del in literal", "a = '\x7f'", 1},
	{"control character in multi-line", "a = \"\"\"\n\n\x1f\"\"\"", 3},
	{"bare cr in multi-line literal", "a = '''x\ry'''", 1},
	{"nul outside strings", "a = 1\x00", 1},

	// Keys.
	{"no key", "= 1", 1},
	{"no value", "a = ", 1},
	{"no value before newline", "deny_at = \"high\"\nask_at = \nx = 1", 2},
	{"no equals", "a 1", 1},
	{"newline before equals", "a\n= 1", 1},
	{"two keys on a line", "a = 1 b = 2", 1},
	{"unicode bare key", "é = 1", 1},
	{"dot at start", ".a = 1", 1},
	{"dot at end", "a. = 1", 1},
	{"double dot", "a..b = 1", 1},
	{"multi-line key", "\"\"\"a\"\"\" = 1", 1},
	{"newline in quoted key", "\"a\nb\" = 1", 1},
	{"duplicate key", "a = 1\na = 2", 2},
	{"duplicate quoted key", "a = 1\n\"a\" = 2", 2},
	{"duplicate dotted key", "a.b = 1\na.b = 2", 2},
	{"dotted key over value", "a = 1\na.b = 2", 2},
	{"dotted key into inline table", "a = {b = 1}\na.c = 2", 2},
	{"table over dotted key value", "a.b = 1\n[a.b]", 2},
	{"key over table", "a.b.c = 1\na.b = 2", 2},

	// Strings.
	{"unclosed string", "a = \"abc\nb = 1", 1},
	{"unclosed string at eof", "a = \"abc", 1},
	{"unclosed literal", "a = 'abc", 1},
	{"unclosed multi-line", "a = \"\"\"\nabc\n", 2},
	{"unclosed multi-line literal", "\n\na = '''\nabc''", 4},
	{"invalid escape", `a = "\q"`, 1},
	{"escape of space in single-line", `a = "\ "`, 1},
	{"line-ending backslash followed by text", "a = \"\"\"x\\  y\"\"\"", 1},
	{"short unicode escape", `a = "\u12"`, 1},
	{"bad hex in unicode escape", `a = "\U0000zzzz"`, 1},
	{"surrogate escape", `a = "\uD800"`, 1},
	{"escape beyond unicode", `a = "\U00110000"`, 1},
	{"six closing quotes", `a = """x""""""`, 1},
	{"six closing apostrophes", `a = '''x''''''`, 1},
	{"text after string", `a = "x"y`, 1},

	// Integers.
	{"leading zero", "a = 012", 1},
	{"leading zero negative", "a = -01", 1},
	{"leading underscore", "a = _1", 1},
	{"trailing underscore", "a = 1_", 1},
	{"double underscore", "a = 1__2", 1},
	{"signed hex", "a = +0x10", 1},
	{"capital hex prefix", "a = 0X10", 1},
	{"empty hex", "a = 0x", 1},
	{"bad octal digit", "a = 0o8", 1},
	{"bad binary digit", "a = 0b102", 1},
	{"hex underscore after prefix", "a = 0x_1", 1},
	{"overflow", "a = 9223372036854775808", 1},
	{"negative overflow", "a = -9223372036854775809", 1},
	{"hex overflow", "a = 0x8000000000000000", 1},
	{"double sign", "a = +-1", 1},
	{"word", "a = nope", 1},
	{"unquoted string", "a = hello", 1},

	// Floats.
	{"trailing dot", "a = 1.", 1},
	{"leading dot", "a = .1", 1},
	{"dot before exponent", "a = 1.e5", 1},
	{"empty exponent", "a = 1e", 1},
	{"float leading zero", "a = 03.14", 1},
	{"underscore before dot", "a = 1_.5", 1},
	{"underscore after dot", "a = 1._5", 1},
	{"underscore in exponent start", "a = 1e_5", 1},
	{"two dots", "a = 1.2.3", 1},
	{"float overflow", "a = 1e1000", 1},
	{"capital inf", "a = Inf", 1},
	{"infinity", "a = infinity", 1},
	{"nan with payload", "a = nan1", 1},

	// Booleans.
	{"capital true", "a = True", 1},
	{"true prefix", "a = truely", 1},

	// Dates and times.
	{"bad month", "a = 1979-13-01", 1},
	{"bad day", "a = 1979-02-29", 1},
	{"day zero", "a = 1979-01-00", 1},
	{"century not leap", "a = 1900-02-29", 1},
	{"bad hour", "a = 24:00:00", 1},
	{"bad minute", "a = 1979-05-27T23:60:00", 1},
	{"leap second", "a = 1979-05-27T23:59:60Z", 1},
	{"no seconds", "a = 07:32", 1},
	{"empty fraction", "a = 07:32:00.", 1},
	{"short year", "a = 979-05-27", 1},
	{"one-digit month", "a = 1979-5-27", 1},
	{"bad offset", "a = 1979-05-27T07:32:00+0700", 1},
	{"offset without minutes", "a = 1979-05-27T07:32:00+07", 1},
	{"bad separator", "a = 1979-05-27X07:32:00", 1},
	{"two spaces", "a = 1979-05-27  07:32:00", 1},
	{"time with offset", "a = 07:32:00Z", 1},

	// Arrays.
	{"unclosed array", "a = [1, 2", 1},
	{"unclosed array over lines", "a = [\n1,\n2\n", 3},
	{"missing comma", "a = [1 2]", 1},
	{"leading comma", "a = [,1]", 1},
	{"double comma", "a = [1,,2]", 1},
	{"bad value in array", "a = [\n1,\nx]", 3},

	// Inline tables.
	{"newline in inline table", "a = {\nb = 1}", 1},
	{"newline before closing brace", "a = {b = 1\n}", 1},
	{"trailing comma in inline table", "a = {b = 1,}", 1},
	{"unclosed inline table", "a = {b = 1", 1},
	{"duplicate key in inline table", "a = {b = 1, b = 2}", 1},
	{"inline table redefines dotted", "a = {b.c = 1, b = 2}", 1},
	{"dotted key into nested inline table", "a = {b = {c = 1}, b.d = 2}", 1},
	{"inline table then table", "a = {}\n[a]", 2},
	{"inline table then sub-table", "a = {b = 1}\n[a.c]", 2},
	{"missing comma in inline table", "a = {b = 1 c = 2}", 1},
	{"empty pair", "a = {,}", 1},

	// Tables.
	{"table defined twice", "[a]\nb = 1\n[a]\nc = 2", 3},
	{"implicit table defined twice", "[a.b]\n[a]\n[a]", 3},
	{"table over key", "a = 1\n[a]", 2},
	{"table over string", "a = 's'\n[a]", 2},
	{"table over float", "a = 1.5\n[a.b]", 2},
	{"table over boolean", "a = true\n[[a]]", 2},
	{"table over date", "a = 1979-05-27\n[a]", 2},
	{"table over array", "a = []\n[a.b]", 2},
	{"key over table", "[a.b]\n[a]\nb = 1", 3},
	{"table over dotted keys", "a.b = 1\n[a]", 2},
	{"table over nested dotted keys", "[fruit]\napple.color = 'red'\n[fruit.apple]", 3},
	{"table over nested dotted keys 2", "[fruit]\napple.taste.sweet = true\n[fruit.apple.taste]", 3},
	{"dotted keys into header table", "[a.b.c]\nz = 9\n[a]\nb.c.t = 1", 4},
	{"dotted keys redefined by header after use", "[a.b.c]\n[a]\nb.d = 1\n[a.b]", 3},
	// go-toml is stricter than TOML 1.0 here (the former decoder accepted
	// it): a dotted key may not add to a table a [header] made implicitly.
	{"dotted keys into implicit table", "[a.b.c]\nz = 9\n[a]\nb.d = 1", 4},
	{"dotted keys from another section", "[a]\nb.c = 1\n[a.x]\n[a.b.d]\n[a]", 5},
	{"empty header", "[]", 1},
	{"unclosed header", "[a\nb = 1", 1},
	{"space in array header brackets", "[ [a] ]", 1},
	{"unclosed array header", "[[a]\n", 1},
	{"text after header", "[a] b = 1", 1},
	{"extra bracket", "[a]]", 1},

	// Arrays of tables.
	{"array of tables over table", "[a]\n[[a]]", 2},
	{"table over array of tables", "[[a]]\n[a]", 2},
	{"array of tables over static array", "a = []\n[[a]]", 2},
	{"array of tables over inline array of tables", "a = [{}]\n[[a]]", 2},
	{"dotted keys into array of tables", "[[x.a]]\n[x]\na.b = 1", 3},
	{"array of tables over dotted value", "a.b = 1\n[[a.b]]", 2},
	{"array of tables over dotted table", "a.b.c = 1\n[[a.b]]", 2},
}

func TestDecodeInvalid(t *testing.T) {
	for _, tt := range invalidTests {
		t.Run(tt.name, func(t *testing.T) {
			got, lines, err := Decode10([]byte(tt.src))
			if err == nil {
				t.Fatalf("Decode10(%q) = %#v, want an error", tt.src, got)
			}
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("Decode10(%q): error %#v is not an *Error", tt.src, err)
			}
			if e.Line != tt.line || e.Msg == "" {
				t.Errorf("Decode10(%q): error %q, want line %d", tt.src, err, tt.line)
			}
			if got != nil || lines != nil {
				t.Errorf("Decode10(%q) returned a document with its error", tt.src)
			}
		})
	}
}
