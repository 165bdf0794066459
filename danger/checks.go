package danger

import (
	"slices"
	"strings"

	"github.com/shellguard/shellguard/danger/internal/interp"
	"github.com/shellguard/shellguard/internal/programs"
	"github.com/shellguard/shellguard/shellparse"
)

// The built-in checks of danger/checks.toml: shapes that argv cannot
// describe. runCheck (generated) dispatches a spec's check to the
// function of the same name.

// checkForkBomb: a function that runs itself more than once at a time:
// piped into itself or sent to the background.
func checkForkBomb(sc *scan, i int) bool {
	inv := &sc.res.Invocations[i]
	f := inv.Where.Find(shellparse.FrameFunction)
	if f == nil || inv.Name == "" || f.Detail != inv.Name {
		return false
	}
	return inv.Where.Has(shellparse.FramePipeline) || inv.Where.Has(shellparse.FrameBackground)
}

// checkDynamicProgram: the program is computed at run time.
func checkDynamicProgram(sc *scan, i int) bool {
	inv := &sc.res.Invocations[i]
	return len(inv.Args) > 0 && inv.NameDynamic()
}

// codeFinds reports a finding of one of kinds in code (what package
// interp found on the invocation's command line or standard input,
// scan.code); when computed, only one whose command or path is computed
// at run time. It is the interpreter checks' code: their kinds are data
// (finds in checks.toml), the generator writes their functions.
func codeFinds(code []interp.Finding, computed bool, kinds ...interp.Kind) bool {
	for _, f := range code {
		if (f.Dynamic || !computed) && slices.Contains(kinds, f.Kind) {
			return true
		}
	}
	return false
}

// checkLookalikeDash: an argument starting with a Unicode dash.
func checkLookalikeDash(sc *scan, i int) bool {
	inv := &sc.res.Invocations[i]
	for _, a := range inv.Args[min(1, len(inv.Args)):] {
		if len(a.Value) >= 3 && a.Value[0] == 0xE2 || len(a.Value) >= 3 && a.Value[0] == 0xEF {
			if normDashes(a.Value) != a.Value {
				return true
			}
		}
	}
	return false
}

// checkObfuscatedWord: a program name spelled to hide it.
func checkObfuscatedWord(sc *scan, i int) bool {
	inv := &sc.res.Invocations[i]
	return len(inv.Args) > 0 && obfuscatedWord(inv.Args[0])
}

// checkEnvSlice: a word cut out of a variable (see envSliceWord).
func checkEnvSlice(sc *scan, i int) bool {
	for _, a := range sc.res.Invocations[i].Args {
		if a.Dynamic && strings.Contains(a.Raw, "${") && envSliceWord(sc.res, a.Raw) {
			return true
		}
	}
	return false
}

// checkDecodedArgument: a decoder inside $(...) or `...` whose output
// becomes words of another command.
func checkDecodedArgument(sc *scan, i int) bool {
	inv := &sc.res.Invocations[i]
	f := inv.Where.Find(shellparse.FrameCmdSubst)
	if f == nil || inv.Encloser < 0 || sc.name(i) == "" {
		return false
	}
	return isDecoder(sc.name(i), sc.argv(i), sc.args(i))
}

// checkRuntimeShellInput: a shell or eval runs commands built at run
// time.
func checkRuntimeShellInput(sc *scan, i int) bool {
	inv := &sc.res.Invocations[i]
	if shellFromInput(inv, sc.name(i), sc.args(i)) {
		return true
	}
	if !inv.StdinUnknown {
		return false
	}
	// curl/wget piped into a shell has rules of its own.
	for j := range sc.res.Invocations {
		if j != i && nameIn(sc.name(j), []string{"curl", "wget"}) && feedsInto(sc.res, j, []string{sc.name(i)}) {
			return false
		}
	}
	return true
}

// isDecoder reports a program that turns hidden text into readable text:
// the program data's decoders (base64 -d, xxd -r, rev, tr, ...), and echo
// or printf given escapes.
func isDecoder(name string, a *argv, args []shellparse.Arg) bool {
	if programs.Lookup(name).DecodesWith(a.hasFlag) {
		return true
	}
	if name == "echo" || name == "printf" {
		for _, x := range args[1:] {
			if strings.Contains(x.Raw, `\x`) || strings.Contains(x.Raw, `\0`) || strings.Contains(x.Raw, `\u`) {
				return true
			}
		}
	}
	return false
}

// parserRan reports whether the parser ran what invocation i's argv holds
// (a wrapper or argv runner it peeled: npm exec -- CMD, uv run CMD).
func parserRan(res *shellparse.Result, i int) bool {
	for j := i + 1; j < len(res.Invocations); j++ {
		if res.Invocations[j].Parent == i {
			return true
		}
	}
	return false
}

// actsAs rewrites the argv of a program the data says is another command
// line (rimraf is rm -rf): that command's words, then the arguments.
func actsAs(p *programs.Program, args []shellparse.Arg) (string, []shellparse.Arg) {
	words := p.ActsAs.Words()
	out := make([]shellparse.Arg, 0, len(words)+len(args))
	for _, w := range words {
		out = append(out, shellparse.Arg{Value: w, Raw: w})
	}
	if len(args) > 1 {
		out = append(out, args[1:]...)
	}
	return words[0], out
}
