package shellparse

import "strings"

// lessOpenCode reads LESSOPEN ("|cmd %s", "||cmd %s", "|-cmd %s", or
// "cmd %s" whose output names a file) and LESSCLOSE ("cmd %s %s"): both
// run through a shell.
func lessOpenCode(label, name, value string, jobs []codeJob) []codeJob {
	v := strings.TrimLeft(value, " \t")
	if name != "LESSCLOSE" {
		v = strings.TrimPrefix(v, "|")
		v = strings.TrimPrefix(v, "|")
		v = strings.TrimPrefix(v, "-")
	}
	if strings.TrimSpace(v) == "" {
		return jobs
	}
	return append(jobs, codeJob{label: label, text: v})
}

// checkpointCode reads tar's --checkpoint-action: exec=CMD runs CMD.
func checkpointCode(action string, f *foundCode) {
	if cmd, ok := strings.CutPrefix(action, "exec="); ok {
		f.shell("exec=", cmd)
	}
}

// sshOptionCode reads an ssh -o option: ProxyCommand, LocalCommand and
// KnownHostsCommand run a command through the shell.
func sshOptionCode(opt string, f *foundCode) {
	k, v, ok := strings.Cut(opt, "=")
	if !ok {
		k, v, ok = strings.Cut(strings.TrimSpace(opt), " ")
	}
	if !ok {
		return
	}
	switch strings.ToLower(strings.TrimSpace(k)) {
	case "proxycommand", "localcommand", "knownhostscommand", "remotecommand":
		if strings.TrimSpace(v) != "none" {
			f.shell(strings.TrimSpace(k), strings.TrimSpace(v))
		}
	}
}

// aptOptionCode reads an apt -o option: the Pre-Invoke and Post-Invoke
// hooks and Pre-Install-Pkgs are shell commands; Dir::Bin:: names the
// programs apt runs.
func aptOptionCode(opt string, f *foundCode) {
	k, v, ok := strings.Cut(opt, "=")
	if !ok {
		return
	}
	key := strings.ToLower(strings.TrimRight(strings.TrimSpace(k), ":"))
	switch {
	case strings.HasSuffix(key, "::pre-invoke"), strings.HasSuffix(key, "::post-invoke"),
		strings.HasSuffix(key, "::post-invoke-success"), strings.HasSuffix(key, "::pre-install-pkgs"),
		strings.HasPrefix(key, "dir::bin::"):
		f.shell(strings.TrimSpace(k), v)
	}
}

// bindCode reads bind -x 'KEYSEQ: cmd'.
func bindCode(s string, f *foundCode) {
	s = strings.TrimSpace(s)
	i := 0
	if strings.HasPrefix(s, "\"") {
		i = 1
		for i < len(s) && s[i] != '"' {
			if s[i] == '\\' {
				i++
			}
			i++
		}
	}
	k := strings.IndexByte(s[min(i, len(s)):], ':')
	if k < 0 {
		return
	}
	cmd := strings.TrimSpace(s[min(i, len(s))+k+1:])
	cmd = strings.TrimSuffix(strings.TrimPrefix(cmd, "\""), "\"")
	f.shell("-x", cmd)
}

// sqlShellCode reads the meta commands of SQL clients that run shell
// commands: sqlite3 .shell/.system and .once/.output/.import '|cmd',
// psql \! and \o/\g/\w |cmd, mysql system and \!, and COPY ... PROGRAM
// 'cmd'.
func sqlShellCode(text string, f *foundCode) {
	for _, line := range strings.Split(text, "\n") {
		if f.over {
			return
		}
		t := strings.TrimSpace(line)
		for t != "" {
			word, rest := cutWord(t)
			lw := strings.ToLower(word)
			switch {
			case lw == ".shell" || lw == ".system" || lw == `\!` || lw == "system":
				f.shell(word, rest)
				t = ""
			case strings.HasPrefix(lw, `\!`):
				f.shell(`\!`, t[2:])
				t = ""
			case lw == ".once" || lw == ".output" || lw == ".import" || lw == `\o` || lw == `\out` || lw == `\g` || lw == `\w` || lw == `\write`:
				arg := strings.Trim(strings.TrimSpace(rest), "'\"")
				if cmd, ok := strings.CutPrefix(arg, "|"); ok {
					f.shell(word+" |", cmd)
				}
				t = ""
			case lw == "pager" || lw == `\p` && strings.HasPrefix(word, `\P`):
				f.shell(word, rest)
				t = ""
			default:
				t = ""
			}
		}
		sqlProgram(line, f)
	}
}

// sqlProgram records COPY ... FROM/TO PROGRAM 'cmd' (and psql's \copy).
func sqlProgram(line string, f *foundCode) {
	low := strings.ToLower(line)
	for from := 0; from < len(low); {
		k := strings.Index(low[from:], "program")
		if k < 0 {
			return
		}
		k += from
		from = k + 7
		if k > 0 && identByte(low[k-1]) || from < len(low) && identByte(low[from]) {
			continue
		}
		j := skipBlanks(line, from)
		if j >= len(line) || line[j] != '\'' {
			continue
		}
		var b strings.Builder
		for j++; j < len(line); j++ {
			if line[j] == '\'' {
				if j+1 < len(line) && line[j+1] == '\'' {
					b.WriteByte('\'')
					j++
					continue
				}
				break
			}
			b.WriteByte(line[j])
		}
		f.shell("PROGRAM", b.String())
		from = j
	}
}

// tmuxKeys renders the keys tmux send-keys types into a pane (most often
// a shell): Enter, C-m and KPEnter end a line; other key names separate
// what is typed; -l sends every word as it is. dyn reports keys known
// only at run time (a variable, -H hex codes).
func tmuxKeys(s *scanned, words []Arg) (string, bool) {
	if s.has("-X -M") {
		return "", false
	}
	if s.has("-H") {
		return "", true
	}
	literal := s.has("-l")
	var b strings.Builder
	for _, a := range words {
		if a.Dynamic {
			return "", true
		}
		if literal {
			b.WriteString(a.Value)
			continue
		}
		switch strings.ToLower(a.Value) {
		case "enter", "c-m", "kpenter", "^m", "c-j":
			b.WriteByte('\n')
		case "space":
			b.WriteByte(' ')
		case "tab", "c-i":
			b.WriteByte('\t')
		case "bspace", "c-h":
		default:
			if tmuxKeyName(a.Value) {
				b.WriteByte('\n')
				continue
			}
			b.WriteString(a.Value)
		}
	}
	return b.String(), false
}

// tmuxKeyName reports a tmux key name (C-c, M-x, Escape, F1, Up, ...)
// rather than text to type.
func tmuxKeyName(k string) bool {
	switch strings.ToLower(k) {
	case "escape", "up", "down", "left", "right", "home", "end", "npage", "ppage", "pageup", "pagedown", "pgup", "pgdn",
		"ic", "dc", "insert", "delete", "btab", "any":
		return true
	}
	if len(k) >= 3 && (k[0] == 'C' || k[0] == 'M' || k[0] == 'S') && k[1] == '-' {
		return true
	}
	if len(k) >= 2 && len(k) <= 3 && (k[0] == 'F' || k[0] == 'f') && isDigits(k[1:]) {
		return true
	}
	return false
}

// screenCode reads screen's argv: with -X, a screen command (stuff TEXT
// types TEXT into the window's shell; exec and screen run a program);
// otherwise the command of a new session, unless the options name a
// session to resume or list.
func screenCode(base string, s *scanned, words []Arg, jobs []codeJob) []codeJob {
	return screenCodeDepth(base, s, words, jobs, 0)
}

func screenCodeDepth(base string, s *scanned, words []Arg, jobs []codeJob, depth int) []codeJob {
	if depth > maxCodeDepth {
		return append(jobs, codeJob{label: base + " -X", dynamic: true})
	}
	if s.has("-X") {
		cmd := words[min(s.after, len(words)):]
		if len(cmd) == 0 || cmd[0].Dynamic {
			if len(cmd) > 0 {
				return append(jobs, codeJob{label: base + " -X", dynamic: true})
			}
			return jobs
		}
		args := cmd[1:]
		switch cmd[0].Value {
		case "stuff":
			text, dyn := joinWords(args)
			text = screenUnescape(text)
			if strings.TrimSpace(text) == "" {
				return jobs
			}
			return append(jobs, codeJob{label: base + " -X stuff", text: text, dynamic: dyn})
		case "exec":
			if len(args) > 0 && strings.Trim(args[0].Value, ".|!:") == "" {
				args = args[1:] // the file descriptor pattern
			}
			if len(args) > 0 {
				return append(jobs, codeJob{label: base + " -X exec", argv: append([]Arg(nil), args...)})
			}
		case "screen":
			for len(args) > 0 && (strings.HasPrefix(args[0].Value, "-") || isDigits(args[0].Value)) {
				if hasWord("-t -T -h -L -Logfile -s", args[0].Value) && len(args) > 1 {
					args = args[1:]
				}
				args = args[1:]
			}
			if len(args) > 0 {
				return append(jobs, codeJob{label: base + " -X screen", argv: append([]Arg(nil), args...)})
			}
		case "at":
			// at WINDOW COMMAND ARGS: the command in another window.
			if len(args) > 1 {
				inner := scanned{opts: []scOpt{{name: "-X"}}}
				return screenCodeDepth(base, &inner, args[1:], jobs, depth+1)
			}
		case "eval":
			for _, a := range args {
				if a.Dynamic {
					return append(jobs, codeJob{label: base + " -X eval", dynamic: true})
				}
				words := splitQuoted(a.Value)
				inner := scanned{opts: []scOpt{{name: "-X"}}}
				jobs = screenCodeDepth(base, &inner, argvArgs(words), jobs, depth+1)
			}
		case "source", "bind", "bindkey", "register", "paste", "readbuf":
			return append(jobs, codeJob{label: base + " -X " + cmd[0].Value, dynamic: true})
		}
		return jobs
	}
	if s.has("-r -R -x -ls -list -Q -wipe -v -h --help --version") || s.has("-d -D") && !s.has("-m") {
		return jobs
	}
	if len(words) == 0 {
		return jobs
	}
	return append(jobs, codeJob{label: base, argv: append([]Arg(nil), words...)})
}

// screenUnescape resolves the escapes screen reads in stuff's text (^M,
// \n, \r, \015, \\).
func screenUnescape(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '^' && i+1 < len(s):
			i++
			switch s[i] {
			case 'M', 'm', 'J', 'j':
				b.WriteByte('\n')
			default:
				b.WriteByte('\n') // another control key
			}
		case c == '\\' && i+1 < len(s):
			i++
			switch e := s[i]; {
			case e == 'n' || e == 'r':
				b.WriteByte('\n')
			case e >= '0' && e <= '7':
				n := 0
				k := 0
				for k < 3 && i < len(s) && s[i] >= '0' && s[i] <= '7' {
					n = n*8 + int(s[i]-'0')
					i++
					k++
				}
				i--
				if n == 13 || n == 10 {
					b.WriteByte('\n')
				} else {
					b.WriteByte(byte(n))
				}
			default:
				b.WriteByte(e)
			}
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}
