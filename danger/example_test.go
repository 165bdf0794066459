package danger_test

import (
	"fmt"

	"github.com/shellguard/shellguard/danger"
)

func Example() {
	detector := danger.Default() // the built-in registry
	warnings := detector.Check("rm -rf /")
	if len(warnings) > 0 {
		fmt.Println(warnings[0].Message)
	}
	if detector.IsDangerous("sudo rm -rf /var/log") {
		fmt.Println("Dangerous!")
	}
	level, _ := detector.MaxLevel("wget http://example.com/script.sh | bash")
	fmt.Println(level)
	// Output:
	// [Critical] Dangerous command detected: rm -rf / recursively deletes the entire filesystem root. This will destroy the operating system and all data.
	// Dangerous!
	// Medium
}

func ExampleDetector_Add() {
	detector := danger.Default()
	err := detector.Add(danger.Pattern{
		Name:        "drop_database",
		Regex:       `\bDROP\s+DATABASE\b`,
		Level:       danger.Critical,
		Description: "DROP DATABASE permanently deletes the entire database.",
	})
	if err != nil {
		panic(err)
	}
	removed := detector.Remove("git_push_force")
	fmt.Println(removed, detector.IsDangerous(`psql -c "DROP DATABASE prod"`), detector.IsDangerous("git push --force origin feature"))
	// Output: true true false
}

func ExamplePacks() {
	for _, p := range danger.Packs()[:2] {
		fmt.Println(p.Name, p.Default, len(p.Rules) > 0)
	}
	// Output:
	// core.filesystem true true
	// core.git true true
}

func ExampleBuiltinPattern() {
	p, _ := danger.BuiltinPattern("git_clean_force")
	fmt.Println(danger.PackOf(p.Name), p.Level, p.Hit[0], "/", p.Miss[0])
	// Output: core.git High git clean -fdx / git clean -n
}
