// Package agents names the coding agents whose hook protocols shellguard
// speaks, with the facts every integration needs about each: the name the
// user types, the product name, the shell tool the agent reports and the
// hook event shellguard answers. It is a leaf, so that the hook answerer
// and the settings installer share one list without importing each other
// or the policy.
package agents
