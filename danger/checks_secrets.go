package danger

import (
	"slices"
	"strings"

	"github.com/shellguard/shellguard/shellparse"
)

// Secrets sent to the network: a line-level flow check over the parsed
// invocations. The rule packs' [[source]] tables (builtinSources) say what
// holds a secret: the output of an invocation (gh auth token, env), files
// (~/.ssh/id_*, .env) or environment variables ($AWS_SECRET_ACCESS_KEY).
// Their [[sink]] tables (builtinSinks) say which programs send data to
// another host and which of their words carry it: option values (curl -d,
// -F, -T, -H), operands (a URL, ssh's command, scp's files, dig's names),
// their standard input (nc, ssh, mail). An invocation whose own output
// carries a secret and is redirected to /dev/tcp or /dev/udp is the rule
// secret_to_socket (check secret_output).
//
// A secret reaches a sink through a pipe (cat .env | base64 | curl -d @-),
// a command substitution in one of its words (curl -d "$(env)"), a file it
// sends (curl -F f=@~/.ssh/id_rsa), an input redirection or here-string,
// a variable assigned earlier in the line (T=$(gh auth token); curl ...
// "$T"), or xargs. Programs that transform their input (base64, gzip, tar,
// jq) pass the secret on; the sources' opaque programs (wc, sha256sum, ls)
// and the sinks themselves (their output is the server's answer) do not.
//
// The level of a flow (flowLevel): none when every destination is one of
// the source's own hosts (a GitHub token sent to api.github.com); Medium
// when a credential is used as one in a header (-H, -u) and the
// destination cannot be verified; High when a deployable secret (.env) is
// copied to a host one logs in to (scp, rsync, ssh); Critical otherwise.
// Interpreter code that reads a secret and sends it is the interpreter
// analyser's (issue 12 §4, its own rule). A secret piped into an
// interpreter whose code sends its input (cat key | python3 -c
// 'requests.post(u, data=sys.stdin.read())') is the extension point: when
// that analyser reports network sends, a [[sink]] for the interpreters
// (input = true, gated by the analyser's finding) makes it a flow here.

// flowSource is a [[source]] of a rule pack.
type flowSource struct {
	name, what, pack string
	// spec matches an invocation whose output is the secret.
	spec *Spec
	m    matcher
	// files matches files that hold it (public: those that do not);
	// opaque programs read them without printing them.
	files, public *lazyRE
	opaque        []string
	// vars matches environment variables that hold it.
	vars *lazyRE
	// hosts matches the destinations where it is normally sent; onlyTo,
	// when set, the only destinations where sending it counts; criticalTo
	// the destinations where a deployable secret is Critical even on a
	// host one logs in to (a bare public IP address).
	hosts, onlyTo, criticalTo *lazyRE
	// credential: it is normally sent as a credential (a header) to
	// services one calls.
	credential bool
	// deployable: it is normally copied to the servers one deploys to
	// (.env files).
	deployable bool
}

// flowSink is a [[sink]] of a rule pack.
type flowSink struct {
	name string
	spec *Spec
	m    matcher
	// operands says what its operands are (see sinkOperands in the
	// generator).
	operands                             string
	data, form, files, credentials, urls []string
	// input: it sends its standard input; batch: its input is commands,
	// and put FILE sends FILE; publishes: what it sends is published (a
	// gist, an issue); login: it talks to hosts one logs in to (ssh, scp,
	// rsync, sftp).
	input, batch, publishes, login bool
}

// The channels a secret reaches a sink through.
const (
	chanData = iota
	chanCredential
	chanInput
	chanFile
	chanURL
)

// secretFlow is a secret reaching sink invocation i.
type secretFlow struct {
	src int // index in builtinSources
	ch  int
}

// secretLine is the flow analysis of one line, computed when a sink is
// checked.
type secretLine struct {
	sc *scan
	// out memoizes secretOut: 0 not computed, 1 being computed, 2 no, 3
	// yes (source outSrc).
	out    []uint8
	outSrc []int
	// taint: variables the line assigns a secret to, and their source.
	taint     map[string]int
	taintDone bool
	// stages indexes the invocations by pipeline stage (see inStage),
	// built the first time a stage is looked up.
	stages map[[2]int][]int
	// parent is the line a word was re-parsed from (its variables are
	// the parent's); depth counts the re-parses.
	parent *secretLine
	depth  int
}

// maxWordDepth bounds how many command substitutions deep a word is
// re-parsed.
const maxWordDepth = 3

func newSecretLine(sc *scan) *secretLine {
	n := len(sc.res.Invocations)
	return &secretLine{sc: sc, out: make([]uint8, n), outSrc: make([]int, n)}
}

// sinkOf returns the sink invocation i matches, or nil.
func sinkOf(sc *scan, i int) *flowSink {
	name := sc.name(i)
	if name == "" || sc.res.Invocations[i].NotRun {
		return nil
	}
	for _, k := range builtinSinksOf(name) {
		s := &builtinSinks[k]
		if matchSpec(sc, i, s.spec, &s.m, true) {
			return s
		}
	}
	return nil
}

// flowLevel is the highest level of the secret flows into sink
// invocation i; ok is false when there is none. The three flow rules ask
// for it: it is computed once per invocation.
func flowLevel(sc *scan, i int) (Level, bool) {
	v := &sc.invs[i]
	if v.flow == 0 {
		lv, ok := computeFlowLevel(sc, i)
		v.flow = 1
		if ok {
			v.flow = uint8(lv) + 2
		}
	}
	if v.flow == 1 {
		return 0, false
	}
	return Level(v.flow - 2), true
}

func computeFlowLevel(sc *scan, i int) (Level, bool) {
	inv := &sc.res.Invocations[i]
	if inv.NotRun {
		return 0, false
	}
	sink := sinkOf(sc, i)
	if sink == nil {
		return 0, false
	}
	flows, dests := newSecretLine(sc).sinkFlows(i, sink)
	best, found := Level(0), false
	for _, f := range flows {
		lv, ok := flowVerdict(&builtinSources[f.src], sink, f.ch, dests)
		if ok && (!found || lv > best) {
			best, found = lv, true
		}
	}
	return best, found
}

// flowVerdict is the level of one flow (see the file comment).
func flowVerdict(src *flowSource, sink *flowSink, ch int, dests []string) (Level, bool) {
	known := len(dests) > 0
	for _, d := range dests {
		known = known && d != ""
	}
	if known && !sink.publishes && src.hosts != nil {
		home := true
		for _, d := range dests {
			home = home && src.hosts.MatchString(d)
		}
		if home {
			return 0, false
		}
	}
	if src.onlyTo != nil {
		to := false
		for _, d := range dests {
			to = to || d != "" && src.onlyTo.MatchString(d)
		}
		if !to {
			return 0, false
		}
	}
	if ch == chanCredential {
		if src.credential || !known {
			return Medium, true
		}
		return Critical, true
	}
	if src.deployable && sink.login {
		for _, d := range dests {
			if d != "" && src.criticalTo != nil && src.criticalTo.MatchString(d) {
				return Critical, true
			}
		}
		return High, true
	}
	return Critical, true
}

// sinkFlows returns the secrets reaching sink invocation i and the hosts
// it sends to ("" for one that cannot be known).
func (l *secretLine) sinkFlows(i int, sink *flowSink) (flows []secretFlow, dests []string) {
	sc := l.sc
	a := sc.argv(i)
	add := func(src int, ok bool, ch int) {
		if ok {
			flows = append(flows, secretFlow{src, ch})
		}
	}
	readsInput := sink.input
	// sent notes a file the sink sends on channel ch: its standard input
	// when stdin, else the secret the file holds, if it holds one.
	sent := func(file string, stdin bool, ch int) {
		if stdin {
			readsInput = true
		} else if src, ok := l.fileSecret(file); ok {
			add(src, true, ch)
		}
	}
	opt := func(name, v string) {
		switch {
		case slices.Contains(sink.data, name):
			if file, ok := atFile(v, name == "--data-urlencode"); ok {
				sent(file, file == "-", chanFile)
				return
			}
			add(l.wordSecretCh(v, chanData))
		case slices.Contains(sink.form, name):
			_, val, _ := strings.Cut(v, "=")
			if file, ok := strings.CutPrefix(val, "@"); ok || strings.HasPrefix(val, "<") {
				if !ok {
					file = val[1:]
				}
				file, _, _ = strings.Cut(file, ";")
				sent(file, file == "-", chanFile)
				return
			}
			add(l.wordSecretCh(val, chanData))
		case slices.Contains(sink.files, name):
			sent(v, v == "-" || v == "." || v == "/dev/stdin", chanFile)
		case slices.Contains(sink.credentials, name):
			if file, ok := strings.CutPrefix(v, "@"); ok {
				sent(file, file == "-", chanCredential)
				return
			}
			add(l.wordSecretCh(v, chanCredential))
		case slices.Contains(sink.urls, name):
			dests = append(dests, hostOf(v))
			add(l.wordSecretCh(v, chanURL))
		}
	}
	for _, f := range a.flags {
		if f.has {
			opt(f.name, f.value)
		}
	}
	ops := a.pos
	if len(sink.spec.Subcommands) > 0 {
		for _, sub := range sink.spec.Subcommands {
			if k := a.subMatch(sub); k >= 0 {
				ops = a.pos[k:]
				break
			}
		}
	}
	// A word that is partly dynamic is an operand to the option scanner
	// (--post-file=$HOME/.netrc): read the options among them.
	var rest []string
	for _, o := range ops {
		if name, v, ok := strings.Cut(o, "="); ok && strings.HasPrefix(o, "-") {
			opt(name, v)
			continue
		}
		rest = append(rest, o)
	}
	ops = rest
	switch sink.operands {
	case "urls":
		for _, o := range ops {
			dests = append(dests, hostOf(o))
			add(l.wordSecretCh(o, chanURL))
		}
	case "host", "host_command":
		if len(ops) > 0 {
			dests = append(dests, hostOf(ops[0]))
			if sink.operands == "host_command" {
				for _, o := range ops[1:] {
					add(l.wordSecretCh(o, chanData))
				}
			}
		}
	case "copy":
		if len(ops) >= 2 {
			if host, remote := remoteHost(ops[len(ops)-1]); remote {
				dests = append(dests, host)
				for _, o := range ops[:len(ops)-1] {
					if _, r := remoteHost(o); !r {
						if src, ok := l.fileSecret(o); ok {
							add(src, true, chanFile)
						}
					}
				}
			}
		}
	case "files":
		dests = append(dests, "")
		for _, o := range ops {
			if o == "-" {
				readsInput = true
			} else if src, ok := l.fileSecret(o); ok {
				add(src, true, chanFile)
			}
		}
	case "names":
		for _, o := range ops {
			dests = append(dests, "")
			add(l.wordSecretCh(o, chanData))
		}
	case "items":
		l.httpieItems(i, ops, &flows, &dests, &readsInput)
	case "addresses":
		for _, o := range ops {
			kind, rest, _ := strings.Cut(o, ":")
			switch strings.ToUpper(kind) {
			case "-", "STDIN", "STDIO":
				readsInput = true
			case "FILE", "OPEN", "GOPEN", "READ":
				p, _, _ := strings.Cut(rest, ",")
				if src, ok := l.fileSecret(p); ok {
					add(src, true, chanFile)
				}
			case "TCP", "TCP4", "TCP6", "UDP", "UDP4", "UDP6", "OPENSSL", "SCTP", "DCCP", "SOCKS4", "SOCKS4A", "PROXY":
				h, _, _ := strings.Cut(rest, ":")
				dests = append(dests, hostOf(h))
			}
		}
	}
	if sink.batch {
		if text, ok := staticStdin(sc, i); ok {
			for _, line := range strings.Split(text, "\n") {
				w := strings.Fields(line)
				if len(w) >= 2 && (w[0] == "put" || w[0] == "mput" || w[0] == "reput" || w[0] == "append") {
					if src, ok := l.fileSecret(w[1]); ok {
						add(src, true, chanFile)
					}
				}
			}
		}
	}
	inv := &sc.res.Invocations[i]
	if readsInput || inv.HasWrapper("xargs") {
		if src, ok := l.stdinSecret(i); ok {
			ch := chanInput
			if !readsInput {
				ch = chanData // xargs made the input its arguments
			}
			add(src, true, ch)
		}
	}
	if len(dests) == 0 {
		dests = append(dests, "")
	}
	return flows, dests
}

// httpieItems reads httpie's operands: [METHOD] URL ITEM...; an item is
// key=value (data), key:=json, key==query, Header:value (a credential),
// key@file or key=@file or key:=@file (a file), or @file (the body).
func (l *secretLine) httpieItems(i int, ops []string, flows *[]secretFlow, dests *[]string, readsInput *bool) {
	add := func(src int, ok bool, ch int) {
		if ok {
			*flows = append(*flows, secretFlow{src, ch})
		}
	}
	k := 0
	if k < len(ops) && isHTTPMethod(ops[k]) {
		k++
	}
	if k < len(ops) {
		*dests = append(*dests, hostOf(ops[k]))
		add(l.wordSecretCh(ops[k], chanURL))
		k++
	}
	*readsInput = true
	for _, it := range ops[k:] {
		if file, ok := strings.CutPrefix(it, "@"); ok {
			if src, ok := l.fileSecret(file); ok {
				add(src, true, chanFile)
			}
			continue
		}
		sep := strings.IndexAny(it, "=:@")
		if sep <= 0 {
			continue
		}
		rest := it[sep:]
		switch {
		case strings.HasPrefix(rest, ":=@"), strings.HasPrefix(rest, "=@"), strings.HasPrefix(rest, "@"):
			file := rest[strings.IndexByte(rest, '@')+1:]
			if src, ok := l.fileSecret(file); ok {
				add(src, true, chanFile)
			}
		case strings.HasPrefix(rest, ":") && !strings.HasPrefix(rest, ":="):
			add(l.wordSecretCh(rest[1:], chanCredential))
		default:
			add(l.wordSecretCh(strings.TrimLeft(rest, ":="), chanData))
		}
	}
}

func isHTTPMethod(s string) bool {
	switch s {
	case "GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS":
		return true
	}
	return false
}

// atFile reads curl's @FILE data values (urlencode: also NAME@FILE).
func atFile(v string, urlencode bool) (string, bool) {
	if f, ok := strings.CutPrefix(v, "@"); ok {
		return f, true
	}
	if urlencode {
		if at := strings.IndexByte(v, '@'); at > 0 && !strings.Contains(v[:at], "=") {
			return v[at+1:], true
		}
	}
	return "", false
}

// hostOf returns the host a URL or host word names, in lower case, or ""
// when it cannot be known.
func hostOf(u string) string {
	u = strings.Trim(u, `"'`)
	if _, rest, ok := strings.Cut(u, "://"); ok {
		u = rest
	}
	end := strings.IndexAny(u, "/?#")
	if end >= 0 {
		u = u[:end]
	}
	if at := strings.LastIndexByte(u, '@'); at >= 0 {
		u = u[at+1:]
	}
	if strings.HasPrefix(u, "[") {
		if e := strings.IndexByte(u, ']'); e > 0 {
			u = u[1:e]
		}
	} else if c := strings.IndexByte(u, ':'); c >= 0 {
		u = u[:c]
	}
	if u == "" || strings.ContainsAny(u, "$`(){} ") {
		return ""
	}
	return strings.ToLower(u)
}

// remoteHost reads a copy destination: [user@]host:path or rsync://host/
// (a path with a slash before the colon is local).
func remoteHost(o string) (string, bool) {
	if strings.HasPrefix(o, "rsync://") || strings.HasPrefix(o, "scp://") || strings.HasPrefix(o, "sftp://") {
		return hostOf(o), true
	}
	c := strings.IndexByte(o, ':')
	if c <= 0 || strings.ContainsRune(o[:c], '/') {
		return "", false
	}
	return hostOf(o[:c]), true
}

// secretOut reports whether invocation j prints a secret, and which.
func (l *secretLine) secretOut(j int) (int, bool) {
	switch l.out[j] {
	case 1, 2:
		return 0, false
	case 3:
		return l.outSrc[j], true
	}
	l.out[j] = 1
	src, ok := l.computeOut(j)
	if ok {
		l.out[j], l.outSrc[j] = 3, src
	} else {
		l.out[j] = 2
	}
	return src, ok
}

func (l *secretLine) computeOut(j int) (int, bool) {
	sc := l.sc
	inv := &sc.res.Invocations[j]
	if inv.NotRun {
		return 0, false
	}
	name := sc.name(j)
	// A sink's output is the answer of the host it talked to.
	if name != "" && sinkOf(sc, j) != nil {
		return 0, false
	}
	for k := range builtinSources {
		s := &builtinSources[k]
		if s.spec == nil {
			continue
		}
		if name != "" && nameIn(name, s.spec.Programs) && matchSpec(sc, j, s.spec, &s.m, true) {
			return k, true
		}
		// env with no command has no program of its own.
		if name == "" && s.spec.Check == "prints_environment" && checkPrintsEnvironment(sc, j) {
			return k, true
		}
	}
	args := sc.args(j)
	switch name {
	case "echo", "printf":
		for _, x := range args[1:] {
			if src, ok := l.wordSecret(x.Value); ok && x.Dynamic {
				return src, true
			}
		}
	case "printenv":
		for _, x := range args[1:] {
			if src, ok := l.varSecret(x.Value); ok {
				return src, true
			}
		}
	}
	opaque := func(src int) bool {
		return name != "" && nameIn(name, builtinSources[src].opaque)
	}
	// A file it reads: an input redirection ($(< FILE) too), an operand,
	// an option's value.
	for _, r := range inv.Redirs {
		if r.Op == "<" || r.Op == "<>" {
			if src, ok := l.fileSecret(pathShape(r.Target, r.Dynamic)); ok && !opaque(src) {
				return src, true
			}
		}
	}
	if name != "" && name != "echo" && name != "printf" {
		a := sc.argv(j)
		for _, o := range a.pos {
			if src, ok := l.fileSecret(o); ok && !opaque(src) {
				return src, true
			}
		}
		for _, f := range a.flags {
			if f.has && f.value != "" {
				if src, ok := l.fileSecret(f.value); ok && !opaque(src) {
					return src, true
				}
			}
		}
	}
	// What it reads on its input, passed on.
	if src, ok := l.stdinSecret(j); ok && !opaque(src) {
		return src, true
	}
	return 0, false
}

// stdinSecret reports a secret on invocation j's standard input: an input
// redirection, a here-string, or the output of the previous stage of its
// pipeline.
func (l *secretLine) stdinSecret(j int) (int, bool) {
	sc := l.sc
	inv := &sc.res.Invocations[j]
	for _, r := range inv.Redirs {
		if r.Fd != "" && r.Fd != "0" {
			continue
		}
		switch r.Op {
		case "<":
			if src, ok := l.fileSecret(pathShape(r.Target, r.Dynamic)); ok {
				return src, true
			}
		case "<<<":
			if src, ok := l.wordSecret(r.Target); ok {
				return src, true
			}
		}
	}
	p := inv.Where.Find(shellparse.FramePipeline)
	if p == nil || p.Stage == 0 {
		return 0, false
	}
	if l.stages == nil {
		l.stages = map[[2]int][]int{}
		for k := range sc.res.Invocations {
			w := sc.res.Invocations[k].Where
			inner := w.Find(shellparse.FramePipeline)
			for f := w; f != nil; f = f.Parent {
				if f.Kind == shellparse.FramePipeline && (inner == f || inner.Stage == inner.Stages-1) {
					key := [2]int{f.Pipe, f.Stage}
					l.stages[key] = append(l.stages[key], k)
				}
			}
		}
	}
	for _, k := range l.stages[[2]int{p.Pipe, p.Stage - 1}] {
		if k == j {
			continue
		}
		if src, ok := l.secretOut(k); ok {
			return src, true
		}
	}
	return 0, false
}

// fileSecret reports a file that holds a secret (not a public one).
func (l *secretLine) fileSecret(path string) (int, bool) {
	if path == "" {
		return 0, false
	}
	p := path
	if strings.ContainsAny(p, `"$`) {
		p = dynShape(p)
	} else {
		p = cleanOperand(p)
	}
	for k := range builtinSources {
		s := &builtinSources[k]
		if s.files != nil && s.files.MatchString(p) && (s.public == nil || !s.public.MatchString(p)) {
			return k, true
		}
	}
	return 0, false
}

// varSecret reports an environment variable that holds a secret, or that
// the line assigned one.
func (l *secretLine) varSecret(name string) (int, bool) {
	for x := l; x != nil; x = x.parent {
		x.taintVars()
		if src, ok := x.taint[name]; ok {
			return src, true
		}
	}
	for k := range builtinSources {
		if s := &builtinSources[k]; s.vars != nil && s.vars.MatchString(name) {
			return k, true
		}
	}
	return 0, false
}

// wordSecretCh is wordSecret with the channel attached.
func (l *secretLine) wordSecretCh(text string, ch int) (int, bool, int) {
	src, ok := l.wordSecret(text)
	return src, ok, ch
}

// wordSecret reports a secret in a word: a variable that holds one, or a
// command substitution whose output is one. The word is re-parsed: what
// its substitutions run is checked as a line of its own, with this line's
// variables.
func (l *secretLine) wordSecret(text string) (int, bool) {
	if !strings.ContainsAny(text, "$`") {
		return 0, false
	}
	for _, v := range varRefs(text) {
		if src, ok := l.varSecret(v); ok {
			return src, true
		}
	}
	if l.depth >= maxWordDepth || !strings.Contains(text, "$(") && !strings.Contains(text, "`") {
		return 0, false
	}
	res := shellparse.Parse(text)
	sc := newScan(res, &scratch{})
	sub := newSecretLine(&sc)
	sub.parent, sub.depth = l, l.depth+1
	for k := range res.Invocations {
		inv := &res.Invocations[k]
		if inv.Encloser != 0 {
			continue // not in the word itself (the word is invocation 0)
		}
		if p := inv.Where.Find(shellparse.FramePipeline); p != nil && p.Stage != p.Stages-1 && frameAbove(inv.Where, shellparse.FrameCmdSubst, p) {
			continue // not the last stage of the substitution's pipeline
		}
		if src, ok := sub.secretOut(k); ok {
			return src, true
		}
	}
	return 0, false
}

// frameAbove reports whether frame p lies below the innermost frame of
// kind k (inside it), walking outwards from w.
func frameAbove(w *shellparse.Frame, k shellparse.FrameKind, p *shellparse.Frame) bool {
	for f := w; f != nil; f = f.Parent {
		if f == p {
			return true
		}
		if f.Kind == k {
			return false
		}
	}
	return false
}

// varRefs returns the names of the variables a word refers to ($NAME,
// ${NAME...}).
func varRefs(text string) []string {
	var out []string
	for k := 0; k < len(text); k++ {
		if text[k] != '$' || k+1 >= len(text) {
			continue
		}
		rest := text[k+1:]
		if rest[0] == '{' {
			rest = rest[1:]
		}
		n := 0
		for n < len(rest) && (rest[n] == '_' || rest[n] >= 'A' && rest[n] <= 'Z' || rest[n] >= 'a' && rest[n] <= 'z' || n > 0 && rest[n] >= '0' && rest[n] <= '9') {
			n++
		}
		if n > 0 {
			out = append(out, rest[:n])
		}
	}
	return out
}

// taintVars finds the variables the line assigns a secret to: NAME=$(...)
// (alone, or with export/declare/local/readonly), read NAME < FILE.
func (l *secretLine) taintVars() {
	if l.taintDone {
		return
	}
	l.taintDone = true
	sc := l.sc
	for e := range sc.res.Invocations {
		inv := &sc.res.Invocations[e]
		for _, a := range inv.Assigns {
			if a.Dynamic && a.Via == "" {
				l.taintAssign(a.Name, a.Value)
			}
		}
		switch sc.name(e) {
		case "export", "declare", "typeset", "local", "readonly":
			for _, x := range sc.args(e)[1:] {
				if name, value, ok := strings.Cut(x.Value, "="); ok && x.Dynamic {
					l.taintAssign(name, value)
				}
			}
		case "read":
			if src, ok := l.stdinSecret(e); ok {
				for _, o := range sc.argv(e).pos {
					l.setTaint(o, src)
				}
			}
		}
	}
}

func (l *secretLine) taintAssign(name, value string) {
	if name == "" {
		return
	}
	if src, ok := l.wordSecret(value); ok {
		l.setTaint(name, src)
	}
}

func (l *secretLine) setTaint(name string, src int) {
	if l.taint == nil {
		l.taint = map[string]int{}
	}
	l.taint[name] = src
}

// checkSecretOutput: the invocation's own output carries a secret (for a
// redirection of it to /dev/tcp or /dev/udp).
func checkSecretOutput(sc *scan, i int) bool {
	inv := &sc.res.Invocations[i]
	if inv.NotRun || !toSocket(inv) {
		return false
	}
	_, ok := newSecretLine(sc).secretOut(i)
	return ok
}

// toSocket reports a writing redirection to /dev/tcp or /dev/udp (the
// rule says which; this keeps the flow analysis off other lines).
func toSocket(inv *shellparse.Invocation) bool {
	for _, r := range inv.Redirs {
		if r.Writes() && (strings.Contains(r.Target, "/dev/tcp/") || strings.Contains(r.Target, "/dev/udp/")) {
			return true
		}
	}
	return false
}

// checkSecretToNetwork: a secret reaches a network sink (Critical).
func checkSecretToNetwork(sc *scan, i int) bool {
	lv, ok := flowLevel(sc, i)
	return ok && lv == Critical
}

// checkSecretToLoginHost: a deployable secret is copied to a host one
// logs in to (High).
func checkSecretToLoginHost(sc *scan, i int) bool {
	lv, ok := flowLevel(sc, i)
	return ok && lv == High
}

// checkSecretCredentialForeign: a credential is sent as one to a host
// that is not its own, or that cannot be known (Medium).
func checkSecretCredentialForeign(sc *scan, i int) bool {
	lv, ok := flowLevel(sc, i)
	return ok && lv == Medium
}

// checkPrintsEnvironment: the invocation prints the whole environment:
// env with no command, printenv with no names, set with no arguments,
// export or export -p, declare/typeset -p or -x with no names.
func checkPrintsEnvironment(sc *scan, i int) bool {
	inv := &sc.res.Invocations[i]
	name := sc.name(i)
	if name == "" {
		return inv.Name == "env" && !inv.NotRun
	}
	args := sc.args(i)[1:]
	switch name {
	case "printenv":
		for _, a := range args {
			if !strings.HasPrefix(a.Value, "-") {
				return false
			}
		}
		return true
	case "set":
		return len(args) == 0
	case "export", "declare", "typeset":
		for _, a := range args {
			v := a.Value
			if len(v) < 2 || v[0] != '-' || strings.Trim(v[1:], "px") != "" {
				return false
			}
		}
		return true
	}
	return false
}
