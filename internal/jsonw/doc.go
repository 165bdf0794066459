// Package jsonw appends JSON values byte for byte as encoding/json writes
// them with HTML escaping off, for the few records shellguard writes in
// every hook process (the audit log's, the refusals file's): encoding/json
// learns a struct's fields by reflection the first time it meets its type,
// which costs more than the rest of an allowed command's decision. The
// callers' tests hold their records equal to encoding/json's.
package jsonw
