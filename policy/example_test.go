package policy_test

import (
	"fmt"
	"log"

	"github.com/shellguard/shellguard/config"
	"github.com/shellguard/shellguard/danger"
	"github.com/shellguard/shellguard/policy"
	"github.com/shellguard/shellguard/shellparse"
)

// The README's library snippet: TestREADMELibrarySnippet checks that the
// README shows exactly this body, so that what it shows compiles. (It has
// no Output: policy.Load reads your own configuration.)
func Example() {
	det := danger.Default() // the built-in registry
	for _, w := range det.Check("sudo rm -rf /") {
		fmt.Println(w.Message) // [Critical] Dangerous command detected: ...
	}
	res := shellparse.Parse("ls -la\nrm -rf /") // every invocation, with wrappers, frames, dynamic words
	if err := res.Err(); err != nil {
		fmt.Println("unknown, never safe:", err) // it did not parse, or reached a limit
	}
	for _, inv := range res.Invocations {
		fmt.Println(inv.Argv(), inv.Where.Path())
	}
	g, err := policy.Load(policy.Options{Cwd: "."}) // your configuration layers and approvals
	if err != nil {
		log.Fatal(err) // a configuration error: decide nothing, allow nothing
	}
	d := g.Decide(policy.Request{Command: "git push --force", Cwd: "."})
	fmt.Println(d.Verdict, d.Reason) // ask needs confirmation: ... (the warnings and the allow-once code)
}

// Decide answers allow, ask or deny, with the warnings that made it ask
// or deny (here the first of them). A Guard built by New has no approval
// store: what the built-in read-only list does not vouch for is asked.
func ExampleGuard_Decide() {
	g, err := policy.New(config.Default())
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, line := range []string{"ls -la", "make build", "git push --force", "sudo rm -rf /"} {
		d := g.Decide(policy.Request{Command: line, Cwd: "/src/app"})
		rule := "-"
		if len(d.Warnings) > 0 {
			rule = d.Warnings[0].Pattern.Name
		}
		fmt.Printf("%s %q %s\n", d.Verdict, line, rule)
	}
	// Output:
	// allow "ls -la" -
	// ask "make build" -
	// ask "git push --force" git_push_force
	// deny "sudo rm -rf /" rm_rf_root
}
