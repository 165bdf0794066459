// Package reprefix finds literal prefixes of regular expressions: strings
// one of which starts every string an anchored expression matches. The
// danger package checks them before it compiles or runs an expression, so
// that a file name like /dev/null, which most of the built-in rules'
// path expressions (/etc/..., ~/.ssh/..., /proc/sys/...) cannot match,
// costs no compilation; danger/internal/gen computes them for the built-in
// rules, so that this costs nothing at run time either.
package reprefix
