package danger

//go:generate go run ./internal/gen rules.toml rules_gen.go

// DefaultPatterns returns a fresh copy of the built-in registry: the seed's
// fourteen patterns (rm_rf_root, rm_rf_wildcard, fork_bomb, dd_if_device,
// mkfs, shred_device, chmod_777, sudo_rm, wget_pipe_sh, curl_pipe_sh,
// wget_pipe_bash, curl_pipe_bash, git_push_force,
// chmod_recursive_permissive) followed by shellguard's own. The registry is
// kept as data in rules.toml. The copy is deep: changing it changes no
// detector.
func DefaultPatterns() []Pattern { return builtinRegistry().patterns() }

// IsBuiltin reports whether name is a pattern of the default registry.
func IsBuiltin(name string) bool {
	_, ok := BuiltinLevel(name)
	return ok
}

// BuiltinLevel returns the level of the built-in pattern name; ok is false
// when there is no such pattern. It allocates nothing.
func BuiltinLevel(name string) (level Level, ok bool) {
	for i := range builtinRules {
		if builtinRules[i].p.Name == name {
			return builtinRules[i].p.Level, true
		}
	}
	return 0, false
}
