package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// runIn runs the real binary in dir with HOME=home and extra environment.
func runEnv(t *testing.T, dir, home string, env []string, args ...string) (string, int) {
	t.Helper()
	cmd := exec.Command(sgBinary(t), args...)
	cmd.Env = append([]string{"HOME=" + home, "XDG_CONFIG_HOME=" + filepath.Join(home, ".config"), "PATH=" + os.Getenv("PATH")}, env...)
	cmd.Dir = dir
	var out bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = &out
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), code
}

// listing returns every file under root with its content (or link target).
func listing(t *testing.T, root string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.Walk(root, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		switch {
		case fi.Mode()&os.ModeSymlink != 0:
			l, _ := os.Readlink(p)
			out[rel] = "-> " + l
		case fi.Mode().IsRegular():
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			out[rel] = string(b)
		default:
			out[rel] = fi.Mode().String()
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func sameListing(t *testing.T, before, after map[string]string) {
	t.Helper()
	for k, v := range before {
		if after[k] != v {
			t.Errorf("%s changed: %q -> %q", k, v, after[k])
		}
	}
	for k := range after {
		if _, ok := before[k]; !ok {
			t.Errorf("%s was created", k)
		}
	}
}

// TestAllowAddRefusesWhatIsNotAStore is issue 11 item 1 on the real
// binary: allow add, given a path that leads to something that is not an
// approvals file, exits 2 with a clear message and changes nothing (no
// .corrupt copy, no lock file).
func TestAllowAddRefusesWhatIsNotAStore(t *testing.T) {
	cases := []struct {
		name  string
		setup func(t *testing.T, root string) (args, env []string)
	}{
		{"the issue's reproducer", func(t *testing.T, root string) ([]string, []string) {
			mkdirs(t, root, "store", "target")
			write(t, filepath.Join(root, "target", "bashrc"), "export FOO=1\n")
			if err := os.Symlink("../target/bashrc", filepath.Join(root, "store", "approvals.json")); err != nil {
				t.Fatal(err)
			}
			return []string{"allow", "add", "--approvals", "store/approvals.json", "--", "tool x"}, nil
		}},
		{"the same link in SHELLGUARD_APPROVALS", func(t *testing.T, root string) ([]string, []string) {
			mkdirs(t, root, "store", "target")
			write(t, filepath.Join(root, "target", "bashrc"), "export FOO=1\n")
			if err := os.Symlink("../target/bashrc", filepath.Join(root, "store", "approvals.json")); err != nil {
				t.Fatal(err)
			}
			return []string{"allow", "add", "--", "tool x"}, []string{"SHELLGUARD_APPROVALS=store/approvals.json"}
		}},
		{"a mistyped --approvals ~/.ssh/config", func(t *testing.T, root string) ([]string, []string) {
			mkdirs(t, root, ".ssh")
			write(t, filepath.Join(root, ".ssh", "config"), "Host *\n  ServerAliveInterval 60\n")
			return []string{"allow", "add", "--approvals", filepath.Join(root, ".ssh", "config"), "--", "tool x"}, nil
		}},
		{"a dangling link", func(t *testing.T, root string) ([]string, []string) {
			mkdirs(t, root, "store", "target")
			if err := os.Symlink("../target/passwd", filepath.Join(root, "store", "approvals.json")); err != nil {
				t.Fatal(err)
			}
			return []string{"allow", "add", "--approvals", "store/approvals.json", "--", "tool x"}, nil
		}},
		{"remove through a link", func(t *testing.T, root string) ([]string, []string) {
			mkdirs(t, root, "store", "target")
			write(t, filepath.Join(root, "target", "bashrc"), "export FOO=1\n")
			if err := os.Symlink("../target/bashrc", filepath.Join(root, "store", "approvals.json")); err != nil {
				t.Fatal(err)
			}
			return []string{"allow", "remove", "--approvals", "store/approvals.json", "--", "tool *"}, nil
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			args, env := tc.setup(t, root)
			before := listing(t, root)
			out, code := runEnv(t, root, root, env, args...)
			if code != 2 {
				t.Errorf("exit %d, want 2:\n%s", code, out)
			}
			if !strings.Contains(out, "not a shellguard approvals file") || !strings.Contains(out, "does not change it") {
				t.Errorf("the message does not say why:\n%s", out)
			}
			sameListing(t, before, listing(t, root))
		})
	}
}

// A link to a valid store (a dotfile manager's) is followed: the target is
// replaced, the link stays.
func TestAllowAddThroughLinkToStore(t *testing.T) {
	root := t.TempDir()
	mkdirs(t, root, "store", "dotfiles")
	target := filepath.Join(root, "dotfiles", "approvals.json")
	write(t, target, `{"version":2,"approvals":[{"kind":"prefix","pattern":"ls"}]}`)
	link := filepath.Join(root, "store", "approvals.json")
	if err := os.Symlink("../dotfiles/approvals.json", link); err != nil {
		t.Fatal(err)
	}
	out, code := runEnv(t, root, root, nil, "allow", "add", "--approvals", link, "--", "tool x")
	if code != 0 || !strings.Contains(out, "approved: tool *") {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link was replaced")
	}
	if b, _ := os.ReadFile(target); !bytes.Contains(b, []byte(`"tool"`)) || !bytes.Contains(b, []byte(`"ls"`)) {
		t.Errorf("target:\n%s", b)
	}
	if _, err := os.Stat(filepath.Join(root, "dotfiles", ".approvals.json.shellguard-lock")); err != nil {
		t.Errorf("lock file: %v", err)
	}
}

func mkdirs(t *testing.T, root string, names ...string) {
	t.Helper()
	for _, n := range names {
		if err := os.MkdirAll(filepath.Join(root, n), 0o700); err != nil {
			t.Fatal(err)
		}
	}
}

func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}
