// Package textlex holds the few byte-level scanners that the shell parser
// (shellparse), the danger rules, their generator and the interpreter
// analyser (danger/internal/interp) share: reading digits, splitting
// literal text into words the way a shell does, and stepping from one
// backslash escape to the next for the decoders of each quoting form. It
// depends on the standard library only and does no work at init.
package textlex
