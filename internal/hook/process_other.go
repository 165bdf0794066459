//go:build !linux && !darwin

package hook

import "errors"

// readProcess cannot read other processes here: a hook call that needs
// to know (Gemini CLI's) counts as unattended.
func readProcess(int) (Process, error) {
	return Process{}, errors.New("cannot read processes on this system")
}
