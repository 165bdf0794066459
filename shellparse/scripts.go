package shellparse

import (
	"path"
	"slices"
	"strings"
)

// Scripts a line writes, then runs: echo 'rm -rf ~' > x.sh; sh x.sh, or
// cat > /tmp/a.sh <<'EOF' ... EOF followed by bash /tmp/a.sh, ./a.sh or
// source a.sh. The walker remembers the text that echo, printf, cat and
// tee write with a known output, by the file's cleaned path; a program
// that reads that file as code (a shell's script operand, source, a
// path run as a program) has the text re-parsed as if it were given
// inline. Text appended to a file not known is remembered alone (it runs
// last). Any other redirection to a remembered file forgets it; a write
// to a file the parser cannot name forgets them all. A program that
// writes the file itself (cp, mv, sed -i) is not followed: the text
// remembered is then read although it may be gone, which can only warn
// more.

// maxScripts bounds the files a line's writes are remembered for, and
// maxScriptBytes the text kept of each (the re-parse budget applies on
// top).
const (
	maxScripts     = 16
	maxScriptBytes = 64 << 10
)

// scriptFile is a file the line wrote, and its whole text.
type scriptFile struct {
	key, text string
}

// scriptKey is the name a file is remembered by: ./x.sh and x.sh are one.
func scriptKey(p string) string { return path.Clean(p) }

// scriptText returns the text the line wrote to file p.
func (w *walker) scriptText(p string) (string, bool) {
	if len(w.scripts) == 0 {
		return "", false
	}
	key := scriptKey(p)
	for _, f := range w.scripts {
		if f.key == key {
			return f.text, true
		}
	}
	return "", false
}

// setScript remembers text as the whole of file key (ok false: its text
// is not known, and it is forgotten).
func (w *walker) setScript(key, text string, ok bool) {
	for i, f := range w.scripts {
		if f.key == key {
			if ok && len(text) <= maxScriptBytes {
				w.scripts[i].text = text
			} else {
				w.scripts = append(w.scripts[:i], w.scripts[i+1:]...)
			}
			return
		}
	}
	if ok && len(text) <= maxScriptBytes && len(w.scripts) < maxScripts {
		w.scripts = append(w.scripts, scriptFile{key: key, text: text})
	}
}

// noteWrites records what inv writes to files: the text of echo, printf
// and cat when their output is known, and of tee's files when its input
// is; any other file written is forgotten.
func (w *walker) noteWrites(inv *Invocation) {
	if len(inv.Redirs) == 0 && inv.Name != "tee" {
		return
	}
	text, known := w.writtenText(inv)
	for _, r := range inv.Redirs {
		if !r.Writes() {
			continue
		}
		if r.Dynamic {
			w.scripts = w.scripts[:0] // it may be any of them
			continue
		}
		key := scriptKey(r.Target)
		switch {
		case !known || !r.Rebinds("1") || r.Inherited:
			w.setScript(key, "", false)
		case r.Op == ">>" || r.Op == "&>>":
			// Appended to a file not known: what was appended runs
			// last, and is all that can be read.
			old, _ := w.scriptText(key)
			w.setScript(key, old+text, true)
		default:
			w.setScript(key, text, true)
		}
	}
	if inv.Name == "tee" && len(inv.Wrappers) == 0 {
		appends := false
		for _, a := range inv.Args[1:] {
			switch {
			case a.Dynamic:
				w.scripts = w.scripts[:0]
			case a.Value == "-a" || a.Value == "--append":
				appends = true
			case strings.HasPrefix(a.Value, "-"):
			default:
				key := scriptKey(a.Value)
				if old, _ := w.scriptText(key); appends {
					w.setScript(key, old+inv.Stdin, inv.StdinKnown)
				} else {
					w.setScript(key, inv.Stdin, inv.StdinKnown)
				}
			}
		}
	}
}

// writtenText is what inv writes on its standard output, when the
// parser knows it (knownOutput), and inv is that program itself (not a
// wrapper's, nor a function of the line's).
func (w *walker) writtenText(inv *Invocation) (string, bool) {
	if len(inv.Wrappers) > 0 || inv.NameDynamic() || slices.Contains(w.res.Functions, inv.Name) {
		return "", false
	}
	text, _, known := knownOutput(inv)
	return text, known
}

// scriptRun returns the job that re-reads the script at inv's program
// path (./a.sh, /tmp/a.sh) when the line wrote it: a shell script, unless
// its #! line names another interpreter.
func (w *walker) scriptRun(inv *Invocation) (reparseJob, bool) {
	if !strings.Contains(inv.Program, "/") {
		return reparseJob{}, false
	}
	text, ok := w.scriptText(inv.Program)
	if !ok {
		return reparseJob{}, false
	}
	if line, ok := strings.CutPrefix(text, "#!"); ok {
		line, _, _ = strings.Cut(line, "\n")
		f := strings.Fields(line)
		if len(f) > 0 && path.Base(f[0]) == "env" {
			f = f[1:]
			for len(f) > 0 && strings.HasPrefix(f[0], "-") {
				f = f[1:]
			}
		}
		if len(f) == 0 || !isShell(path.Base(f[0])) {
			return reparseJob{}, false
		}
	}
	return reparseJob{text: text, by: "script " + inv.Program, positional: inv.Args, hasPositional: true}, true
}
