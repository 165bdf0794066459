package interp

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

func dumpF(fs []Finding) string {
	var b []string
	for _, f := range fs {
		s := f.Kind.String()
		if c := f.Command(); c != "" {
			s += " [" + c + "]"
		} else {
			s += " (" + f.Text + ")"
		}
		if f.Dynamic {
			s += " dyn"
		}
		b = append(b, s)
	}
	return strings.Join(b, "; ")
}

func TestDump(t *testing.T) {
	src := os.Getenv("DUMP")
	if src == "" {
		t.Skip()
	}
	for _, l := range strings.Split(src, "\n---\n") {
		lang, code, _ := strings.Cut(l, ":")
		var lg Lang
		for i, n := range langNames {
			if n == lang {
				lg = Lang(i)
			}
		}
		fmt.Printf("%-60q => %s\n", code, dumpF(Analyze(lg, code)))
	}
}
