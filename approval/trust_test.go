package approval

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/shellguard/shellguard/internal/shquote"
)

func TestCheckTrust(t *testing.T) {
	type setup func(t *testing.T, dir string) string // returns the path to check
	file := func(mode os.FileMode) setup {
		return func(t *testing.T, dir string) string {
			p := filepath.Join(dir, "approvals.json")
			writeFile(t, p, "{}", mode)
			return p
		}
	}
	// linkTo makes link.json, a symbolic link to a file of that mode.
	linkTo := func(mode os.FileMode) setup {
		return func(t *testing.T, dir string) string {
			link := filepath.Join(dir, "link.json")
			if err := os.Symlink(file(mode)(t, dir), link); err != nil {
				t.Fatal(err)
			}
			return link
		}
	}
	tests := []struct {
		name    string
		dirMode os.FileMode
		setup   setup
		// wantPath is the base name of TrustError.Path, or "" when trusted.
		wantPath string
	}{
		{"private file", 0o700, file(0o600), ""},
		{"readable by all", 0o755, file(0o644), ""},
		{"read-only", 0o500, file(0o400), ""},
		{"group-writable file", 0o700, file(0o660), "approvals.json"},
		{"other-writable file", 0o700, file(0o602), "approvals.json"},
		{"group-writable folder", 0o770, file(0o600), "d"},
		{"world-writable folder", 0o777, file(0o600), "d"},
		{"sticky world-writable folder", 0o1777, file(0o600), "d"},
		{"missing file", 0o700, func(t *testing.T, dir string) string { return filepath.Join(dir, "approvals.json") }, ""},
		{"missing file in a shared folder", 0o777, func(t *testing.T, dir string) string { return filepath.Join(dir, "approvals.json") }, "d"},
		{"missing folder", 0o700, func(t *testing.T, dir string) string { return filepath.Join(dir, "x", "y", "approvals.json") }, ""},
		{"link to a private file", 0o700, linkTo(0o600), ""},
		{"link to a world-writable file", 0o700, linkTo(0o666), "approvals.json"},
		{"dangling link into a shared folder", 0o700, func(t *testing.T, dir string) string {
			shared := mkdir(t, filepath.Join(dir, "shared"))
			if err := os.Chmod(shared, 0o777); err != nil {
				t.Fatal(err)
			}
			link := filepath.Join(dir, "link.json")
			if err := os.Symlink(filepath.Join(shared, "approvals.json"), link); err != nil {
				t.Fatal(err)
			}
			return link
		}, "shared"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := mkdir(t, filepath.Join(t.TempDir(), "d"))
			path := tt.setup(t, dir)
			if err := os.Chmod(dir, tt.dirMode); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = os.Chmod(dir, 0o700) })
			err := checkTrust(path)
			if tt.wantPath == "" {
				if err != nil {
					t.Fatalf("checkTrust(%s) = %v, want trusted", path, err)
				}
				return
			}
			var te *TrustError
			if !errors.As(err, &te) {
				t.Fatalf("checkTrust(%s) = %v, want a *TrustError", path, err)
			}
			if filepath.Base(te.Path) != tt.wantPath {
				t.Errorf("blames %s, want %s", te.Path, tt.wantPath)
			}
			if te.File != path || !strings.Contains(te.Error(), path) || !strings.Contains(te.Error(), "writable") {
				t.Errorf("error %q", te)
			}
			if !strings.HasPrefix(te.Fix, "chmod go-w ") {
				t.Errorf("Fix = %q", te.Fix)
			}
		})
	}
}

func TestCheckTrustForeignOwner(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("changing a file's owner needs root")
	}
	for _, target := range []string{"file", "folder"} {
		t.Run(target, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "d")
			if err := os.Mkdir(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(dir, "approvals.json")
			writeFile(t, path, "{}", 0o644)
			owned := path
			if target == "folder" {
				owned = dir
			}
			if err := os.Chown(owned, 65534, 65534); err != nil {
				t.Fatal(err)
			}
			var te *TrustError
			if err := checkTrust(path); !errors.As(err, &te) || te.Path != owned || !strings.Contains(err.Error(), "owned by another user") {
				t.Fatalf("checkTrust = %v, want owned-by-another-user blaming %s", err, owned)
			}
			if !strings.HasPrefix(te.Fix, "chown 0 ") {
				t.Errorf("Fix = %q", te.Fix)
			}
		})
	}
}

// TestShellQuote: the paths in a trust error's fix are quoted by the one
// quoting function.
func TestShellQuote(t *testing.T) {
	tests := map[string]string{
		"/home/a/.config/x.json": "/home/a/.config/x.json",
		"/tmp/with space":        "'/tmp/with space'",
		"/tmp/it's":              `"/tmp/it's"`,
		"":                       "''",
	}
	for in, want := range tests {
		if got := shquote.Quote(in); got != want {
			t.Errorf("Quote(%q) = %q, want %q", in, got, want)
		}
	}
}
