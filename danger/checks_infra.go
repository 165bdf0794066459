package danger

import (
	"strings"

	"github.com/shellguard/shellguard/internal/textlex"
	"github.com/shellguard/shellguard/shellparse"
)

// What the infrastructure packs (database, kubernetes, iac, containers,
// fleet) share: a production target raises a destructive act to
// Critical, checks that ask the registry about another command, and the
// commands an invocation makes run elsewhere that the parser does not
// re-parse.

// commandsElsewhere returns command lines invocation i makes run that the
// parser did not re-parse, each checked by the detector as a command of
// its own (what they match is reported on i): a container's command with
// the container's paths mapped back to the host's through its mounts
// (docker run -v /:/host alpine rm -rf /host is rm -rf /), the command a
// well-known tool image runs (amazon/aws-cli s3 rm ... is aws s3 rm ...),
// a database client's shell escapes (psql's \! CMD, sqlite3's .shell CMD),
// and a delete of what an earlier mv moved (movedTreeCommand).
func commandsElsewhere(sc *scan, i int) []string {
	var out []string
	if cmd := containerHostCommand(sc, i); cmd != "" {
		out = append(out, cmd)
	}
	if cmd := containerToolCommand(sc, i); cmd != "" {
		out = append(out, cmd)
	}
	if cmd := subcommandRuns(sc, i); cmd != "" {
		out = append(out, cmd)
	}
	if cmd := movedTreeCommand(sc, i); cmd != "" {
		out = append(out, cmd)
	}
	return append(out, dbShellEscapes(sc, i)...)
}

// subcommandRuns returns the command line a subcommand of a program these
// packs know runs from its argv, which the parser does not re-parse:
// kubectl/oc exec POD CMD (the form without --), oc rsh POD CMD, heroku
// run CMD, sst shell CMD, minikube ssh CMD and minikube kubectl -- ARGS.
// (A program a rule names is not read as a possible command runner any
// more, see argvrunner.go: these are the ones that are.)
func subcommandRuns(sc *scan, i int) string {
	name, args := sc.name(i), sc.args(i)
	if len(args) < 3 {
		return ""
	}
	var sub, prefix string
	var values []string
	skip := 0 // operands after the subcommand before the command
	switch name {
	case "kubectl", "oc":
		sub, skip, values = "exec", 1, []string{"-n", "--namespace", "-c", "--container", "--context", "--kubeconfig", "-f", "--filename", "--pod-running-timeout"}
		if name == "oc" && hasWord(args, "rsh") {
			sub = "rsh"
		}
		if hasWord(args, "--") {
			return "" // the parser runs what follows --
		}
	case "heroku":
		sub, values = "run", []string{"-a", "--app", "-r", "--remote", "-s", "--size", "-e", "--env", "--type"}
	case "sst":
		sub = "shell"
	case "minikube":
		switch {
		case hasWord(args, "ssh"):
			sub, values = "ssh", []string{"-p", "--profile", "-n", "--node"}
		case hasWord(args, "kubectl"):
			sub, prefix = "kubectl", "kubectl"
		}
	}
	if sub == "" {
		return ""
	}
	k := 1
	for k < len(args) && (args[k].Dynamic || args[k].Value != sub) {
		if !args[k].Dynamic && inList(args[k].Value, values) {
			k++
		}
		k++
	}
	k++
	for k < len(args) {
		v := args[k].Value
		switch {
		case v == "--" && !args[k].Dynamic:
			k++
			skip = 0
			if prefix != "" {
				return suffixLine(append([]shellparse.Arg{{Value: prefix, Raw: prefix}}, args[k:]...))
			}
			return suffixLine(args[k:])
		case !args[k].Dynamic && strings.HasPrefix(v, "-") && len(v) > 1:
			if inList(v, values) {
				k++
			}
			k++
		case skip > 0:
			skip--
			k++
		default:
			if prefix != "" {
				return suffixLine(append([]shellparse.Arg{{Value: prefix, Raw: prefix}}, args[k:]...))
			}
			if name == "heroku" || name == "minikube" {
				// The words are joined into a command line run by a
				// shell on the dyno or the machine (heroku run 'rm -rf
				// x' -a app: heroku's own options may follow).
				var words []string
				for ; k < len(args); k++ {
					if !args[k].Dynamic && inList(args[k].Value, values) {
						k++
						continue
					}
					if args[k].Dynamic {
						words = append(words, args[k].Raw)
					} else {
						words = append(words, args[k].Value)
					}
				}
				return strings.Join(words, " ")
			}
			return suffixLine(args[k:])
		}
	}
	return ""
}

func hasWord(args []shellparse.Arg, w string) bool {
	for _, a := range args[1:] {
		if !a.Dynamic && a.Value == w {
			return true
		}
	}
	return false
}

// judgesOthers reports the checks that ask the registry whether other
// rules match: a rule using one is never asked about itself.
func judgesOthers(check string) bool {
	switch check {
	case "production_destroy", "fanout_destructive":
		return true
	}
	return false
}

// unverified reports the checks that say shellguard cannot read what runs
// (a computed program, code built at run time, an obfuscated word): they
// are not evidence that a command destroys anything.
func unverified(check string) bool {
	switch check {
	case "dynamic_program", "runtime_shell_input", "unparseable", "limit", "obfuscated_word", "env_slice",
		"decoded_argument", "lookalike_dash":
		return true
	}
	return false
}

// destroyingRule reports a rule whose match says a command destroys
// something (at level min or above): not a rule that judges others, nor
// one that only says the command cannot be verified.
func destroyingRule(x *rule, min Level) bool {
	if x.p.Level < min {
		return false
	}
	s := x.spec()
	if s == nil {
		return true
	}
	if judgesOthers(s.Check) || unverified(s.Check) {
		return false
	}
	for k := range s.Any {
		if judgesOthers(s.Any[k].Check) {
			return false
		}
	}
	return true
}

// otherRuleMatches reports whether a destroying rule of the registry at
// level min or above matches invocation i.
func otherRuleMatches(sc *scan, i int, min Level) bool {
	r := sc.reg
	if r == nil {
		return false
	}
	try := func(idx int, indexed bool) bool {
		x := r.rule(idx)
		return destroyingRule(x, min) && x.matchInvocation(sc, i, indexed)
	}
	if name := sc.name(i); name != "" {
		for _, idx := range r.forProgram(name) {
			if try(idx, true) {
				return true
			}
		}
		if strings.HasPrefix(name, "git-") {
			for _, idx := range r.forProgram("git") {
				if try(idx, true) {
					return true
				}
			}
		}
		for _, g := range r.globs {
			if g.matches(name) && try(g.rule, true) {
				return true
			}
		}
	}
	for _, idx := range r.anyProgram {
		if try(idx, false) {
			return true
		}
	}
	return false
}

// destroys reports whether the command line cmd matches a destroying rule
// of the registry (at any level), checked as a nested command of the
// check in progress. When the nesting or the re-parse budget is spent it
// reports true: what cannot be looked at is not taken as harmless.
func destroys(sc *scan, cmd string) bool {
	r := sc.reg
	if r == nil {
		return false
	}
	if sc.depth+1 > maxNested || sc.budget == nil || *sc.budget <= 0 {
		return true
	}
	*sc.budget--
	var sub hitSet
	if !r.checkInto(shellparse.Parse(cmd), &sub, sc.depth+1, sc.budget) {
		return false
	}
	for _, h := range sub.list {
		x := r.rule(h.idx)
		if !x.isParseCheck() && destroyingRule(x, Low) {
			return true
		}
	}
	return false
}

// checkProductionDestroy: invocation i destroys something (another rule
// at High or above matches it) and names a production target: the
// destruction of a production system or data store is Critical.
func checkProductionDestroy(sc *scan, i int) bool {
	return productionTarget(sc, i) && otherRuleMatches(sc, i, High)
}

// productionTarget reports an invocation that names production: a word
// prod, production or prd (prod2, ...) in its arguments, in its
// environment assignments (RAILS_ENV=production; and Rails's
// DISABLE_DATABASE_ENVIRONMENT_CHECK=1), or in those of the commands that
// run it (kubectl --context prod exec ... -- psql ...).
// Words are the runs of letters and digits, compared in lower case:
// products, preprod and nonprod are not production.
func productionTarget(sc *scan, i int) bool {
	for k, guard := i, 0; k >= 0 && k < len(sc.res.Invocations) && guard < 16; guard++ {
		inv := &sc.res.Invocations[k]
		for _, a := range inv.Assigns {
			if prodWord(a.Value) || envCheckOff(a.Name+"="+a.Value) {
				// Rails's switch exists to let destructive tasks run
				// on a production database.
				return true
			}
		}
		args := inv.Args
		if k == i {
			args = sc.args(i)
		}
		for n, a := range args {
			if n > 0 && (prodWord(a.Value) || envCheckOff(a.Value)) {
				return true
			}
		}
		if inv.Parent == k {
			break
		}
		k = inv.Parent
	}
	return false
}

// envCheckOff reports Rails's DISABLE_DATABASE_ENVIRONMENT_CHECK set to
// something (an assignment, or a rake argument).
func envCheckOff(kv string) bool {
	v, ok := strings.CutPrefix(kv, "DISABLE_DATABASE_ENVIRONMENT_CHECK=")
	return ok && v != "" && v != "0"
}

// prodWord reports a word of s (a run of ASCII letters and digits) that is
// prod, production, prd, or prod followed by digits.
func prodWord(s string) bool {
	for i := 0; i+3 <= len(s); i++ {
		// Words start at the beginning or after a non-alphanumeric, and
		// begin with p.
		if c := s[i]; c != 'p' && c != 'P' || i > 0 && isAlnum(s[i-1]) {
			continue
		}
		j := i + 1
		for j < len(s) && isAlnum(s[j]) {
			j++
		}
		if w := s[i:j]; len(w) >= 3 && len(w) <= 10 && isProd(w) {
			return true
		}
		i = j
	}
	return false
}

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

func isProd(w string) bool {
	w = strings.ToLower(w)
	switch w {
	case "prod", "production", "prd":
		return true
	}
	return strings.HasPrefix(w, "prod") && textlex.IsDigits(w[4:])
}
