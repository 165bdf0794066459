package jsonw_test

import (
	"bytes"
	"fmt"
	"testing"
	"time"

	"github.com/shellguard/shellguard/internal/jsonw"
	"github.com/shellguard/shellguard/internal/testbin"
)

func encoded(t *testing.T, v any) []byte {
	t.Helper()
	return bytes.TrimSuffix(testbin.JSONLine(t, v), []byte("\n"))
}

func FuzzAppendString(f *testing.F) {
	for _, s := range []string{"", "a\"b\\c\n\r\t\b\f\x00\x1f\x7f<>&\u2028\u2029é\xff\xfe日本", "\xed\xa0\x80"} {
		f.Add(s, int64(0))
	}
	f.Fuzz(func(t *testing.T, s string, nanos int64) {
		if got, want := jsonw.AppendString(nil, s), encoded(t, s); !bytes.Equal(got, want) {
			t.Errorf("AppendString(%q) = %s, encoding/json: %s", s, got, want)
		}
		tm := time.Unix(0, nanos).In(time.FixedZone("", int(nanos%50000)))
		if got, want := jsonw.AppendTime(nil, tm), encoded(t, tm); !bytes.Equal(got, want) {
			t.Errorf("AppendTime(%v) = %s, encoding/json: %s", tm, got, want)
		}
		type rec struct {
			A string   `json:"a,omitempty"`
			L []string `json:"l,omitempty"`
		}
		r := rec{A: s, L: []string{s, ""}}
		b := append([]byte(`{"x":0`), jsonw.AppendField(nil, "a", r.A, true)...)
		b = append(jsonw.AppendList(b, "l", r.L), '}')
		if want := append([]byte(`{"x":0,`), encoded(t, r)[1:]...); s != "" && !bytes.Equal(b, want) {
			t.Errorf("fields %s, encoding/json %s", b, want)
		}
	})
}

func ExampleAppendString() {
	b := []byte(`{"command":`)
	b = jsonw.AppendString(b, "echo \"<hi>\"\n")
	b = jsonw.AppendList(b, "rules", []string{"ask: rm *"})
	fmt.Println(string(append(b, '}')))
	// Output: {"command":"echo \"<hi>\"\n","rules":["ask: rm *"]}
}
