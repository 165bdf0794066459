package agents

import (
	"reflect"
	"testing"
)

func TestRegistrations(t *testing.T) {
	tests := []struct {
		agent Agent
		want  []Registration
	}{
		{Claude, []Registration{{"PreToolUse", "Bash|PowerShell"}}},
		{Codex, []Registration{{"PreToolUse", "^Bash$"}, {"PermissionRequest", "^Bash$"}}},
		{Cursor, []Registration{{"beforeShellExecution", ""}}},
		{Agent("nosuch"), nil},
	}
	for _, tt := range tests {
		if got := tt.agent.Spec().Registrations(); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: Registrations() = %v, want %v", tt.agent, got, tt.want)
		}
	}
	for _, s := range Specs() {
		if regs := s.Registrations(); len(regs) == 0 || regs[0].Event != s.Event {
			t.Errorf("%s: first registration %v is not for Event %q", s.Name, regs, s.Event)
		}
	}
}

func TestHandlerPromoted(t *testing.T) {
	s := Gemini.Spec()
	if s.CommandKey != "command" || s.Timeout != 30000 || s.HookName != "shellguard" || s.FailClosed {
		t.Errorf("Gemini handler = %+v", s.Handler)
	}
}
