package danger

import (
	"strings"

	"github.com/shellguard/shellguard/shellparse"
)

// Operands that come from input at run time (issue 12 §5: a destructive
// program fed dynamic operands is High): what the line deletes is
// whatever another program prints, which nobody has read.

// checkOperandsFromInput: some of the invocation's operands come from
// what another program prints at run time: xargs or parallel fed input
// the parser cannot know, a command substitution, or a variable a
// while-read loop reads from its input.
func checkOperandsFromInput(sc *scan, i int) bool {
	inv := &sc.res.Invocations[i]
	if inv.ArgsFromInput {
		known := false
		for _, a := range inv.Args[1:] {
			if a.Resolved {
				known = true
				break
			}
		}
		if !known {
			return true
		}
	}
	var readVars []string
	for _, a := range inv.Args[1:] {
		if !a.Dynamic || a.Resolved {
			continue
		}
		if strings.Contains(a.Raw, "$(") || strings.Contains(a.Raw, "`") {
			return true
		}
		if readVars == nil {
			readVars = loopReadVars(sc.res, inv)
		}
		for _, v := range readVars {
			if strings.Contains(a.Raw, "$"+v) || strings.Contains(a.Raw, "${"+v) {
				return true
			}
		}
	}
	return false
}

// loopReadVars returns the names that read, mapfile or readarray set in
// the line when inv runs in the body of a while or until loop (where
// `while read -r f` takes each of its values from the loop's input);
// an empty, non-nil slice otherwise.
func loopReadVars(res *shellparse.Result, inv *shellparse.Invocation) []string {
	out := []string{}
	inLoop := false
	for f := inv.Where; f != nil; f = f.Parent {
		if f.Kind == shellparse.FrameControl && (f.Detail == "while" || f.Detail == "until") {
			inLoop = true
			break
		}
	}
	if !inLoop {
		return out
	}
	for k := range res.Invocations {
		r := &res.Invocations[k]
		switch progName(r.Name) {
		case "read", "mapfile", "readarray":
		default:
			continue
		}
		for _, a := range r.Args[1:] {
			if !a.Dynamic && a.Value != "" && !strings.HasPrefix(a.Value, "-") {
				out = append(out, a.Value)
			}
		}
		if len(r.Args) == 1 {
			out = append(out, "REPLY")
		}
	}
	return out
}

// checkUnsetVariableRoot: an operand is a variable the parser cannot
// know followed by a slash and nothing or a glob of everything ($DIR/,
// "${BUILD}"/*): when the variable is unset or empty the operand names the
// root or everything in it.
func checkUnsetVariableRoot(sc *scan, i int) bool {
	inv := &sc.res.Invocations[i]
	for _, a := range inv.Args[1:] {
		if !a.Dynamic || a.Resolved {
			continue
		}
		raw := strings.TrimPrefix(a.Raw, `"`)
		if !strings.HasPrefix(raw, "$") {
			continue
		}
		raw = raw[1:]
		brace := strings.HasPrefix(raw, "{")
		if brace {
			end := strings.IndexByte(raw, '}')
			if end < 0 {
				continue
			}
			inner := raw[1:end]
			// ${VAR:?} and ${VAR:-default} do not expand to nothing.
			if strings.ContainsAny(inner, ":?-=+#%/") {
				continue
			}
			raw = raw[end+1:]
		} else {
			n := 0
			for n < len(raw) && (raw[n] == '_' || raw[n] >= 'a' && raw[n] <= 'z' || raw[n] >= 'A' && raw[n] <= 'Z' || n > 0 && raw[n] >= '0' && raw[n] <= '9') {
				n++
			}
			if n == 0 {
				continue
			}
			if raw[:n] == "HOME" || raw[:n] == "PWD" {
				continue // always set
			}
			raw = raw[n:]
		}
		// What follows the slash: nothing or a glob of everything
		// ($DIR/, "$DIR"/*, $DIR/.*): unset, the root or all in it.
		switch strings.Trim(strings.TrimPrefix(raw, `"`), `"`) {
		case "/", "/*", "/.*", "/{*,.*}":
			return true
		}
	}
	return false
}
