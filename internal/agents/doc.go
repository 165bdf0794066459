// Package agents is the table of coding agents whose hook protocols
// shellguard speaks: for each one, the facts every integration needs
// (the name the user types, the product name, the hook event and the
// tools it answers, whether its protocol can ask or allow and how a hook
// call tells whether a person is there, where its settings live, the
// matcher and timeout install writes, whether a missing hook program
// fails open, whether hooks must be trusted or load only in trusted
// folders), each with the documentation and the release it was verified
// against. It is a leaf, so that the hook answerer, the installer, doctor
// and the policy read one table without importing each other.
package agents
