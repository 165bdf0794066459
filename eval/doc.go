// Package eval holds shellguard's own evaluation set: command lines written
// for the project (not taken from the peers' suites), one JSON Lines file per
// category under dangerous/ and benign/, each line labelled with the least and
// the most danger level a careful reviewer accepts for it. Load reads and
// validates the files; the package's test checks their format and logs how the
// built-in detector scores on them, and scripts/eval.sh prints the same scores
// per category in EVALUATION.md. See README.md in this directory.
package eval
