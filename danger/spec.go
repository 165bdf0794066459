package danger

// Spec describes an invocation structurally: what program runs and with
// which flags and operands, after the parser has resolved quotes, peeled
// wrappers and re-parsed shell strings. Every field that is set must hold
// for the same invocation; empty fields are ignored. A Spec with no field
// set matches nothing.
//
// Flags are compared in a canonical form (see the package documentation):
// short clusters are split ("-rf" is "-r" and "-f"), and each program's
// aliases are mapped to one spelling ("--recursive" and "-R" are "-r" for
// rm). Regular expressions use RE2 syntax and are matched in full
// (anchored at both ends) against each candidate.
type Spec struct {
	// Programs lists program names (basename, after wrappers are
	// peeled); a trailing * matches any suffix ("mkfs.*").
	Programs []string `toml:"programs" json:"programs,omitempty"`
	// Subcommands lists accepted first operands ("push" for git),
	// read after the program's global options.
	Subcommands []string `toml:"subcommands" json:"subcommands,omitempty"`
	// FlagsAll lists canonical flags that must all be present.
	FlagsAll []string `toml:"flags_all" json:"flags_all,omitempty"`
	// FlagsAny lists canonical flags of which one must be present.
	FlagsAny []string `toml:"flags_any" json:"flags_any,omitempty"`
	// FlagsNone lists canonical flags none of which may be present
	// (fdisk -l only lists).
	FlagsNone []string `toml:"flags_none" json:"flags_none,omitempty"`
	// Operand must match some operand (not a flag), in canonical form:
	// paths cleaned ("/etc/" is "/etc"), dynamic words as written
	// without quotes or braces ("${HOME}" is "$HOME").
	Operand string `toml:"operand" json:"operand,omitempty"`
	// MinOperands is the least number of operands (after the
	// subcommand) the invocation must have: git checkout REF PATH has
	// two.
	MinOperands int `toml:"min_operands" json:"min_operands,omitempty"`
	// LastOperand must match the last operand (cp SRC DEST's DEST).
	LastOperand string `toml:"last_operand" json:"last_operand,omitempty"`
	// Args must match the arguments after the program, resolved and
	// joined by single spaces.
	Args string `toml:"args" json:"args,omitempty"`
	// Wrappers lists wrappers of which one must have been peeled
	// (sudo, doas).
	Wrappers []string `toml:"wrappers" json:"wrappers,omitempty"`
	// FeedsInto lists programs of which one must consume this
	// invocation's output as code: a later stage of the same pipeline
	// (curl ... | sudo bash), or a shell whose words hold the
	// invocation in $(...) or <(...) (bash <(curl ...)).
	FeedsInto []string `toml:"feeds_into" json:"feeds_into,omitempty"`
	// Redirect must match the target of a redirection that writes.
	Redirect string `toml:"redirect" json:"redirect,omitempty"`
	// Reads must match a file the invocation reads: an operand (in
	// canonical form, as for Operand), or the target of an input
	// redirection (<, <>, with any descriptor; not here-documents nor
	// here-strings). A redirection is opened by the shell whatever the
	// program, so Except does not apply to it: cat < /etc/shadow and
	// echo < /etc/shadow both read the file, echo /etc/shadow does not.
	Reads string `toml:"reads" json:"reads,omitempty"`
	// Except lists programs the spec never matches (data printers such
	// as echo and printf), except through Reads's input redirections.
	Except []string `toml:"except" json:"except,omitempty"`
	// Check names a built-in check written in code, for shapes that argv
	// cannot describe: "fork_bomb", "dynamic_program",
	// "runtime_shell_input", "unparseable", "limit", "interpreter_shell_out"
	// (interpreter code that runs a shell command it builds at run time),
	// "interpreter_delete" (interpreter code that deletes files),
	// "lookalike_dash" (an argument starting with a Unicode dash),
	// "obfuscated_word" (a program name spelled with quotes, escapes or
	// braces inside the word), "env_slice" (a word cut by substring or
	// pattern replacement out of $HOME, $PATH, ..., out of a variable the
	// line does not set or out of one it sets to a constant) and "decoded_argument" (a
	// decoder's output used as another program's argument).
	Check string `toml:"check" json:"check,omitempty"`
}

func (s *Spec) empty() bool {
	return s == nil || len(s.Programs) == 0 && len(s.Subcommands) == 0 && len(s.FlagsAll) == 0 &&
		len(s.FlagsAny) == 0 && len(s.FlagsNone) == 0 && s.MinOperands == 0 && s.Operand == "" && s.LastOperand == "" && s.Args == "" &&
		len(s.Wrappers) == 0 && len(s.FeedsInto) == 0 && s.Redirect == "" && s.Reads == "" && s.Check == ""
}
