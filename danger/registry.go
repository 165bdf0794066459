package danger

//go:generate go run ./internal/gen rules.toml rules_gen.go

// DefaultPatterns returns a fresh copy of the built-in registry: the seed's
// fourteen patterns (rm_rf_root, rm_rf_wildcard, fork_bomb, dd_if_device,
// mkfs, shred_device, chmod_777, sudo_rm, wget_pipe_sh, curl_pipe_sh,
// wget_pipe_bash, curl_pipe_bash, git_push_force,
// chmod_recursive_permissive) followed by shellguard's own. The registry is
// kept as data in rules.toml.
func DefaultPatterns() []Pattern { return defaultPatterns() }

// IsBuiltin reports whether name is a pattern of the default registry.
func IsBuiltin(name string) bool {
	for _, p := range defaultPatterns() {
		if p.Name == name {
			return true
		}
	}
	return false
}
