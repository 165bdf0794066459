package danger_test

import (
	"testing"

	"github.com/shellguard/shellguard/danger"
)

// TestWritesSpec: Spec.Writes matches a writing redirection whatever the
// program (even an excepted one), with dynamic targets in canonical form,
// and never a file the line only reads.
func TestWritesSpec(t *testing.T) {
	d := danger.MustNewDetector([]danger.Pattern{{Name: "w", Level: danger.High, Description: "writes rc",
		Match: &danger.Spec{Writes: `(~|\$HOME)/\.bashrc`, Except: []string{"echo"}}}})
	for _, tc := range []struct {
		line string
		want bool
	}{
		{`echo x >> ~/.bashrc`, true},
		{`echo x >> "$HOME/.bashrc"`, true},
		{`echo x >> "${HOME}/.bashrc"`, true},
		{`sudo sh -c 'cat x > ~/.bashrc'`, true},
		{`{ echo a; echo b; } >> ~/.bashrc`, true},
		{`echo x >> ~/.bashrc.bak`, false},
		{`cat ~/.bashrc`, false},
		{`cat < ~/.bashrc`, false},
		{`echo ~/.bashrc`, false},
		{`grep x ~/.bashrc > out.txt`, false},
	} {
		if got := d.IsDangerous(tc.line); got != tc.want {
			t.Errorf("%q: matched %v, want %v", tc.line, got, tc.want)
		}
	}
}

// TestOperandNoneSpec: Spec.OperandNone cancels a rule when any operand
// matches it.
func TestOperandNoneSpec(t *testing.T) {
	d := danger.MustNewDetector([]danger.Pattern{{Name: "e", Level: danger.High, Description: "enables a unit",
		Match: &danger.Spec{Programs: []string{"systemctl"}, Subcommands: []string{"enable"}, OperandNone: `docker(\.service)?|nginx`}}})
	for _, tc := range []struct {
		line string
		want bool
	}{
		{`systemctl enable backdoor.service`, true},
		{`sudo systemctl enable --now miner`, true},
		{`sudo systemctl enable --now docker`, false},
		{`systemctl enable docker.service`, false},
		{`systemctl enable nginx backdoor`, false},
		{`systemctl status backdoor`, false},
	} {
		if got := d.IsDangerous(tc.line); got != tc.want {
			t.Errorf("%q: matched %v, want %v", tc.line, got, tc.want)
		}
	}
}
