package shellparse

import (
	"path"
	"strings"
)

// climbsToRoot is how many leading .. segments of a relative path reach /
// from any real working directory.
const climbsToRoot = 10

// CleanPath returns the path a path operand names once its . and ..
// segments are resolved, for comparing it with the paths rules name:
// /tmp/../../.. is /, ~/x/.. is ~, and a relative path that climbs ten or
// more levels (../../../../../../../../../..) is / whatever the working
// directory. A path that climbs out of ~ is cleaned as if home were
// /home/USER (~/.. is /home, ~/../.. is /). Other words are returned unchanged: only "/...", "~", "~/...",
// "./..." and "../..." are paths here. (Symbolic links are not followed:
// the kernel resolves /a/link/.. to the parent of the link's target.)
func CleanPath(v string) string {
	switch {
	case v == "":
		return v
	case v[0] == '/':
		return path.Clean(v)
	case v == "~" || strings.HasPrefix(v, "~/"):
		// Cleaned as if home were /home/USER, so that climbing out of it
		// lands where it usually does: ~/.. is /home, ~/../.. is /.
		const home = "/home/~"
		c := path.Clean(home + v[1:])
		if c == home {
			return "~"
		}
		if rest, ok := strings.CutPrefix(c, home+"/"); ok {
			return "~/" + rest
		}
		return c
	case v == "." || v == ".." || strings.HasPrefix(v, "./") || strings.HasPrefix(v, "../"):
		c := path.Clean(v)
		n := 0
		rest := c
		for rest == ".." || strings.HasPrefix(rest, "../") {
			n++
			rest = strings.TrimPrefix(strings.TrimPrefix(rest, ".."), "/")
		}
		if n >= climbsToRoot {
			return path.Clean("/" + rest)
		}
		return c
	}
	return v
}
