package approval_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/shellguard/shellguard/approval"
)

func ExampleRefusals() {
	dir, _ := os.MkdirTemp("", "example")
	defer os.RemoveAll(dir)
	project := filepath.Join(dir, "project")
	_ = os.Mkdir(project, 0o700)
	ring := approval.NewRefusals(approval.RefusalsPath(filepath.Join(dir, "shellguard", "approvals.json")))
	ctx, now := context.Background(), time.Now()

	// A refusal gets a code...
	res, _ := ring.Record(ctx, approval.Refusal{Command: "git push --force", Cwd: project, Verdict: "ask"}, now, 0)
	code := res.Refusal.Code
	// ...a person approves it ("shellguard allow once CODE")...
	_, _ = ring.Approve(ctx, code, now, 0)
	// ...and the retry of that line in that folder goes through, once.
	again, _ := ring.Record(ctx, approval.Refusal{Command: "git push --force", Cwd: project, Verdict: "ask"}, now, 0)
	fmt.Println(again.Once, again.Refusal.Code == code)
	next, _ := ring.Record(ctx, approval.Refusal{Command: "git push --force", Cwd: project, Verdict: "ask"}, now, 0)
	fmt.Println(next.Once, next.Refusal.Code == code)
	// Output:
	// true true
	// false false
}
