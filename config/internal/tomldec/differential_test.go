package tomldec

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/BurntSushi/toml"
)

// difference is a documented, deliberate way in which Decode disagrees with
// github.com/BurntSushi/toml (v1.6, which implements TOML 1.1 and is lenient
// in places where TOML 1.0 is not). Every difference is one where BurntSushi
// accepts and Decode rejects; Decode never accepts what BurntSushi rejects.
type difference struct {
	name   string
	reason string
	// match reports whether our error err for src is this difference.
	match    func(src string, err *ParseError) bool
	examples []string
}

func msgHas(subs ...string) func(string, *ParseError) bool {
	return func(_ string, err *ParseError) bool {
		for _, s := range subs {
			if strings.Contains(err.Msg, s) {
				return true
			}
		}
		return false
	}
}

// quoted returns the first double-quoted word of msg.
var quotedRE = regexp.MustCompile(`"([^"]*)"`)

// noSecondsRE matches a time (or date-time) whose seconds are missing.
var noSecondsRE = regexp.MustCompile(`(^|[Tt ])[0-9]{2}:[0-9]{2}([^:0-9]|$)`)

// badOffsetRE matches a date-time whose offset is out of range (+24:00,
// -00:60, ...) but otherwise well formed.
var badOffsetRE = regexp.MustCompile(`^[0-9]{4}-[0-9]{2}-[0-9]{2}[Tt ][0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]+)?[+-]([0-9]{2}):([0-9]{2})$`)

var differences = []difference{
	{
		name:   "escape \\e (TOML 1.1)",
		reason: "\\e is new in TOML 1.1; Decode implements TOML 1.0",
		match:  msgHas(`invalid escape \e`),
		examples: []string{
			`a = "\e"`,
		},
	},
	{
		name:   "escape \\xHH (TOML 1.1)",
		reason: "\\xHH is new in TOML 1.1; Decode implements TOML 1.0",
		match:  msgHas(`invalid escape \x`),
		examples: []string{
			`a = "\x41"`,
		},
	},
	{
		name:   "newlines or trailing comma in inline tables (TOML 1.1)",
		reason: "TOML 1.0 inline tables are on one line without a trailing comma; 1.1 relaxed both",
		match:  msgHas("allows no newlines in inline tables", "trailing comma in inline table"),
		examples: []string{
			"a = {x = 1,}",
			"a = {\nx = 1\n}",
			"a = {x = 1, # c\n}",
		},
	},
	{
		name:   "times without seconds (TOML 1.1)",
		reason: "TOML 1.1 makes the seconds optional; TOML 1.0 requires them",
		match: func(_ string, err *ParseError) bool {
			m := quotedRE.FindStringSubmatch(err.Msg)
			return m != nil && (strings.HasPrefix(err.Msg, "invalid time") || strings.HasPrefix(err.Msg, "invalid date")) &&
				noSecondsRE.MatchString(m[1])
		},
		examples: []string{
			"a = 07:32",
			"a = 1979-05-27T07:32Z",
			"a = 1979-05-27 07:32",
		},
	},
	{
		name:   "time zone offset out of range",
		reason: "RFC 3339 offsets are at most 23:59; BurntSushi accepts +24:00 and 23:60 (Go's time.Parse does)",
		match: func(_ string, err *ParseError) bool {
			m := quotedRE.FindStringSubmatch(err.Msg)
			if m == nil || !strings.HasPrefix(err.Msg, "invalid date") {
				return false
			}
			o := badOffsetRE.FindStringSubmatch(m[1])
			return o != nil && (o[2] > "23" || o[3] > "59")
		},
		examples: []string{
			"a = 1979-05-27T07:32:00+24:00",
			"a = 1979-05-27T07:32:00-23:60",
		},
	},
	{
		name:   "[header] for a table made by dotted keys",
		reason: "TOML 1.0 (Table): a table made by dotted keys cannot be defined again with a [table] header; BurntSushi allows it",
		match:  msgHas("is already defined by dotted keys"),
		examples: []string{
			"a.b = 1\n[a]",
			"[fruit]\napple.color = 'red'\n[fruit.apple]",
		},
	},
	{
		name:   "extending an inline table",
		reason: "TOML 1.0 (Inline Table): inline tables are fully self-contained; BurntSushi lets [a.b] add to a = {...}",
		match:  msgHas("is already defined as an inline table"),
		examples: []string{
			"a = {b = 1}\n[a.c]",
			"a = {}\n[[a.b]]",
		},
	},
	{
		name:   "key/value over a table",
		reason: "TOML 1.0 (Keys): a key cannot be defined twice; BurntSushi silently drops a.b = 2 after a.b.c = 1",
		match:  msgHas("(it is already a table)"),
		examples: []string{
			"a.b.c = 1\na.b = 2",
			"a = {b.c = 1, b = 2}",
		},
	},
	{
		name:   "dotted keys into a table with a [header]",
		reason: "TOML 1.0 (Table): dotted keys cannot add to a table defined by a header (toml-test table/append-with-dotted-keys)",
		match:  msgHas("which has its own [header]"),
		examples: []string{
			"[a.b.c]\nz = 9\n[a]\nb.c.t = 1",
		},
	},
	{
		name:   "dotted keys into an array of tables",
		reason: "TOML 1.0: only [header]s refer to the last element of an array of tables; a dotted key needs a table (toml-test table/append-to-array-with-dotted-keys)",
		match:  msgHas(", an array of tables"),
		examples: []string{
			"[[x.a]]\n[x]\na.b = 1",
		},
	},
	{
		name:   "UTF-16 byte order mark",
		reason: "TOML files are UTF-8; BurntSushi drops a UTF-16 byte order mark and reads the rest as UTF-8",
		match: func(src string, err *ParseError) bool {
			return (strings.HasPrefix(src, "\xff\xfe") || strings.HasPrefix(src, "\xfe\xff")) &&
				err.Line == 1 && strings.HasPrefix(err.Msg, "invalid UTF-8 (byte 0x")
		},
		examples: []string{
			"\xff\xfea = 1",
		},
	},
	{
		name:   "six or more quotes closing a multi-line string",
		reason: "TOML 1.0 ABNF: at most two quotes may precede the closing \"\"\"; BurntSushi accepts six after an escape sequence (found by this fuzzer)",
		match:  msgHas("too many quotes at the end of a multi-line string"),
		examples: []string{
			`a = """\\""""""`,
		},
	},
	{
		name:   "nesting deeper than MaxDepth",
		reason: "bounded recursion: Decode must not overflow the stack on hostile input",
		match:  msgHas("nest more than"),
		examples: []string{
			"a = " + strings.Repeat("[", MaxDepth+1) + strings.Repeat("]", MaxDepth+1),
		},
	},
}

// deliberate returns the difference that explains our rejecting src.
func deliberate(src string, err error) (difference, bool) {
	var pe *ParseError
	if !errors.As(err, &pe) {
		return difference{}, false
	}
	for _, d := range differences {
		if d.match(src, pe) {
			return d, true
		}
	}
	return difference{}, false
}

func burntSushi(src string) (map[string]any, error) {
	var m map[string]any
	_, err := toml.Decode(src, &m)
	return m, err
}

// normalize turns decoded values of either decoder into a comparable form.
func normalize(v any) any {
	switch v := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, e := range v {
			out[k] = normalize(e)
		}
		return out
	case []map[string]any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = normalize(e)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = normalize(e)
		}
		return out
	case float64:
		if math.IsNaN(v) {
			return "float:nan"
		}
		return fmt.Sprintf("float:%b", v) // exact, and keeps the sign of zero
	case time.Time:
		switch v.Location().String() {
		case "datetime-local":
			return "local-datetime:" + v.Format("2006-01-02T15:04:05.999999999")
		case "date-local":
			return "local-date:" + v.Format("2006-01-02")
		case "time-local":
			return "local-time:" + v.Format("15:04:05.999999999")
		}
		return "datetime:" + v.Format(time.RFC3339Nano)
	case LocalDateTime:
		return "local-datetime:" + v.String()
	case LocalDate:
		return "local-date:" + v.String()
	case LocalTime:
		return "local-time:" + v.String()
	}
	return v
}

// kinds records where arrays of tables are, which normalize erases.
func kinds(v any, path string, out map[string]string) {
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			kinds(e, path+"."+k, out)
		}
	case []map[string]any:
		out[path] = "tables"
		for i, e := range v {
			kinds(e, fmt.Sprintf("%s[%d]", path, i), out)
		}
	case []any:
		out[path] = "array"
		for i, e := range v {
			kinds(e, fmt.Sprintf("%s[%d]", path, i), out)
		}
	}
}

func sameValues(a, b map[string]any) bool {
	if !reflect.DeepEqual(normalize(a), normalize(b)) {
		return false
	}
	ka, kb := map[string]string{}, map[string]string{}
	kinds(a, "", ka)
	kinds(b, "", kb)
	return reflect.DeepEqual(ka, kb)
}

// compare checks Decode against BurntSushi on src.
func compare(t *testing.T, src string) {
	t.Helper()
	ours, err := Decode([]byte(src))
	theirs, theirErr := burntSushi(src)
	switch {
	case err == nil && theirErr == nil:
		if !sameValues(ours, theirs) {
			t.Fatalf("%q:\n ours   %#v\n theirs %#v", src, normalize(ours), normalize(theirs))
		}
	case err != nil && theirErr != nil:
		var pe *ParseError
		if !errors.As(err, &pe) || pe.Line < 1 || pe.Msg == "" {
			t.Fatalf("%q: error %#v is not a *ParseError with a line", src, err)
		}
	case err != nil:
		if _, ok := deliberate(src, err); !ok {
			t.Fatalf("%q: we reject (%v), BurntSushi accepts: %#v", src, err, theirs)
		}
	default:
		t.Fatalf("%q: we accept (%#v), BurntSushi rejects: %v", src, ours, theirErr)
	}
}

func TestDeliberateDifferences(t *testing.T) {
	for _, d := range differences {
		if len(d.examples) == 0 || d.reason == "" {
			t.Errorf("%s: needs examples and a reason", d.name)
		}
		for _, src := range d.examples {
			if _, err := burntSushi(src); err != nil {
				t.Errorf("%s: %q: BurntSushi rejects it (%v); the difference is gone", d.name, src, err)
			}
			_, err := Decode([]byte(src))
			if err == nil {
				t.Errorf("%s: %q: Decode accepts it", d.name, src)
				continue
			}
			if got, ok := deliberate(src, err); !ok || got.name != d.name {
				t.Errorf("%s: %q: error %v is classified as %q", d.name, src, err, got.name)
			}
		}
	}
}

func TestAgreesWithBurntSushi(t *testing.T) {
	for _, src := range seedCorpus() {
		compare(t, src)
	}
}

func FuzzDecodeAgainstBurntSushi(f *testing.F) {
	for _, src := range seedCorpus() {
		f.Add(src)
	}
	f.Fuzz(func(t *testing.T, src string) {
		compare(t, src)
	})
}

func BenchmarkBurntSushi(b *testing.B) {
	src := string(benchDoc(""))
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := burntSushi(src); err != nil {
			b.Fatal(err)
		}
	}
}
