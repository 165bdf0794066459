package mcpserver

import (
	"slices"
	"strings"
)

// MinimalEnvNames are the variables of the server's environment that every
// command gets by default: what programs need to find each other, to know
// who and where they are, and to print text. None of them is a secret. A
// name ending in "*" stands for every variable it prefixes.
func MinimalEnvNames() []string {
	return []string{"PATH", "HOME", "LANG", "LC_*", "TERM", "USER", "LOGNAME", "SHELL", "TMPDIR", "TZ"}
}

// MinimalEnv returns the entries of environ (KEY=value, as os.Environ
// gives them) that MinimalEnvNames or extra name, in environ's order. A
// name in extra may end in "*" to take every variable it prefixes. An
// entry without "=" or with an empty name is dropped, and so is every
// later entry of a name already taken (the first wins, as getenv reads
// it).
func MinimalEnv(environ, extra []string) []string {
	names := append(MinimalEnvNames(), extra...)
	var out []string
	seen := map[string]bool{}
	for _, kv := range environ {
		k, _, ok := strings.Cut(kv, "=")
		if !ok || k == "" || seen[k] || !envNameIn(k, names) {
			continue
		}
		seen[k] = true
		out = append(out, kv)
	}
	return out
}

// envNameIn reports whether k is one of names, a name ending in "*"
// matching every variable it prefixes.
func envNameIn(k string, names []string) bool {
	for _, n := range names {
		if p, ok := strings.CutSuffix(n, "*"); ok {
			if strings.HasPrefix(k, p) {
				return true
			}
		} else if k == n {
			return true
		}
	}
	return false
}

// envIsMinimal reports whether env holds only variables of the minimal
// set (MinimalEnvNames) and the server's own run marker: then a command
// that prints its environment (printenv, env, set) shows nothing secret.
func envIsMinimal(env []string) bool {
	names := MinimalEnvNames()
	return !slices.ContainsFunc(env, func(kv string) bool {
		k, _, _ := strings.Cut(kv, "=")
		return !envNameIn(k, names)
	})
}
