package policy

import (
	"github.com/shellguard/shellguard/approval"
	"github.com/shellguard/shellguard/shellparse"
)

// Temporary until approval.Classify lands.
type tmpIC struct{ Command, Prefix, Pattern, Reason, Widening string }
type tmpCls struct {
	Invocations []tmpIC
	Approvable  bool
	Reason      string
}
type tmpMatch struct {
	Approved bool
	By       []string
}

func classifyLine(res *shellparse.Result) tmpCls {
	c := tmpCls{Approvable: res.OK()}
	for i := range res.Invocations {
		inv := &res.Invocations[i]
		c.Invocations = append(c.Invocations, tmpIC{Command: inv.String(), Prefix: inv.Name})
	}
	return c
}

func matchLine(c tmpCls, entries []approval.Entry) tmpMatch {
	return tmpMatch{By: make([]string, len(c.Invocations))}
}
