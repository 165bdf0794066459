package danger

// Spec describes an invocation structurally: what program runs and with
// which flags and operands, after the parser has resolved quotes, peeled
// wrappers and re-parsed shell strings. Every field that is set must hold
// for the same invocation; empty fields are ignored. A Spec with no field
// set matches nothing.
//
// Flags and operands are read with the program's option syntax, kept as
// data in internal/programs/data (see docs/rules.md): which options take
// a value, single-dash long options, aliases of flags, global options,
// subcommand words. Flags are compared in a canonical form: short clusters
// are split ("-rf" is "-r" and "-f"), and each program's aliases are
// mapped to one spelling ("--recursive" and "-R" are "-r" for rm).
// Regular expressions use RE2 syntax and are matched in full (anchored at
// both ends) against each candidate.
//
// A dry run is not the act: when the program's data names a dry-run flag
// that the invocation carries (git clean -n, kubectl ... --dry-run=server),
// no spec that names programs matches it.
type Spec struct {
	// Programs lists program names (basename, after wrappers are
	// peeled); a trailing * matches any suffix ("mkfs.*").
	Programs []string `toml:"programs" json:"programs,omitempty"`
	// Subcommands lists accepted subcommands: each one or more words
	// ("push", "delete namespace", "s3 rm") that must be the leading
	// positional words of the invocation, after the program's options
	// and option values. Words compare in lower case after the program's
	// word aliases (kubectl's "ns" is "namespace"; namespace/foo is
	// "namespace" then "foo"). A word "*" matches any word, and a word
	// ending in "*" any word that starts with the rest ("* delete-*" is
	// aws SERVICE delete-ANYTHING). The operands the other fields read are
	// the words after the subcommand.
	Subcommands []string `toml:"subcommands" json:"subcommands,omitempty"`
	// FlagsAll lists canonical flags that must all be present.
	FlagsAll []string `toml:"flags_all" json:"flags_all,omitempty"`
	// FlagsAny lists canonical flags of which one must be present.
	FlagsAny []string `toml:"flags_any" json:"flags_any,omitempty"`
	// FlagsNone lists canonical flags none of which may be present
	// (fdisk -l only lists).
	FlagsNone []string `toml:"flags_none" json:"flags_none,omitempty"`
	// Values lists options whose value must match (--replicas=0, -X
	// DELETE, --expire=now): the option written with "=value", or
	// followed by its value when the program's data says it takes one.
	Values []FlagValue `toml:"-" json:"values,omitempty"`
	// Operand must match some operand (not a flag), in canonical form:
	// paths cleaned ("/etc/" is "/etc"), dynamic words as written
	// without quotes or braces ("${HOME}" is "$HOME").
	Operand string `toml:"operand" json:"operand,omitempty"`
	// OperandNone must match no operand (systemctl enable of a unit that
	// is not a well-known package's): how an operand cancels a rule, as
	// FlagsNone does for flags.
	OperandNone string `toml:"operand_none" json:"operand_none,omitempty"`
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
	// Writes must match a file the invocation writes: the target of a
	// writing redirection (whatever the program, as for Reads), or a file
	// its argv names for writing by the program's data (writes: cp's
	// last operand, tee's operands, sed -i's files, dd of=, curl -o).
	// Paths are compared in canonical form, as for Operand.
	Writes string `toml:"writes" json:"writes,omitempty"`
	// Reads must match a file the invocation reads: an operand (in
	// canonical form, as for Operand), or the target of an input
	// redirection (<, <>, with any descriptor; not here-documents nor
	// here-strings). A redirection is opened by the shell whatever the
	// program, so Except does not apply to it: cat < /etc/shadow and
	// echo < /etc/shadow both read the file, echo /etc/shadow does not.
	Reads string `toml:"reads" json:"reads,omitempty"`
	// Stdin must match the text the invocation reads on its standard
	// input, when the line gives it statically (shellparse's
	// Invocation.Stdin: a heredoc body, a here-string, echo, printf or cat
	// of such a text piped into it), anchored: "(?is).*drop database.*"
	// finds it anywhere in the text.
	Stdin string `toml:"stdin" json:"stdin,omitempty"`
	// Except lists programs the spec never matches (data printers such
	// as echo and printf), except through Reads's input redirections.
	Except []string `toml:"except" json:"except,omitempty"`
	// Check names a built-in check written in code, for shapes that argv
	// cannot describe; Checks lists them (danger/checks.toml).
	Check string `toml:"check" json:"check,omitempty"`
	// Any lists alternatives of which one must hold besides the other
	// fields: one rule for several forms (terraform destroy, terraform
	// apply -destroy). An alternative without Programs is about the
	// spec's programs; alternatives do not nest.
	Any []Spec `toml:"any" json:"any,omitempty"`
}

// FlagValue is an option whose value must match a regular expression.
type FlagValue struct {
	// Flag is the canonical option ("--replicas", "-X").
	Flag string `json:"flag"`
	// Value is matched in full against the option's value.
	Value string `json:"value"`
}

func (s *Spec) empty() bool {
	return s == nil || len(s.Programs) == 0 && len(s.Subcommands) == 0 && len(s.FlagsAll) == 0 &&
		len(s.FlagsAny) == 0 && len(s.FlagsNone) == 0 && len(s.Values) == 0 && s.MinOperands == 0 && s.Operand == "" && s.OperandNone == "" &&
		s.LastOperand == "" && s.Args == "" && len(s.Wrappers) == 0 && len(s.FeedsInto) == 0 && s.Redirect == "" &&
		s.Writes == "" && s.Reads == "" && s.Stdin == "" && s.Check == "" && len(s.Any) == 0
}
