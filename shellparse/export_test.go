package shellparse

// IsShell is isShell, for the tests of package shellparse_test.
var IsShell = isShell
