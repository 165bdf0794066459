package danger

//go:generate go run ./internal/gen -rules rules -checks checks.toml -programs ../internal/programs/data -out rules_gen.go -programs-out ../internal/programs/programs_gen.go
//go:generate go test -count=1 -run ^TestRuleExamples$ .

// DefaultPatterns returns a fresh copy of the built-in registry: the rules
// of the packs on by default, pack by pack (see Packs). The seed's
// fourteen patterns (rm_rf_root, rm_rf_wildcard, fork_bomb, dd_if_device,
// mkfs, shred_device, chmod_777, sudo_rm, wget_pipe_sh, curl_pipe_sh,
// wget_pipe_bash, curl_pipe_bash, git_push_force,
// chmod_recursive_permissive) keep their names and levels. The registry
// is kept as data in danger/rules/*.toml. The copy is deep: changing it
// changes no detector.
func DefaultPatterns() []Pattern { return builtinRegistry().patterns() }

// IsBuiltin reports whether name is a pattern of a built-in pack (on by
// default or not).
func IsBuiltin(name string) bool {
	_, ok := BuiltinLevel(name)
	return ok
}

// BuiltinLevel returns the level of the built-in pattern name (of any
// pack); ok is false when there is no such pattern. It allocates nothing.
func BuiltinLevel(name string) (level Level, ok bool) {
	for i := range builtinNames {
		if builtinNames[i] == name {
			return builtinLevels[i], true
		}
	}
	return 0, false
}

// Pack is a named group of built-in rules (core.filesystem, core.git,
// disks, ...), kept in its own file of danger/rules/.
type Pack struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	// Default reports that the pack is on unless the configuration
	// disables it.
	Default bool `json:"default"`
	// Rules are the names of its rules, in registry order.
	Rules []string `json:"rules"`
}

// packInfo is a pack of the built-in rules: rules [from, to).
type packInfo struct {
	name, description string
	on                bool
	from, to          int
}

// Packs returns the built-in packs in registry order: the packs on by
// default (core.* first), then the others.
func Packs() []Pack {
	out := make([]Pack, len(builtinPacks))
	for i, p := range builtinPacks {
		out[i] = Pack{Name: p.name, Description: p.description, Default: p.on}
		for k := p.from; k < p.to; k++ {
			out[i].Rules = append(out[i].Rules, builtinNames[k])
		}
	}
	return out
}

// PackPatterns returns copies of the patterns of the built-in pack name;
// ok is false when there is no such pack.
func PackPatterns(name string) (ps []Pattern, ok bool) {
	for _, p := range builtinPacks {
		if p.name == name {
			ps = make([]Pattern, 0, p.to-p.from)
			for k := p.from; k < p.to; k++ {
				ps = append(ps, builtinPatternAt(k))
			}
			return ps, true
		}
	}
	return nil, false
}

// IsPack reports whether name is a built-in pack.
func IsPack(name string) bool {
	_, ok := PackDefault(name)
	return ok
}

// PackDefault reports whether the built-in pack name is on by default; ok
// is false when there is no such pack. It allocates nothing.
func PackDefault(name string) (on, ok bool) {
	for _, p := range builtinPacks {
		if p.name == name {
			return p.on, true
		}
	}
	return false, false
}

// PackOf returns the name of the built-in pack that holds the pattern
// name, or "".
func PackOf(name string) string {
	for i := range builtinNames {
		if builtinNames[i] == name {
			for _, p := range builtinPacks {
				if i >= p.from && i < p.to {
					return p.name
				}
			}
		}
	}
	return ""
}

// BuiltinPattern returns a copy of the built-in pattern name (of any
// pack), with its examples.
func BuiltinPattern(name string) (Pattern, bool) {
	for i := range builtinNames {
		if builtinNames[i] == name {
			return builtinPatternAt(i), true
		}
	}
	return Pattern{}, false
}

// builtinPatternAt returns a copy of built-in rule i's pattern, with its
// examples.
func builtinPatternAt(i int) Pattern {
	p := builtinRule(i).p.clone()
	p.Hit, p.Miss = builtinExamples(i)
	return p
}

// CheckInfo describes a built-in check a Spec can name.
type CheckInfo struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	// Line reports a check that concerns the whole line (its parse).
	Line bool `json:"line"`
}

// Checks returns the built-in checks (danger/checks.toml).
func Checks() []CheckInfo { return append([]CheckInfo(nil), builtinChecks[:]...) }
