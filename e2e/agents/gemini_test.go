package agents

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestGeminiUntrustedFolder: Gemini CLI loads no hooks from settings in a
// folder the user did not trust (and a headless run refuses to start
// there). doctor run in such a folder must say so.
func TestGeminiUntrustedFolder(t *testing.T) {
	t.Parallel()
	s := installed(t, "gemini")
	if d := s.sg("doctor"); d.code != 0 {
		t.Fatalf("doctor in the trusted folder: exit %d\n%s", d.code, d.out)
	}
	s.trustGeminiFolder(s.work, "DO_NOT_TRUST")
	d := s.sg("doctor")
	if d.code != 1 || !strings.Contains(d.out, "trust") {
		t.Errorf("doctor in a folder the user chose not to trust: exit %d, want 1 and a PROBLEM about folder trust\n%s", d.code, d.out)
	}
	r := s.run("untrusted", "touch "+s.canaryFile("untrusted"))
	t.Logf("Gemini CLI headless in the untrusted folder: %s", r)

	other := filepath.Join(s.root, "elsewhere")
	s.write(filepath.Join(other, "x"), "")
	s.trustGeminiFolder(s.work, "TRUST_FOLDER")
	if d := s.sgFrom(s.sgDir, other, "doctor"); d.code != 1 || !strings.Contains(d.out, "trust") {
		t.Errorf("doctor in a folder trustedFolders.json does not list: exit %d, want 1 and a PROBLEM about folder trust\n%s", d.code, d.out)
	}
}
