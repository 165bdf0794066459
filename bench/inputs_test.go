package bench

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// sample is a fixed set of real command lines of the kind coding agents and
// people run, so that the benchmarks measure something even without the
// shared corpora.
var sample = []string{
	"ls -la",
	"git status",
	"git diff --stat HEAD~1",
	"git log --oneline -n 20",
	"git checkout -b feature/speed",
	"git commit -m 'bench: add parse benchmarks'",
	"git push origin main",
	"go test ./... -run TestParse -count=1",
	"go build -o /tmp/shellguard ./cmd/shellguard",
	"make build",
	"npm install --save-dev typescript",
	"npm run test -- --watch=false",
	"python3 -m pytest -x tests/",
	"cat README.md | head -n 40",
	"grep -rn 'TODO' --include='*.go' .",
	"find . -name '*.go' -not -path './vendor/*' | xargs wc -l",
	"rg -n 'func main' cmd/",
	"sed -n '1,120p' policy/guard.go",
	"awk -F: '{print $1}' /etc/passwd | sort | uniq -c",
	"docker run --rm -v \"$PWD\":/src -w /src golang:1.26 go test ./...",
	"kubectl get pods -n kube-system -o wide",
	"curl -fsSL https://example.com/install.sh | sh",
	"rm -rf node_modules dist",
	"rm -rf /",
	"sudo apt-get update && sudo apt-get install -y jq",
	"tar -czf backup.tar.gz --exclude=.git .",
	"for f in *.txt; do mv \"$f\" \"${f%.txt}.md\"; done",
	"if [ -f go.mod ]; then go mod tidy; fi",
	"export PATH=\"$HOME/go/bin:$PATH\" && staticcheck ./...",
	"echo \"$(date +%F) done\" >> log.txt",
	"bash -c 'cd /tmp && ls -la'",
	"ssh user@host 'uptime; df -h'",
	"xargs -I{} sh -c 'echo {}' < list.txt",
	"cat <<'EOF' > notes.md\n# Notes\nsome text\nEOF",
	"jq '.items[] | select(.kind == \"Pod\") | .metadata.name' out.json",
	"chmod -R 777 /var/www",
	"dd if=/dev/zero of=/dev/sda bs=1M",
	"git reset --hard HEAD~3",
	"python -c 'import os; os.system(\"rm -rf ~\")'",
	"timeout 10 nice -n 5 env FOO=bar ./run.sh --verbose",
}

// findShared walks up from the working directory (the package directory
// under go test) to the first directory that has a shared/corpus
// directory beside it or in it, and returns that shared directory.
func findShared() (string, bool) {
	if d := os.Getenv("SHELLGUARD_SHARED"); d != "" {
		if fi, err := os.Stat(filepath.Join(d, "corpus")); err == nil && fi.IsDir() {
			return d, true
		}
	}
	dir, err := os.Getwd()
	if err != nil {
		return "", false
	}
	for {
		s := filepath.Join(dir, "shared")
		if fi, err := os.Stat(filepath.Join(s, "corpus")); err == nil && fi.IsDir() {
			return s, true
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", false
		}
		dir = parent
	}
}

// corpus is one set of command lines to benchmark over.
type corpus struct {
	name  string
	lines []string
}

// benignFiles are the benign corpora (one command line per line) under
// shared/corpus/benign.
var benignFiles = []struct{ name, file string }{
	{"tldr", "tldr.txt"},
	{"nl2bash", "nl2bash.txt"},
	{"cheatsheets", "cheatsheets.txt"},
}

// readLines returns the non-empty lines of a file; with column >= 0 it
// reads tab-separated rows and returns that column (rows without it are
// skipped).
func readLines(path string, column int) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 1<<16), 1<<24)
	for sc.Scan() {
		line := sc.Text()
		if column >= 0 {
			cols := strings.Split(line, "\t")
			if len(cols) <= column {
				continue
			}
			line = cols[column]
		}
		if strings.TrimSpace(line) == "" {
			continue
		}
		out = append(out, line)
	}
	return out, sc.Err()
}

// corpora returns the fixed sample followed by every benign corpus found in
// the shared directory.
func corpora(tb testing.TB) []corpus {
	cs := []corpus{{"sample", sample}}
	shared, ok := findShared()
	if !ok {
		return cs
	}
	for _, bf := range benignFiles {
		lines, err := readLines(filepath.Join(shared, "corpus", "benign", bf.file), -1)
		if os.IsNotExist(err) {
			continue
		}
		if err != nil {
			tb.Fatal(err)
		}
		cs = append(cs, corpus{bf.name, lines})
	}
	return cs
}

// bashfuscator returns the Bashfuscator payloads (column 2 of
// dangerous-bashfuscator.tsv), skipping when the file is absent.
func bashfuscator(tb testing.TB) []string {
	shared, ok := findShared()
	if !ok {
		tb.Skip("no shared/ directory above the package (the corpora are optional)")
	}
	lines, err := readLines(filepath.Join(shared, "corpus", "dangerous", "dangerous-bashfuscator.tsv"), 1)
	if os.IsNotExist(err) {
		tb.Skip("no dangerous-bashfuscator.tsv in shared/corpus/dangerous")
	}
	if err != nil {
		tb.Fatal(err)
	}
	return lines
}

// mib is the size of the huge inputs: the parser's default MaxBytes, the
// largest line that is parsed rather than refused outright.
const mib = 1 << 20

// fill repeats unit up to exactly n bytes (cutting the last copy short).
func fill(unit string, n int) string {
	s := strings.Repeat(unit, n/len(unit)+1)
	return s[:n]
}

// huge are inputs of exactly size bytes (the benchmarks use 1 MiB) built to
// be expensive for some stage: long word lists, deep or unclosed nesting,
// quoting, long pipelines, brace expansion, heredocs and nested shell
// strings.
func huge(size int) []corpus {
	heredoc := func() string {
		head, tail := "cat <<'EOF' > out.txt\n", "EOF\n"
		return head + fill("some heredoc text $(not expanded) `nor this`\n", size-len(head)-len(tail)) + tail
	}
	heredocExpanding := func() string {
		head, tail := "cat <<EOF\n", "EOF\n"
		return head + fill("line $HOME $(date) ${x:-y}\n", size-len(head)-len(tail)) + tail
	}
	wrap := func(head, unit, tail string) string {
		return head + fill(unit, size-len(head)-len(tail)) + tail
	}
	return []corpus{
		{"a_space", []string{fill("a ", size)}},
		{"subst_open", []string{fill("$(", size)}},
		{"squote", []string{fill("'", size)}},
		{"dquote", []string{fill(`"`, size)}},
		{"pipe", []string{fill("a|", size)}},
		{"semicolon", []string{fill("a;", size)}},
		{"and", []string{wrap("", "a&&", "a")}},
		{"brace_words", []string{fill("{a,b} ", size)}},
		{"brace_one_word", []string{fill("{a,b}", size)}},
		{"dollar_var", []string{fill("$a ", size)}},
		{"subst_closed", []string{fill("$(a) ", size)}},
		{"backtick", []string{fill("`a` ", size)}},
		{"assign", []string{fill("a=1 ", size)}},
		{"backslash_newline", []string{fill("a \\\n", size)}},
		{"newlines", []string{fill("a\n", size)}},
		{"heredoc_quoted", []string{heredoc()}},
		{"heredoc_expanding", []string{heredocExpanding()}},
		{"bash_c", []string{wrap("bash -c '", "a;", "'")}},
		{"rm_args", []string{wrap("rm -rf", " /tmp/x", "")}},
		{"subshells", []string{fill("(a) ", size)}},
		{"arith", []string{wrap("echo $((", "1+", "1))")}},
		{"parens_open", []string{fill("(", size)}},
		{"nul_bytes", []string{fill("a\x00", size)}},
	}
}
