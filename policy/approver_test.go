package policy_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/shellguard/shellguard/policy"
)

// TestApproverText: each kind of approver has the text the CLI, the audit
// log and hook reasons show, and reads back from it.
func TestApproverText(t *testing.T) {
	for _, tc := range []struct {
		a    policy.Approver
		text string
	}{
		{policy.Approver{}, ""},
		{policy.Approver{Kind: policy.BySession, Name: "git checkout *"}, "session: git checkout *"},
		{policy.Approver{Kind: policy.ByAlways, Name: "make deploy && echo ok"}, "always: make deploy && echo ok"},
		{policy.Approver{Kind: policy.ByOnce, Name: "K7QX-M2PD"}, "once: K7QX-M2PD"},
		{policy.Approver{Kind: policy.ByRule, Name: "git *"}, "rule: allow git *"},
		{policy.Approver{Kind: policy.ByReadOnly, Name: "ls"}, "read-only: ls"},
		{policy.Approver{Kind: policy.BySession, Name: "echo a: b"}, "session: echo a: b"},
	} {
		if got := tc.a.String(); got != tc.text {
			t.Errorf("%+v: text %q, want %q", tc.a, got, tc.text)
		}
		b, err := json.Marshal(policy.InvocationResult{ApprovedBy: tc.a})
		if err != nil {
			t.Fatal(err)
		}
		var back policy.InvocationResult
		if err := json.Unmarshal(b, &back); err != nil || back.ApprovedBy != tc.a {
			t.Errorf("%s reads back as %+v (%v)", b, back.ApprovedBy, err)
		}
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil || m["approved_by"] != tc.text {
			t.Errorf("%s: approved_by is not %q", b, tc.text)
		}
	}
	for _, bad := range []string{"rule: git *", "other: x", "session", "ls"} {
		var a policy.Approver
		if err := a.UnmarshalText([]byte(bad)); err == nil {
			t.Errorf("%q decodes as %+v", bad, a)
		}
	}
	if _, err := json.Marshal(policy.Approver{Kind: 99}); err == nil {
		t.Error("an invalid kind encodes")
	}
}

// TestApprovedByKinds: Decide says which kind of thing approved each
// invocation.
func TestApprovedByKinds(t *testing.T) {
	g := guard(t, "[rules]\nallow = [\"make build*\"]\n")
	d := g.Decide(policy.Request{Command: "ls && make build"})
	if d.Verdict != policy.Allow || len(d.Invocations) != 2 {
		t.Fatalf("%v: %s", d.Verdict, d.Reason)
	}
	if a := d.Invocations[0].ApprovedBy; a.Kind != policy.ByReadOnly || a.Name != "ls" {
		t.Errorf("ls approved by %+v", a)
	}
	if a := d.Invocations[1].ApprovedBy; a.Kind != policy.ByRule || a.Name != "make build*" {
		t.Errorf("make build approved by %+v", a)
	}
	if want := "allowed: read-only: ls; rule: allow make build*"; d.Reason != want {
		t.Errorf("reason %q, want %q", d.Reason, want)
	}
}

// An Approver prints as the CLI, the audit log and hook reasons show it.
func ExampleApprover() {
	for _, a := range []policy.Approver{
		{Kind: policy.ByAlways, Name: "git checkout *"},
		{Kind: policy.ByRule, Name: "make build*"},
		{Kind: policy.ByReadOnly, Name: "ls"},
	} {
		fmt.Println(a)
	}
	// Output:
	// always: git checkout *
	// rule: allow make build*
	// read-only: ls
}
