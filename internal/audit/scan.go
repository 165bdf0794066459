package audit

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"time"

	"github.com/shellguard/shellguard/internal/safefile"
)

// maxLine bounds one record when reading (a record holds at most
// MaxCommandBytes of command, redaction markers and the rest).
const maxLine = 4*MaxCommandBytes + (1 << 20)

// Filter selects records when scanning a log.
type Filter struct {
	// Since keeps records at or after this time (zero: all).
	Since time.Time
	// Verdicts keeps records with one of these verdicts (empty: all).
	Verdicts []string
}

func (f Filter) keep(r Record) bool {
	if !f.Since.IsZero() && r.Time.Before(f.Since) {
		return false
	}
	if len(f.Verdicts) == 0 {
		return true
	}
	for _, v := range f.Verdicts {
		if r.Verdict == v {
			return true
		}
	}
	return false
}

// ScanResult says what Scan read.
type ScanResult struct {
	// Files are the files read, oldest first (the rotated log, then the
	// log).
	Files []string
	// Records is how many records were passed on, Skipped how many lines
	// were not records (a partial line an older shellguard left, another
	// program's text).
	Records, Skipped int
}

// Scan reads the log at path — its rotated part ("<log>.1") first, then
// the log itself — and calls fn with each record the filter keeps, oldest
// first, until fn returns an error (which Scan returns). The files are
// read the way Append writes them: a symbolic link only to a regular
// file, nothing but a regular file (a FIFO is refused, never waited on),
// and only files the user owns that no one else can write. Lines that are
// not records are counted in Skipped. A missing log is no error.
func Scan(path string, filter Filter, fn func(Record) error) (ScanResult, error) {
	var res ScanResult
	if path == "" {
		return res, errors.New("no audit log is configured (audit_log = \"\")")
	}
	for _, p := range []string{RotatedPath(path), path} {
		err := scanFile(p, filter, fn, &res)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return res, err
		}
		res.Files = append(res.Files, p)
	}
	return res, nil
}

func scanFile(path string, filter Filter, fn func(Record) error, res *ScanResult) error {
	t, err := safefile.Resolve(path)
	if err != nil {
		return fmt.Errorf("audit log %s: %w", path, err)
	}
	if t.Info == nil {
		return fs.ErrNotExist
	}
	if !t.Info.Mode().IsRegular() {
		return fmt.Errorf("audit log %s is not a regular file (%s)", t.Abs, t.Info.Mode().Type())
	}
	if err := t.Trust(trustWhat, "shellguard does not read it", os.Geteuid()); err != nil {
		return err
	}
	f, fi, err := safefile.Open(t.Real, os.O_RDONLY, 0)
	if err != nil {
		return fmt.Errorf("audit log %s: %w", t.Abs, err)
	}
	defer f.Close()
	if err := safefile.CheckInfo(trustWhat, "shellguard does not read it", t.Abs, t.Real, fi, os.Geteuid()); err != nil {
		return err
	}
	rd := bufio.NewReaderSize(f, 64<<10)
	for {
		line, err := readLine(rd)
		if len(bytes.TrimSpace(line)) > 0 {
			var rec Record
			if json.Unmarshal(line, &rec) != nil || rec.Verdict == "" {
				res.Skipped++
			} else if filter.keep(rec) {
				res.Records++
				if ferr := fn(rec); ferr != nil {
					return ferr
				}
			}
		}
		if err != nil {
			if errors.Is(err, errLongLine) {
				res.Skipped++
				continue
			}
			return nil // end of file (or a read error: what was read stands)
		}
	}
}

var errLongLine = errors.New("line too long")

// readLine returns the next line without its newline. A line longer than
// maxLine is skipped whole and reported as errLongLine.
func readLine(rd *bufio.Reader) ([]byte, error) {
	var buf []byte
	for {
		chunk, err := rd.ReadSlice('\n')
		if len(buf)+len(chunk) > maxLine {
			// Skip the rest of this line.
			for errors.Is(err, bufio.ErrBufferFull) {
				_, err = rd.ReadSlice('\n')
			}
			if err != nil {
				return nil, err
			}
			return nil, errLongLine
		}
		buf = append(buf, chunk...)
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		return bytes.TrimSuffix(buf, []byte("\n")), err
	}
}
