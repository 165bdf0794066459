package audit

import (
	"regexp"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// Redacted replaces every secret Redact finds.
const Redacted = "[REDACTED]"

// A value in a shell command: a quoted string or one word.
const (
	quotedValue = `'[^']*'|"(?:[^"\\]|\\.)*"`
	anyValue    = quotedValue + `|\S+`
	// wordValue is a value after a space: it must not look like the next
	// option.
	// option, nor be shell syntax (--with-token < file).
	wordValue = quotedValue + `|[^\s'"\-<>|&;()]\S*`
	// secretWord is a word that, in a variable or field name, marks its
	// value as secret (GITHUB_TOKEN, db_password, "apiKey").
	secretWord = `password|passwd|passphrase|secret|token|api[-_]?key|access[-_]?key|private[-_]?key|credentials?`
	// secretFlag is how the name of an option with a secret value ends
	// (--password, --db-pass, --client-secret, --auth).
	secretFlag = secretWord + `|pass|secret[-_]?key|auth`
)

// The patterns Redact applies, in order. Compiled once; regexps are safe
// for concurrent use and never modified.
// redactors holds the compiled patterns. They are compiled on first use,
// not at program start, so that a process that never redacts (a hook
// with no audit log) pays nothing; once compiled they never change.
type redactors struct {
	rePrivateKey  *regexp.Regexp
	reAuthHeader  *regexp.Regexp
	reKeyHeader   *regexp.Regexp
	reCookie      *regexp.Regexp
	reFlagEq      *regexp.Regexp
	reFlagSpace   *regexp.Regexp
	reMySQL       *regexp.Regexp
	reCurlUser    *regexp.Regexp
	reURLUserinfo *regexp.Regexp
	reJSONField   *regexp.Regexp
	reEnvAssign   *regexp.Regexp
	reTokens      *regexp.Regexp
}

var compiled = sync.OnceValue(func() *redactors {
	r := &redactors{}
	// -----BEGIN RSA PRIVATE KEY----- ... -----END RSA PRIVATE KEY-----
	r.rePrivateKey = regexp.MustCompile(`(-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----)[\s\S]*?(-----END [A-Z0-9 ]*PRIVATE KEY-----)`)
	// Authorization: Bearer xyz / Proxy-Authorization: Basic xyz
	r.reAuthHeader = regexp.MustCompile(`(?i)\b((?:proxy-)?authorization\s*:\s*(?:(?:bearer|basic|token|digest|negotiate|bot|apikey)\s+)?)([^\s'"\\]+)`)
	// X-Api-Key: xyz, Private-Token: xyz, Cookie: a=b; c=d
	r.reKeyHeader = regexp.MustCompile(`(?i)\b((?:x-api-key|api-key|x-auth-token|private-token|x-goog-api-key|x-amz-security-token)\s*:\s*)([^\s'"\\]+)`)
	r.reCookie = regexp.MustCompile(`(?i)\b((?:set-)?cookie\s*:\s*)([^'"\r\n]+)`)
	// --password=x, --api-key "x", --db-password x (but not --password --next)
	r.reFlagEq = regexp.MustCompile(`(?i)(--(?:[a-z0-9]+[-_])*(?:` + secretFlag + `)=)(` + anyValue + `)`)
	r.reFlagSpace = regexp.MustCompile(`(?i)(--(?:[a-z0-9]+[-_])*(?:` + secretFlag + `)\s+)(` + wordValue + `)`)
	// mysql -psecret (the password glued to -p)
	r.reMySQL = regexp.MustCompile(`(\b(?i:mysql|mysqldump|mysqladmin|mariadb|mariadb-dump)\b[^\n;|&]*?\s-p)(` + quotedValue + `|[^\s'"]\S*)`)
	// curl -u user:pass, curl --user user:pass
	r.reCurlUser = regexp.MustCompile(`(\bcurl\b[^\n;|&]*?\s(?:-u\s*|--user(?:=|\s+))['"]?[^\s:'"]*:)([^\s'"]+)`)
	// scheme://user:password@host
	r.reURLUserinfo = regexp.MustCompile(`(?i)(\b[a-z][a-z0-9+.\-]*://[^\s/@:'"]*:)([^\s/@'"]+)(@)`)
	// "password": "x" in JSON arguments
	r.reJSONField = regexp.MustCompile(`(?i)("[a-z0-9_\-]*(?:` + secretWord + `)[a-z0-9_\-]*"\s*:\s*")((?:[^"\\]|\\.)*)(")`)
	// GITHUB_TOKEN=x, DB_PASSWORD='x', PASSWORD=x, ?password=x&
	r.reEnvAssign = regexp.MustCompile(`(?i)(\b[a-z0-9_]*(?:` + secretWord + `)[a-z0-9_]*=)(` + quotedValue + `|[^\s'"$;&|)][^\s;&|)]*)`)
	// Well-known token formats.
	r.reTokens = regexp.MustCompile(`\b(?:` +
		`gh[pousr]_[A-Za-z0-9]{20,}` + // GitHub
		`|github_pat_[A-Za-z0-9_]{20,}` +
		`|(?:AKIA|ASIA)[0-9A-Z]{16}` + // AWS access key id
		`|sk-(?:ant-|proj-|svcacct-|admin-)?[A-Za-z0-9_\-]{16,}` + // OpenAI, Anthropic
		`|[rs]k_(?:live|test)_[A-Za-z0-9]{16,}` + // Stripe
		`|xox[abposr]-[A-Za-z0-9\-]{10,}` + // Slack
		`|glpat-[A-Za-z0-9_\-]{20,}` + // GitLab
		`|AIza[0-9A-Za-z_\-]{35}` + // Google API key
		`|npm_[A-Za-z0-9]{36}` + // npm
		`|hf_[A-Za-z0-9]{30,}` + // Hugging Face
		`|eyJ[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}` + // JWT
		`)`)
	return r
})

// Redact returns s with obvious secrets replaced by "[REDACTED]": values
// of secret-looking options (--password=x, --token x, --api-key x, mysql
// -px), Authorization and API-key headers, cookies, passwords in URLs
// (user:pass@host) and curl -u, secret-looking variable assignments
// (GITHUB_TOKEN=x, DB_PASSWORD=x, PASSWORD=x) and JSON fields, private key
// blocks, and tokens with a recognisable shape (GitHub ghp_/gho_/ghs_/
// github_pat_, AWS AKIA..., OpenAI and Anthropic sk-..., Slack xox?-,
// GitLab, Stripe, Google, npm, Hugging Face, JWTs).
//
// It is a best-effort filter for logs, not a guarantee: a secret with no
// tell-tale name or shape passes through. Names and structure are kept so
// the record stays readable ("--password=[REDACTED]").
func Redact(s string) string {
	if !mayHoldSecret(s) {
		// Nothing any pattern needs is there: no need to compile them
		// (about a millisecond in a fresh hook process).
		return s
	}
	return redact(s)
}

// triggers holds, lower-cased, a piece of text every pattern of Redact
// needs in order to match: a string with none of them holds nothing Redact
// would replace (FuzzRedactPrefilter checks it).
var triggers = []string{
	"pass", "secret", "token", "key", "credential", "auth", "cookie", // names of secrets, headers, private key blocks
	"mysql", "mariadb", "curl", "://", // mysql -p, curl -u, user:pass@host
	"ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_", "akia", "asia", "sk-", "sk_", "rk_",
	"xox", "glpat-", "aiza", "npm_", "hf_", "eyj", // token shapes
}

// foldedTriggers are the triggers folded (see fold).
var foldedTriggers = func() []string {
	out := make([]string, len(triggers))
	for i, t := range triggers {
		out[i] = fold(t)
	}
	return out
}()

// mayHoldSecret reports whether s holds one of the triggers, in any case
// as (?i) reads it (Unicode simple folding: "ſ" is an "s", "K" a "k").
func mayHoldSecret(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			f := fold(s)
			for _, t := range foldedTriggers {
				if strings.Contains(f, t) {
					return true
				}
			}
			return false
		}
	}
	// ASCII, where fold is upper-casing a byte: one pass, folding each
	// byte as it is compared, with the triggers that start with it (a
	// hook redacts every command, and a script's several times).
	for i := 0; i < len(s); i++ {
	next:
		for _, t := range triggersFrom[upper(s[i])] {
			if len(s)-i < len(t) {
				continue
			}
			for j := 1; j < len(t); j++ {
				if upper(s[i+j]) != t[j] {
					continue next
				}
			}
			return true
		}
	}
	return false
}

// triggersFrom holds the folded triggers by their first byte (all are
// ASCII).
var triggersFrom = func() (by [utf8.RuneSelf][]string) {
	for _, t := range foldedTriggers {
		by[t[0]] = append(by[t[0]], t)
	}
	return by
}()

// upper upper-cases an ASCII letter.
func upper(c byte) byte {
	if 'a' <= c && c <= 'z' {
		return c - ('a' - 'A')
	}
	return c
}

// fold maps every rune of s to the smallest rune of its Unicode simple
// folding orbit (for ASCII letters, the capital).
func fold(s string) string {
	ascii := true
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	if ascii {
		// A byte at a time: every command of a hook passes here.
		return strings.ToUpper(s)
	}
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z':
			r -= 'a' - 'A'
		case r >= utf8.RuneSelf:
			min := r
			for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
				if f < min {
					min = f
				}
			}
			r = min
		}
		b.WriteRune(r)
	}
	return b.String()
}

// redact applies every pattern.
func redact(s string) string {
	r := compiled()
	s = r.rePrivateKey.ReplaceAllString(s, "${1}"+Redacted+"${2}")
	s = r.reAuthHeader.ReplaceAllString(s, "${1}"+Redacted)
	s = r.reKeyHeader.ReplaceAllString(s, "${1}"+Redacted)
	s = r.reCookie.ReplaceAllString(s, "${1}"+Redacted)
	s = r.reFlagEq.ReplaceAllString(s, "${1}"+Redacted)
	s = r.reFlagSpace.ReplaceAllString(s, "${1}"+Redacted)
	s = r.reMySQL.ReplaceAllString(s, "${1}"+Redacted)
	s = r.reCurlUser.ReplaceAllString(s, "${1}"+Redacted)
	s = r.reURLUserinfo.ReplaceAllString(s, "${1}"+Redacted+"${3}")
	s = r.reJSONField.ReplaceAllString(s, "${1}"+Redacted+"${3}")
	s = r.reEnvAssign.ReplaceAllString(s, "${1}"+Redacted)
	s = r.reTokens.ReplaceAllString(s, Redacted)
	return s
}
