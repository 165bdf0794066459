// Package clitest holds what the testscript scripts of the commands
// (cmd/shellguard, cmd/shellguard-hook) share: a home of each script's own,
// and helper commands for what a script cannot say with testscript's own
// (an exit status, an agent's hook input, an allow-once code read from the
// output, time passing in a store, a listing of a folder).
package clitest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
)

// Params returns the testscript parameters of the scripts in dir: a
// hermetic home (Setup), the conditions and the helper commands below.
// update rewrites the expected output of cmp lines that fail. The work
// folders are under t's temporary folder, removed when t ends (testscript's
// own root stays behind when -run selects some of the scripts).
func Params(t testing.TB, dir string, update bool) testscript.Params {
	return testscript.Params{
		Dir:                 dir,
		WorkdirRoot:         t.TempDir(),
		Setup:               scriptSetup,
		Cmds:                scriptCmds,
		Condition:           scriptCondition,
		UpdateScripts:       update,
		RequireExplicitExec: true,
		RequireUniqueNames:  true,
	}
}

// scriptSetup gives each script a home of its own ($HOME = $WORK/home,
// the XDG folders under it, no managed tier unless the script makes one
// in $WORK/managed) and names today's date plus three days ($IN3DAYS).
func scriptSetup(e *testscript.Env) error {
	home := filepath.Join(e.WorkDir, "home")
	for _, d := range []string{".config", ".state", ".local/share", ".cache"} {
		if err := os.MkdirAll(filepath.Join(home, d), 0o700); err != nil {
			return err
		}
	}
	e.Setenv("HOME", home)
	e.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	e.Setenv("XDG_STATE_HOME", filepath.Join(home, ".state"))
	e.Setenv("XDG_DATA_HOME", filepath.Join(home, ".local", "share"))
	e.Setenv("XDG_CACHE_HOME", filepath.Join(home, ".cache"))
	e.Setenv("SHELLGUARD_MANAGED_DIR", filepath.Join(e.WorkDir, "managed"))
	e.Setenv("IN3DAYS", time.Now().AddDate(0, 0, 3).Format("2006-01-02"))
	return nil
}

// scriptCondition: [root] holds when the tests run as root (the managed
// tier needs root-owned files); [etcshellguard] when /etc/shellguard
// exists (then SHELLGUARD_MANAGED_DIR is ignored, as it must be).
func scriptCondition(cond string) (bool, error) {
	switch cond {
	case "root":
		return os.Geteuid() == 0, nil
	case "etcshellguard":
		_, err := os.Lstat("/etc/shellguard")
		return err == nil, nil
	}
	return false, fmt.Errorf("unknown condition %q", cond)
}

var scriptCmds = map[string]func(ts *testscript.TestScript, neg bool, args []string){
	"exits":           cmdExits,
	"hookin":          cmdHookin,
	"allowcode":       cmdAllowcode,
	"age-refusal":     cmdAgeRefusal,
	"expire-approval": cmdExpireApproval,
	"stamp":           cmdStamp,
	"listing":         cmdListing,
	"perm":            cmdPerm,
}

// exits CODE PROGRAM [ARGS...] runs PROGRAM as exec does and checks its
// exit status is CODE (! exits: is not CODE).
func cmdExits(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) < 2 {
		ts.Fatalf("usage: exits CODE PROGRAM [ARGS...]")
	}
	want, err := strconv.Atoi(args[0])
	ts.Check(err)
	err = ts.Exec(args[1], args[2:]...)
	got := 0
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		got = ee.ExitCode()
	case err != nil:
		ts.Fatalf("%s: %v", args[1], err)
	}
	ts.Logf("[exit status %d]", got)
	if (got == want) == neg {
		if neg {
			ts.Fatalf("exit status %d, want any other", got)
		}
		ts.Fatalf("exit status %d, want %d", got, want)
	}
}

// Each agent's hook input, shaped like its documented stdin (the cwd and
// the command are filled in).
var hookInputs = map[string]string{
	"claude": `{"session_id":"sess-1","transcript_path":"/home/u/.claude/projects/p/sess-1.jsonl","cwd":%s,` +
		`"permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"Bash",` +
		`"tool_input":{"command":%s,"description":"Run it","timeout":120000},"tool_use_id":"toolu_01"}`,
	"gemini": `{"session_id":"sess-1","transcript_path":"/home/u/.gemini/tmp/chats/sess-1.json","cwd":%s,` +
		`"hook_event_name":"BeforeTool","timestamp":"2026-01-02T03:04:05.000Z","tool_name":"run_shell_command",` +
		`"tool_input":{"command":%s,"description":"Run it"}}`,
	"codex": `{"session_id":"sess-1","turn_id":"turn-1","transcript_path":null,"cwd":%s,` +
		`"hook_event_name":"PreToolUse","model":"gpt-5","permission_mode":"default","tool_name":"Bash",` +
		`"tool_input":{"command":%s},"tool_use_id":"call_1"}`,
}

// hookin [-pad N] AGENT COMMAND prints AGENT's hook input for COMMAND
// (with N more bytes of "x" after it), its cwd the current folder: then
// "stdin stdout" feeds it to the hook.
func cmdHookin(ts *testscript.TestScript, neg bool, args []string) {
	pad := 0
	if len(args) > 2 && args[0] == "-pad" {
		n, err := strconv.Atoi(args[1])
		ts.Check(err)
		pad, args = n, args[2:]
	}
	if neg || len(args) != 2 {
		ts.Fatalf("usage: hookin [-pad N] AGENT COMMAND")
	}
	tmpl, ok := hookInputs[args[0]]
	if !ok {
		ts.Fatalf("hookin: no agent %q", args[0])
	}
	cwd, _ := json.Marshal(ts.MkAbs("."))
	command, _ := json.Marshal(args[1] + strings.Repeat("x", pad))
	fmt.Fprintf(ts.Stdout(), tmpl, cwd, command)
}

var allowOnceRE = regexp.MustCompile("shellguard allow once ([2-9A-HJKMNP-TW-Z]{8})`")

// allowcode VAR sets VAR to the allow-once code the last command's output
// carries; ! allowcode checks it carries none.
func cmdAllowcode(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 1 && !neg || len(args) > 1 {
		ts.Fatalf("usage: allowcode VAR")
	}
	m := allowOnceRE.FindStringSubmatch(ts.ReadFile("stdout") + ts.ReadFile("stderr"))
	switch {
	case neg && m != nil:
		ts.Fatalf("the output carries the code %s", m[1])
	case neg:
	case m == nil:
		ts.Fatalf("no allow-once code in the output")
	default:
		ts.Setenv(args[0], m[1])
	}
}

// age-refusal CODE DURATION sets the expiry of the refusal carrying CODE
// in the refusals file to now+DURATION (a test stands in for minutes
// passing).
func cmdAgeRefusal(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: age-refusal CODE DURATION")
	}
	d, err := time.ParseDuration(args[1])
	ts.Check(err)
	path := filepath.Join(ts.Getenv("XDG_CONFIG_HOME"), "shellguard", "refusals.jsonl")
	data, err := os.ReadFile(path)
	ts.Check(err)
	var out bytes.Buffer
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<20)
	found := false
	for sc.Scan() {
		line := sc.Bytes()
		var m map[string]any
		if json.Unmarshal(line, &m) == nil && m["code"] == args[0] && m["event"] == "refused" {
			m["expires"] = time.Now().Add(d).UTC().Format(time.RFC3339Nano)
			line, _ = json.Marshal(m)
			found = true
		}
		out.Write(line)
		out.WriteByte('\n')
	}
	if !found {
		ts.Fatalf("no refusal with the code %s in %s", args[0], path)
	}
	ts.Check(os.WriteFile(path, out.Bytes(), 0o600))
}

// expire-approval FILE N makes the Nth approval (from 1) of an approvals
// file expire a minute ago.
func cmdExpireApproval(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: expire-approval FILE N")
	}
	n, err := strconv.Atoi(args[1])
	ts.Check(err)
	path := ts.MkAbs(args[0])
	data, err := os.ReadFile(path)
	ts.Check(err)
	var f map[string]any
	ts.Check(json.Unmarshal(data, &f))
	list, _ := f["approvals"].([]any)
	if n < 1 || n > len(list) {
		ts.Fatalf("%s holds %d approvals", path, len(list))
	}
	list[n-1].(map[string]any)["expires"] = time.Now().Add(-time.Minute).UTC().Format(time.RFC3339)
	data, err = json.Marshal(f)
	ts.Check(err)
	ts.Check(os.WriteFile(path, data, 0o600))
}

var agoRE = regexp.MustCompile(`"ago":"([^"]*)"`)

// stamp FILE expands $VAR in FILE as the script's environment holds it,
// and replaces each "ago":"DURATION" by the "time" that long before now
// (a script writes audit records relative to when it runs).
func cmdStamp(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: stamp FILE")
	}
	path := ts.MkAbs(args[0])
	data, err := os.ReadFile(path)
	ts.Check(err)
	data = []byte(os.Expand(string(data), ts.Getenv))
	now := time.Now().UTC()
	var bad error
	data = agoRE.ReplaceAllFunc(data, func(m []byte) []byte {
		d, err := time.ParseDuration(string(agoRE.FindSubmatch(m)[1]))
		if err != nil {
			bad = err
		}
		return []byte(`"time":"` + now.Add(-d).Format(time.RFC3339Nano) + `"`)
	})
	ts.Check(bad)
	ts.Check(os.WriteFile(path, data, 0o600))
}

// listing DIR prints every file under DIR with its content or link
// target, sorted: compare two listings to see that nothing changed.
func cmdListing(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: listing DIR")
	}
	root := ts.MkAbs(args[0])
	var lines []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		fi, err := d.Info()
		if err != nil {
			return err
		}
		switch {
		case fi.Mode()&os.ModeSymlink != 0:
			l, _ := os.Readlink(p)
			lines = append(lines, rel+" -> "+l)
		case fi.Mode().IsRegular():
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			lines = append(lines, fmt.Sprintf("%s %q", rel, b))
		default:
			lines = append(lines, rel+" "+fi.Mode().String())
		}
		return nil
	})
	ts.Check(err)
	sort.Strings(lines)
	fmt.Fprintln(ts.Stdout(), strings.Join(lines, "\n"))
}

// perm FILE MODE checks FILE's permission bits (octal).
func cmdPerm(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 2 {
		ts.Fatalf("usage: perm FILE MODE")
	}
	want, err := strconv.ParseUint(args[1], 8, 32)
	ts.Check(err)
	fi, err := os.Stat(ts.MkAbs(args[0]))
	ts.Check(err)
	if got := fi.Mode().Perm(); (got == fs.FileMode(want)) == neg {
		ts.Fatalf("%s has mode %#o", args[0], got)
	}
}
