package shellparse_test

import (
	"testing"

	"github.com/shellguard/shellguard/shellparse"
)

func TestCleanPath(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"/tmp/../../..", "/"},
		{"/etc/", "/etc"},
		{"//", "/"},
		{"/./*", "/*"},
		{"~", "~"},
		{"~/", "~"},
		{"~/x/..", "~"},
		{"~/x/../y/", "~/y"},
		{"~/..", "/home"},
		{"~/../..", "/"},
		{"~/../../etc", "/etc"},
		{"~user/x", "~user/x"},
		{"../../../../../../../../../..", "/"},
		{"../../../../../../../../../../", "/"},
		{"../../../../../../../../../../etc", "/etc"},
		{"./../../../../../../../../../../x/..", "/"},
		{"../../../../../../../../..", "../../../../../../../../.."},
		{"../..", "../.."},
		{"./build/../dist", "dist"},
		{"build/..", "build/.."},
		{"-rf", "-rf"},
		{"", ""},
	} {
		if got := shellparse.CleanPath(tc.in); got != tc.want {
			t.Errorf("CleanPath(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
