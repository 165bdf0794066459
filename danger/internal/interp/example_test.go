package interp_test

import (
	"fmt"

	"github.com/shellguard/shellguard/danger/internal/interp"
)

func ExampleAnalyze() {
	code := `import shutil, os; shutil.rmtree(os.path.join(os.path.expanduser("~"), ".ssh"))`
	for _, f := range interp.Analyze(interp.Python, code) {
		fmt.Println(f.Kind, f.Call, f.Command())
	}
	// Output: delete shutil.rmtree rm -rf -- ~/.ssh
}

func ExampleFinding_Command() {
	for _, f := range interp.Analyze(interp.JavaScript, `require("child_process").spawnSync("rm", ["-rf", process.env.HOME])`) {
		fmt.Println(f.Command())
	}
	// Output: rm -rf ~
}
