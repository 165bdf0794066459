package audit

import (
	"strings"
	"testing"
)

func TestRedact(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		// Options.
		{"password eq", `mysql --user=root --password=hunter2 db`, `mysql --user=root --password=[REDACTED] db`},
		{"password space", `psql --password hunter2 -h x`, `psql --password [REDACTED] -h x`},
		{"password prompt", `psql --password -h x`, `psql --password -h x`},
		{"passwd", `tool --passwd 's3cr3t w/ space' next`, `tool --passwd [REDACTED] next`},
		{"token eq quoted", `gh api --token="abc def" /user`, `gh api --token=[REDACTED] /user`},
		{"token space", `vault login --token s.abcdef`, `vault login --token [REDACTED]`},
		{"secret", `app --client-secret=xyz --secret abc`, `app --client-secret=[REDACTED] --secret [REDACTED]`},
		{"api-key", `llm --api-key sk123 --api_key=q`, `llm --api-key [REDACTED] --api_key=[REDACTED]`},
		{"db-password", `migrate --db-password=pw`, `migrate --db-password=[REDACTED]`},
		{"token file kept", `gh auth login --token-file ~/.t`, `gh auth login --token-file ~/.t`},
		{"with-token stdin kept", `gh auth login --with-token < token.txt`, `gh auth login --with-token < token.txt`},
		{"mysql -p", `mysql -uroot -pS3cret -P3306 db`, `mysql -uroot -p[REDACTED] -P3306 db`},
		{"mysql -p prompt", `mysql -u root -p db`, `mysql -u root -p db`},
		{"mkdir -p kept", `mkdir -pv /tmp/x`, `mkdir -pv /tmp/x`},
		{"curl -u", `curl -u alice:s3cret https://x`, `curl -u alice:[REDACTED] https://x`},
		{"curl --user", `curl --user 'alice:s3cret' https://x`, `curl --user 'alice:[REDACTED]' https://x`},

		// Headers.
		{"bearer", `curl -H 'Authorization: Bearer abc.def.ghi' https://api`, `curl -H 'Authorization: Bearer [REDACTED]' https://api`},
		{"basic dq", `curl -H "authorization:Basic dXNlcjpwYXNz" x`, `curl -H "authorization:Basic [REDACTED]" x`},
		{"raw auth", `http GET x Authorization:s3cret`, `http GET x Authorization:[REDACTED]`},
		{"api key header", `curl -H 'X-Api-Key: abc123' x`, `curl -H 'X-Api-Key: [REDACTED]' x`},
		{"gitlab header", `curl --header "PRIVATE-TOKEN: glxyz" x`, `curl --header "PRIVATE-TOKEN: [REDACTED]" x`},
		{"cookie", `curl -H 'Cookie: session=abc; csrf=def' x`, `curl -H 'Cookie: [REDACTED]' x`},

		// Tokens by shape.
		{"ghp", `git clone https://ghp_ABCDEFGHIJKLMNOPQRSTuvwxyz0123456789@github.com/o/r`, `git clone https://[REDACTED]@github.com/o/r`},
		{"gho ghs", `echo gho_abcdefghijklmnopqrstuvwx ghs_abcdefghijklmnopqrstuvwx`, `echo [REDACTED] [REDACTED]`},
		{"github_pat", `X=github_pat_11ABCDEFG0123456789_abcdefghijklmnop`, `X=[REDACTED]`},
		{"aws key id", `aws configure set aws_access_key_id AKIAIOSFODNN7EXAMPLE`, `aws configure set aws_access_key_id [REDACTED]`},
		{"openai", `echo sk-proj-abcdefghijklmnop1234567890`, `echo [REDACTED]`},
		{"anthropic", `curl -d key=sk-ant-api03-abcdefghijklmnopqrstu x`, `curl -d key=[REDACTED] x`},
		{"slack", `notify --hook xoxb-1234567890-abcdefghij`, `notify --hook [REDACTED]`},
		{"stripe", `pay sk_live_abcdefghijklmnop1234`, `pay [REDACTED]`},
		{"jwt", `use eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U`, `use [REDACTED]`},

		// URLs.
		{"url password", `git remote add o https://bob:pa55w0rd@example.com/r.git`, `git remote add o https://bob:[REDACTED]@example.com/r.git`},
		{"db url", `psql postgres://app:s3cret@db:5432/x`, `psql postgres://app:[REDACTED]@db:5432/x`},
		{"url without password", `git clone https://github.com/o/r`, `git clone https://github.com/o/r`},
		{"query password", `curl 'https://x/login?user=a&password=b&next=c'`, `curl 'https://x/login?user=a&password=[REDACTED]&next=c'`},

		// Variables.
		{"env token", `GITHUB_TOKEN=abc123 gh pr list`, `GITHUB_TOKEN=[REDACTED] gh pr list`},
		{"export secret", `export AWS_SECRET_ACCESS_KEY='wJalr/XUtnFEMI'; aws s3 ls`, `export AWS_SECRET_ACCESS_KEY=[REDACTED]; aws s3 ls`},
		{"PASSWORD", `PASSWORD=hunter2 ./run.sh`, `PASSWORD=[REDACTED] ./run.sh`},
		{"db_password", `env DB_PASSWORD="a b" app`, `env DB_PASSWORD=[REDACTED] app`},
		{"var reference kept", `GITHUB_TOKEN=$TOKEN gh pr list`, `GITHUB_TOKEN=$TOKEN gh pr list`},
		{"json field", `curl -d '{"user":"a","password":"p\"w"}' x`, `curl -d '{"user":"a","password":"[REDACTED]"}' x`},
		{"json apiKey", `x '{"apiKey": "zzz"}'`, `x '{"apiKey": "[REDACTED]"}'`},

		// Private keys.
		{"private key", "cat > k <<EOF\n-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEA\n-----END OPENSSH PRIVATE KEY-----\nEOF",
			"cat > k <<EOF\n-----BEGIN OPENSSH PRIVATE KEY-----[REDACTED]-----END OPENSSH PRIVATE KEY-----\nEOF"},

		// Nothing secret.
		{"plain", `git commit -m "fix: token parsing"`, `git commit -m "fix: token parsing"`},
		{"rm", `rm -rf /`, `rm -rf /`},
		{"PWD kept", `PWD=/tmp/x make`, `PWD=/tmp/x make`},
		{"bypass kept", `BYPASS_CACHE=1 make`, `BYPASS_CACHE=1 make`},
		{"author kept", `git -c user.author=me commit`, `git -c user.author=me commit`},
		{"sort -u", `sort -u file | git add -u`, `sort -u file | git add -u`},
		{"empty", ``, ``},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Redact(tt.in)
			if got != tt.want {
				t.Errorf("Redact(%q)\n got  %q\n want %q", tt.in, got, tt.want)
			}
			if again := Redact(got); again != got {
				t.Errorf("Redact is not idempotent: %q -> %q", got, again)
			}
		})
	}
}

// TestRedactRemovesSecrets checks that known secret values never survive,
// whatever surrounds them.
func TestRedactRemovesSecrets(t *testing.T) {
	secrets := []string{
		"ghp_ABCDEFGHIJKLMNOPQRSTuvwxyz0123456789",
		"AKIAIOSFODNN7EXAMPLE",
		"sk-ant-api03-abcdefghijklmnopqrstu",
		"xoxp-1234567890-abcdefghij",
	}
	frames := []string{"%s", "echo %s", "X=%s cmd", "curl -H 'Authorization: Bearer %s'", "https://u:%s@h", "--token=%s", "a;%s;b", "(%s)"}
	for _, s := range secrets {
		for _, f := range frames {
			in := strings.Replace(f, "%s", s, 1)
			if got := Redact(in); strings.Contains(got, s) {
				t.Errorf("Redact(%q) = %q still holds the secret", in, got)
			}
		}
	}
}

func FuzzRedact(f *testing.F) {
	f.Add(`curl -H 'Authorization: Bearer abc' https://u:p@h --password=x`)
	f.Add(`GITHUB_TOKEN=ghp_ABCDEFGHIJKLMNOPQRSTuvwxyz0123456789 mysql -pX`)
	f.Add("-----BEGIN RSA PRIVATE KEY-----\nx\n-----END RSA PRIVATE KEY-----")
	f.Fuzz(func(t *testing.T, s string) {
		got := Redact(s)
		// A known key on its own (not glued to other word characters)
		// never survives.
		if i := strings.Index(s, "AKIAIOSFODNN7EXAMPLE"); i >= 0 && strings.Count(s, "AKIA") == 1 &&
			(i == 0 || !isWord(s[i-1])) && (i+20 == len(s) || !isWord(s[i+20])) &&
			strings.Contains(got, "AKIAIOSFODNN7EXAMPLE") {
			t.Errorf("AWS key kept: %q", got)
		}
		// Redacting twice changes nothing more.
		if again := Redact(got); again != got {
			t.Errorf("not idempotent: %q -> %q -> %q", s, got, again)
		}
	})
}

func isWord(b byte) bool {
	return b == '_' || ('a' <= b && b <= 'z') || ('A' <= b && b <= 'Z') || ('0' <= b && b <= '9')
}

// FuzzRedactPrefilter: skipping the patterns for text without a trigger
// never keeps a secret the patterns would have removed.
func FuzzRedactPrefilter(f *testing.F) {
	for _, s := range []string{"ls -la", "git push --force", "allowed: read-only: ls", `mysql -pX`, "paſſword=1 x",
		"API-\u212AEY=1", "curl -u a:b h", "eyJabcdefghij.eyJabcdefghij.abcdefghij", "X_TOKEN=abc", "--auth x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if full := redact(s); !mayHoldSecret(s) && full != s {
			t.Errorf("the prefilter skipped %q, which the patterns change to %q", s, full)
		}
	})
}
