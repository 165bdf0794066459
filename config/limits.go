package config

import (
	"fmt"
	"regexp/syntax"
)

// The bounds on what a repository's project files (.shellguard.toml) may
// add, together: a project file arrives with whatever was cloned, and
// every hook call loads it, so it must not be able to make loading or
// deciding slow (a file of thousands of heavy regular expressions once
// took a hook call 81 s and 9.5 GB). They are checked before anything is
// compiled; a project over them is a configuration error, so every
// command there is asked (or blocked) with the error as the reason until
// the files are fixed. The user's own files are not bounded this way; the
// decision budget (policy.DefaultBudget) still bounds every call.
const (
	// MaxProjectBytes bounds the size of all project files together.
	MaxProjectBytes = 1 << 20
	// MaxProjectPatterns bounds the [[pattern]] entries of all project
	// files together.
	MaxProjectPatterns = 100
	// MaxProjectRegexBytes bounds the source of one project pattern's
	// regex.
	MaxProjectRegexBytes = 1024
	// MaxProjectRegexSize bounds the program one project regex compiles
	// to, in instructions (estimated from the parsed expression, without
	// compiling it: "a{1000}" and "(?:\w+\s*){200}" are 1,000).
	MaxProjectRegexSize = 1000
	// MaxProjectRegexTotal bounds the programs of all project regexes
	// together: matching costs about this many steps per byte of command
	// text at worst.
	MaxProjectRegexTotal = 5000
	// MaxProjectRules bounds the rules.ask and rules.deny entries of all
	// project files together, and MaxProjectRuleBytes their total length
	// (matching a rule costs at worst its length times the command's).
	MaxProjectRules     = 500
	MaxProjectRuleBytes = 16 << 10
)

// projectUse counts what the project files loaded so far added, against
// the bounds above.
type projectUse struct {
	bytes, patterns, regexSize, rules, ruleBytes int
}

// checkRegex parses re the way a detector compiles it (with (?i) unless
// caseSensitive) and returns the estimated size of its program. Parsing
// finds every error compiling would report.
func checkRegex(re string, caseSensitive bool) (int, error) {
	if !caseSensitive {
		re = "(?i)" + re
	}
	parsed, err := syntax.Parse(re, syntax.Perl)
	if err != nil {
		return 0, err
	}
	return progSize(parsed), nil
}

// sizeCap keeps progSize's arithmetic far from overflowing.
const sizeCap = 1 << 40

// progSize estimates how many instructions re compiles to (as
// regexp/syntax.Compile would, after Simplify expands counted repeats),
// without compiling it.
func progSize(re *syntax.Regexp) int {
	sat := func(n int) int { return min(n, sizeCap) }
	subs := func() int {
		n := 0
		for _, s := range re.Sub {
			n = sat(n + progSize(s))
		}
		return n
	}
	switch re.Op {
	case syntax.OpLiteral:
		return max(len(re.Rune), 1)
	case syntax.OpConcat:
		return subs()
	case syntax.OpAlternate:
		return sat(subs() + len(re.Sub))
	case syntax.OpCapture:
		return sat(subs() + 2)
	case syntax.OpStar, syntax.OpPlus, syntax.OpQuest:
		return sat(subs() + 1)
	case syntax.OpRepeat:
		n := re.Max
		if n < 0 {
			n = re.Min + 1
		}
		return sat(max(n, 1) * sat(subs()+1))
	}
	return 1
}

// regex counts a project regex of size instructions against the bounds
// and returns why it exceeds them, or "".
func (u *projectUse) regex(size int) string {
	if size > MaxProjectRegexSize {
		return fmt.Sprintf("this regex compiles to about %d instructions; a project file's regex may compile to at most %d", size, MaxProjectRegexSize)
	}
	u.regexSize += size
	if u.regexSize > MaxProjectRegexTotal {
		return fmt.Sprintf("the project's regexes compile to more than %d instructions together (a project may not add more)", MaxProjectRegexTotal)
	}
	return ""
}

// pattern counts one project [[pattern]] and returns why it exceeds the
// bounds, or "".
func (u *projectUse) pattern() string {
	u.patterns++
	if u.patterns > MaxProjectPatterns {
		return fmt.Sprintf("a project may add at most %d [[pattern]] entries (its files together)", MaxProjectPatterns)
	}
	return ""
}

// rule counts one project ask or deny rule and returns why it exceeds the
// bounds, or "".
func (u *projectUse) rule(pattern string) string {
	u.rules++
	u.ruleBytes += len(pattern)
	switch {
	case u.rules > MaxProjectRules:
		return fmt.Sprintf("a project may add at most %d ask and deny rules (its files together)", MaxProjectRules)
	case u.ruleBytes > MaxProjectRuleBytes:
		return fmt.Sprintf("a project's ask and deny rules may hold at most %d bytes together", MaxProjectRuleBytes)
	}
	return ""
}

// file counts a project file of n bytes and returns why it exceeds the
// bounds, or "".
func (u *projectUse) file(n int) string {
	u.bytes += n
	if u.bytes > MaxProjectBytes {
		return fmt.Sprintf("a project's files may hold at most %d bytes together", MaxProjectBytes)
	}
	return ""
}
