// Package safefile holds the rules shellguard follows for the files it
// keeps for a person, the approval store and the audit log: which files it
// may trust, read and change, how it follows symbolic links, how it opens
// them (never following a link it did not check, never blocking on a FIFO
// or a device) and how it locks them (a lock file of its own,
// ".<name>.shellguard-lock", beside the file, created only once the file
// was found to be shellguard's or missing). Both packages (approval and
// audit) use this code, so the two files obey the same rules: a file and
// every folder on its way (the folder holding each symbolic link, and the
// target's folder) must belong to the user shellguard runs as and must not
// be writable by anyone else.
package safefile
