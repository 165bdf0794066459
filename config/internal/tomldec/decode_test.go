package tomldec

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"
	"time"
)

type m = map[string]any
type a = []any
type tables = []map[string]any

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
			"a": LocalDateTime{LocalDate{1979, 5, 27}, LocalTime{7, 32, 0, 0}},
			"b": LocalDateTime{LocalDate{1979, 5, 27}, LocalTime{0, 32, 0, 999999000}},
			"c": LocalDateTime{LocalDate{1979, 5, 27}, LocalTime{0, 32, 0, 123456789}},
		}},
	{"local dates", "a = 1979-05-27\nb = 2000-02-29\nc = 1979-05-27 # c", m{"a": LocalDate{1979, 5, 27}, "b": LocalDate{2000, 2, 29}, "c": LocalDate{1979, 5, 27}}},
	{"local times", "a = 07:32:00\nb = 00:32:00.999999\nc = 23:59:59", m{"a": LocalTime{7, 32, 0, 0}, "b": LocalTime{0, 32, 0, 999999000}, "c": LocalTime{23, 59, 59, 0}}},

	// Arrays.
	{"arrays", "a = [ 1, 2, 3 ]\nb = [ \"red\", 'yellow' ]\nc = [ [ 1, 2 ], [3, 4, 5] ]\nd = []",
		m{"a": a{int64(1), int64(2), int64(3)}, "b": a{"red", "yellow"}, "c": a{a{int64(1), int64(2)}, a{int64(3), int64(4), int64(5)}}, "d": a{}}},
	{"mixed arrays", "a = [ 0.1, 0.2, 'x', 1, true, 1979-05-27, {x = 1}, [] ]",
		m{"a": a{0.1, 0.2, "x", int64(1), true, LocalDate{1979, 5, 27}, m{"x": int64(1)}, a{}}}},
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
	{"dotted keys into implicit table", "[a.b.c]\nz = 9\n[a]\nb.d = 1", m{"a": m{"b": m{"c": m{"z": int64(9)}, "d": int64(1)}}}},
	{"empty table", "[a]", m{"a": m{}}},
	{"header with comment and spaces", "[ a ] # c\n[[ b ]]# c", m{"a": m{}, "b": tables{{}}}},

	// Arrays of tables.
	{"array of tables", "[[products]]\nname = 'Hammer'\nsku = 738594937\n\n[[products]]\n\n[[products]]\nname = 'Nail'",
		m{"products": tables{{"name": "Hammer", "sku": int64(738594937)}, {}, {"name": "Nail"}}}},
	{"nested arrays of tables", "[[fruits]]\nname = 'apple'\n[fruits.physical]\ncolor = 'red'\n[[fruits.varieties]]\nname = 'red delicious'\n[[fruits.varieties]]\nname = 'granny smith'\n[[fruits]]\nname = 'banana'\n[[fruits.varieties]]\nname = 'plantain'",
		m{"fruits": tables{
			{"name": "apple", "physical": m{"color": "red"}, "varieties": tables{{"name": "red delicious"}, {"name": "granny smith"}}},
			{"name": "banana", "varieties": tables{{"name": "plantain"}}},
		}}},
	{"array of tables under implicit table", "[[a.b]]\nx = 1\n[a]\ny = 2", m{"a": m{"b": tables{{"x": int64(1)}}, "y": int64(2)}}},
}

func TestDecodeValid(t *testing.T) {
	for _, tt := range validTests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Decode([]byte(tt.src))
			if err != nil {
				t.Fatalf("Decode(%q): %v", tt.src, err)
			}
			if !sameDecoded(got, tt.want) {
				t.Errorf("Decode(%q)\n got  %#v\n want %#v", tt.src, got, tt.want)
			}
		})
	}
}

// sameDecoded compares decoded documents; times compare by instant and
// offset, floats by bits (so -0 and NaN are checked too).
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
	case []map[string]any:
		g, ok := got.([]map[string]any)
		if !ok || len(g) != len(w) {
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
	got, err := Decode([]byte("a = nan\nb = +nan\nc = -nan"))
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
	msg  string // substring of the message
}{
	// Encoding and control characters.
	{"invalid utf-8", "a = 1\nb = \"\xff\"", 2, "invalid UTF-8"},
	{"invalid utf-8 in comment", "# \xc3\x28", 1, "invalid UTF-8"},
	{"utf-16 bom", "\xff\xfea = 1", 1, "invalid UTF-8"},
	{"bom not at start", "a = 1\n\ufeffb = 2", 2, "expected a key"},
	{"bare carriage return", "a = 1\rb = 2", 1, "carriage return"},
	{"carriage return in comment", "# x\ry\na = 1", 1, "control character"},
	{"nul in comment", "# \x00", 1, "control character"},
	{"del in comment", "a = 1 # \x7f", 1, "control character"},
	{"control character in string", "a = \"\x01\"", 1, "control character"},
	{"del in literal", "a = '\x7f'", 1, "control character"},
	{"control character in multi-line", "a = \"\"\"\n\n\x1f\"\"\"", 3, "control character"},
	{"bare cr in multi-line literal", "a = '''x\ry'''", 1, "control character"},
	{"nul outside strings", "a = 1\x00", 1, "expected end of line"},

	// Keys.
	{"no key", "= 1", 1, "expected a key"},
	{"no value", "a = ", 1, "expected a value"},
	{"no value before newline", "deny_at = \"high\"\nask_at = \nx = 1", 2, "expected a value"},
	{"no equals", "a 1", 1, "expected = after key a"},
	{"newline before equals", "a\n= 1", 1, "expected = after key a"},
	{"two keys on a line", "a = 1 b = 2", 1, "expected end of line"},
	{"unicode bare key", "é = 1", 1, "expected a key"},
	{"dot at start", ".a = 1", 1, "expected a key"},
	{"dot at end", "a. = 1", 1, "expected a key"},
	{"double dot", "a..b = 1", 1, "expected a key"},
	{"multi-line key", "\"\"\"a\"\"\" = 1", 1, "multi-line"},
	{"newline in quoted key", "\"a\nb\" = 1", 1, "not closed on its line"},
	{"duplicate key", "a = 1\na = 2", 2, "key a is defined twice"},
	{"duplicate quoted key", "a = 1\n\"a\" = 2", 2, "defined twice"},
	{"duplicate dotted key", "a.b = 1\na.b = 2", 2, "key a.b is defined twice"},
	{"dotted key over value", "a = 1\na.b = 2", 2, "already defined as an integer"},
	{"dotted key into inline table", "a = {b = 1}\na.c = 2", 2, "already defined as an inline table"},
	{"table over dotted key value", "a.b = 1\n[a.b]", 2, "already defined as an integer"},
	{"key over table", "a.b.c = 1\na.b = 2", 2, "defined twice"},

	// Strings.
	{"unclosed string", "a = \"abc\nb = 1", 1, "not closed on its line"},
	{"unclosed string at eof", "a = \"abc", 1, "not closed"},
	{"unclosed literal", "a = 'abc", 1, "not closed"},
	{"unclosed multi-line", "a = \"\"\"\nabc\n", 1, "not closed"},
	{"unclosed multi-line literal", "\n\na = '''\nabc''", 3, "not closed"},
	{"invalid escape", `a = "\q"`, 1, `invalid escape \q`},
	{"escape of space in single-line", `a = "\ "`, 1, "invalid escape"},
	{"line-ending backslash followed by text", "a = \"\"\"x\\  y\"\"\"", 1, "must end its line"},
	{"short unicode escape", `a = "\u12"`, 1, "4 hex digits"},
	{"bad hex in unicode escape", `a = "\U0000zzzz"`, 1, "8 hex digits"},
	{"surrogate escape", `a = "\uD800"`, 1, "not a Unicode scalar value"},
	{"escape beyond unicode", `a = "\U00110000"`, 1, "not a Unicode scalar value"},
	{"six closing quotes", `a = """x""""""`, 1, "too many quotes"},
	{"six closing apostrophes", `a = '''x''''''`, 1, "too many quotes"},
	{"text after string", `a = "x"y`, 1, "expected end of line"},

	// Integers.
	{"leading zero", "a = 012", 1, "leading zeros"},
	{"leading zero negative", "a = -01", 1, "leading zeros"},
	{"leading underscore", "a = _1", 1, "expected a value"},
	{"trailing underscore", "a = 1_", 1, "invalid number"},
	{"double underscore", "a = 1__2", 1, "invalid number"},
	{"signed hex", "a = +0x10", 1, "invalid number"},
	{"capital hex prefix", "a = 0X10", 1, "invalid number"},
	{"empty hex", "a = 0x", 1, "invalid number"},
	{"bad octal digit", "a = 0o8", 1, "invalid number"},
	{"bad binary digit", "a = 0b102", 1, "invalid number"},
	{"hex underscore after prefix", "a = 0x_1", 1, "invalid number"},
	{"overflow", "a = 9223372036854775808", 1, "out of range"},
	{"negative overflow", "a = -9223372036854775809", 1, "out of range"},
	{"hex overflow", "a = 0x8000000000000000", 1, "out of range"},
	{"double sign", "a = +-1", 1, "invalid number"},
	{"word", "a = nope", 1, "invalid number"},
	{"unquoted string", "a = hello", 1, "strings need quotes"},

	// Floats.
	{"trailing dot", "a = 1.", 1, "invalid number"},
	{"leading dot", "a = .1", 1, "expected a value"},
	{"dot before exponent", "a = 1.e5", 1, "invalid number"},
	{"empty exponent", "a = 1e", 1, "invalid number"},
	{"float leading zero", "a = 03.14", 1, "leading zeros"},
	{"underscore before dot", "a = 1_.5", 1, "invalid number"},
	{"underscore after dot", "a = 1._5", 1, "invalid number"},
	{"underscore in exponent start", "a = 1e_5", 1, "invalid number"},
	{"two dots", "a = 1.2.3", 1, "invalid number"},
	{"float overflow", "a = 1e1000", 1, "out of range"},
	{"capital inf", "a = Inf", 1, "expected a value"},
	{"infinity", "a = infinity", 1, "invalid number"},
	{"nan with payload", "a = nan1", 1, "invalid number"},

	// Booleans.
	{"capital true", "a = True", 1, "expected a value"},
	{"true prefix", "a = truely", 1, "expected end of line"},

	// Dates and times.
	{"bad month", "a = 1979-13-01", 1, "invalid date"},
	{"bad day", "a = 1979-02-29", 1, "invalid date"},
	{"day zero", "a = 1979-01-00", 1, "invalid date"},
	{"century not leap", "a = 1900-02-29", 1, "invalid date"},
	{"bad hour", "a = 24:00:00", 1, "invalid time"},
	{"bad minute", "a = 1979-05-27T23:60:00", 1, "invalid date"},
	{"leap second", "a = 1979-05-27T23:59:60Z", 1, "invalid date"},
	{"no seconds", "a = 07:32", 1, "invalid time"},
	{"empty fraction", "a = 07:32:00.", 1, "invalid time"},
	{"short year", "a = 979-05-27", 1, "invalid number"},
	{"one-digit month", "a = 1979-5-27", 1, "invalid number"},
	{"bad offset", "a = 1979-05-27T07:32:00+0700", 1, "invalid date"},
	{"offset without minutes", "a = 1979-05-27T07:32:00+07", 1, "invalid date"},
	{"bad separator", "a = 1979-05-27X07:32:00", 1, "invalid date"},
	{"two spaces", "a = 1979-05-27  07:32:00", 1, "expected end of line"},
	{"time with offset", "a = 07:32:00Z", 1, "invalid time"},

	// Arrays.
	{"unclosed array", "a = [1, 2", 1, "not closed"},
	{"unclosed array over lines", "a = [\n1,\n2\n", 1, "not closed"},
	{"missing comma", "a = [1 2]", 1, "expected , or ]"},
	{"leading comma", "a = [,1]", 1, "expected a value"},
	{"double comma", "a = [1,,2]", 1, "expected a value"},
	{"bad value in array", "a = [\n1,\nx]", 3, "expected a value"},

	// Inline tables.
	{"newline in inline table", "a = {\nb = 1}", 1, "no newlines in inline tables"},
	{"newline before closing brace", "a = {b = 1\n}", 1, "no newlines in inline tables"},
	{"trailing comma in inline table", "a = {b = 1,}", 1, "trailing comma"},
	{"unclosed inline table", "a = {b = 1", 1, "not closed"},
	{"duplicate key in inline table", "a = {b = 1, b = 2}", 1, "defined twice"},
	{"inline table redefines dotted", "a = {b.c = 1, b = 2}", 1, "defined twice"},
	{"dotted key into nested inline table", "a = {b = {c = 1}, b.d = 2}", 1, "already defined as an inline table"},
	{"inline table then table", "a = {}\n[a]", 2, "already defined as an inline table"},
	{"inline table then sub-table", "a = {b = 1}\n[a.c]", 2, "already defined as an inline table"},
	{"missing comma in inline table", "a = {b = 1 c = 2}", 1, "expected , or }"},
	{"empty pair", "a = {,}", 1, "expected a key"},

	// Tables.
	{"table defined twice", "[a]\nb = 1\n[a]\nc = 2", 3, "table [a] is defined twice"},
	{"implicit table defined twice", "[a.b]\n[a]\n[a]", 3, "defined twice"},
	{"table over key", "a = 1\n[a]", 2, "already defined as an integer"},
	{"table over string", "a = 's'\n[a]", 2, "already defined as a string"},
	{"table over float", "a = 1.5\n[a.b]", 2, "already defined as a float"},
	{"table over boolean", "a = true\n[[a]]", 2, "already defined as a boolean"},
	{"table over date", "a = 1979-05-27\n[a]", 2, "already defined as a date or time"},
	{"table over array", "a = []\n[a.b]", 2, "already defined as an array"},
	{"key over table", "[a.b]\n[a]\nb = 1", 3, "defined twice"},
	{"table over dotted keys", "a.b = 1\n[a]", 2, "defined by dotted keys"},
	{"table over nested dotted keys", "[fruit]\napple.color = 'red'\n[fruit.apple]", 3, "defined by dotted keys"},
	{"table over nested dotted keys 2", "[fruit]\napple.taste.sweet = true\n[fruit.apple.taste]", 3, "defined by dotted keys"},
	{"dotted keys into header table", "[a.b.c]\nz = 9\n[a]\nb.c.t = 1", 4, "has its own [header]"},
	{"dotted keys redefined by header after use", "[a.b.c]\n[a]\nb.d = 1\n[a.b]", 4, "defined by dotted keys"},
	{"dotted keys from another section", "[a]\nb.c = 1\n[a.x]\n[a.b.d]\n[a]", 5, "defined twice"},
	{"empty header", "[]", 1, "expected a key"},
	{"unclosed header", "[a\nb = 1", 1, "expected ] after [a"},
	{"space in array header brackets", "[ [a] ]", 1, "expected a key"},
	{"unclosed array header", "[[a]\n", 1, "expected ]] after [[a"},
	{"text after header", "[a] b = 1", 1, "expected end of line"},
	{"extra bracket", "[a]]", 1, "expected end of line"},

	// Arrays of tables.
	{"array of tables over table", "[a]\n[[a]]", 2, "already a table"},
	{"table over array of tables", "[[a]]\n[a]", 2, "an array of tables"},
	{"array of tables over static array", "a = []\n[[a]]", 2, "already defined as an array"},
	{"array of tables over inline array of tables", "a = [{}]\n[[a]]", 2, "already defined as an array"},
	{"dotted keys into array of tables", "[[x.a]]\n[x]\na.b = 1", 3, "an array of tables"},
	{"array of tables over dotted value", "a.b = 1\n[[a.b]]", 2, "already defined as an integer"},
	{"array of tables over dotted table", "a.b.c = 1\n[[a.b]]", 2, "already a table"},
}

func TestDecodeInvalid(t *testing.T) {
	for _, tt := range invalidTests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Decode([]byte(tt.src))
			if err == nil {
				t.Fatalf("Decode(%q) = %#v, want an error", tt.src, got)
			}
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("Decode(%q): error %#v is not a *ParseError", tt.src, err)
			}
			if pe.Line != tt.line || !strings.Contains(pe.Msg, tt.msg) {
				t.Errorf("Decode(%q): error %q, want line %d containing %q", tt.src, err, tt.line, tt.msg)
			}
			if got != nil {
				t.Errorf("Decode(%q) returned a document with its error", tt.src)
			}
		})
	}
}

func TestNesting(t *testing.T) {
	for _, tt := range []struct {
		depth int
		open  string
		close string
		ok    bool
	}{
		{MaxDepth, "[", "]", true},
		{MaxDepth + 1, "[", "]", false},
		{256, "[", "]", false},
		{1 << 20, "[", "]", false},
		{MaxDepth, "{a=", "}", true},
		{256, "{a=", "}", false},
		{1 << 20, "{a=", "}", false},
		{256, "[{a=", "}]", false},
	} {
		src := "x = " + strings.Repeat(tt.open, tt.depth) + "1" + strings.Repeat(tt.close, tt.depth)
		_, err := Decode([]byte(src))
		if (err == nil) != tt.ok {
			t.Errorf("%d × %q: error %v, want ok=%v", tt.depth, tt.open, err, tt.ok)
		}
		if err != nil && !strings.Contains(err.Error(), "nest more than") {
			t.Errorf("%d × %q: error %v is not about nesting", tt.depth, tt.open, err)
		}
	}
}

// Deeply dotted keys and headers need no recursion.
func TestLongKeys(t *testing.T) {
	const n = 100000
	key := strings.Repeat("a.", n) + "b"
	for _, src := range []string{key + " = 1", "[" + key + "]", "[[" + key + "]]", "x = {" + key + " = 1}"} {
		doc, err := Decode([]byte(src))
		if err != nil {
			t.Fatalf("%.20q...: %v", src, err)
		}
		depth := 0
		for cur := any(doc); ; depth++ {
			mm, ok := cur.(map[string]any)
			if !ok {
				break
			}
			if next, ok := mm["a"]; ok {
				cur = next
			} else if next, ok := mm["x"]; ok {
				cur = next
			} else {
				break
			}
		}
		if depth < n {
			t.Errorf("%.20q...: only %d nested tables", src, depth)
		}
	}
}

func TestStringers(t *testing.T) {
	for _, tt := range []struct {
		v    interface{ String() string }
		want string
	}{
		{LocalDate{1979, 5, 27}, "1979-05-27"},
		{LocalDate{1, 1, 1}, "0001-01-01"},
		{LocalTime{7, 3, 0, 0}, "07:03:00"},
		{LocalTime{7, 3, 0, 999999000}, "07:03:00.999999"},
		{LocalTime{7, 3, 0, 1}, "07:03:00.000000001"},
		{LocalDateTime{LocalDate{1979, 5, 27}, LocalTime{0, 32, 0, 500000000}}, "1979-05-27T00:32:00.5"},
	} {
		if got := tt.v.String(); got != tt.want {
			t.Errorf("%#v.String() = %q, want %q", tt.v, got, tt.want)
		}
	}
}

func TestParseErrorString(t *testing.T) {
	_, err := Decode([]byte("a = 1\nb = @"))
	if err == nil || err.Error() != `line 2: expected a value, found '@' (strings need quotes)` {
		t.Errorf("error = %v", err)
	}
}

// seedCorpus is every document of the table tests, for the fuzzer.
func seedCorpus() []string {
	var out []string
	for _, tt := range validTests {
		out = append(out, tt.src)
	}
	for _, tt := range invalidTests {
		out = append(out, tt.src)
	}
	for _, d := range differences {
		out = append(out, d.examples...)
	}
	return append(out, trickySeeds...)
}

func ExampleDecode() {
	doc, err := Decode([]byte(`
deny_at = "high"

[rules]
allow = ["git status", "ls *"]

[[pattern]]
name = "kubectl_delete_ns"
level = "critical"
`))
	if err != nil {
		panic(err)
	}
	rules := doc["rules"].(map[string]any)
	patterns := doc["pattern"].([]map[string]any)
	fmt.Println(doc["deny_at"], rules["allow"], patterns[0]["name"])

	_, err = Decode([]byte("a = 1\na = 2\n"))
	fmt.Println(err)
	// Output:
	// high [git status ls *] kubectl_delete_ns
	// line 2: key a is defined twice
}

// benchDoc is a configuration file of realistic size (about 3 KB); tables
// are prefixed with prefix (which ends with a dot, or is empty).
func benchDoc(prefix string) []byte {
	var src []byte
	if prefix != "" {
		src = append(src, "["+strings.TrimSuffix(prefix, ".")+"]\n"...)
	}
	src = append(src, "deny_at = \"high\"\nask_at = \"medium\"\nread_only = true\n["+prefix+"rules]\nallow = [\"git status\", \"ls *\", 'grep *']\ndeny = [\n  \"rm -rf /\",  # never\n]\n"...)
	for i := 0; i < 20; i++ {
		src = append(src, "[["+prefix+"pattern]]\nname = \"p\"\nregex = '^kubectl\\s+delete\\s+(ns|namespace)\\b'\nlevel = \"critical\"\nmatch = { programs = [\"kubectl\", \"oc\"] }\n"...)
	}
	return src
}

func BenchmarkDecode(b *testing.B) {
	src := benchDoc("")
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Decode(src); err != nil {
			b.Fatal(err)
		}
	}
}

// Decode is linear: a document 100 times as large takes about 100 times as
// long (compare ns/op with BenchmarkDecode).
func BenchmarkDecodeLarge(b *testing.B) {
	var src []byte
	for i := 0; i < 100; i++ {
		src = append(src, benchDoc("t"+strings.Repeat("x", i)+".")...)
	}
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Decode(src); err != nil {
			b.Fatal(err)
		}
	}
}
