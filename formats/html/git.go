package html

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"time"
)

// commitDates returns, for each file under dir that git has a commit
// for, the time of the last commit that touched it (its committer date),
// by its path relative to dir, slash-separated. It runs git once for the
// whole tree (git log --name-only, newest first: the first time a file
// appears is its last change), whatever the number of files.
func commitDates(dir string) (map[string]time.Time, error) {
	cmd := exec.Command("git", "-C", dir, "-c", "core.quotePath=false", "log",
		"--format=%x01%cI", "-z", "--name-only", "--relative", "--no-renames", "--", ".")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		if errors.Is(err, exec.ErrNotFound) {
			return nil, errors.New("the dates of the last commits: git is not installed")
		}
		return nil, err
	}
	dates := map[string]time.Time{}
	var when time.Time
	var perr error
	sc := bufio.NewScanner(out)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	sc.Split(splitNUL)
	for sc.Scan() {
		field := strings.TrimPrefix(sc.Text(), "\n")
		switch {
		case field == "":
		case field[0] == '\x01':
			t, err := time.Parse(time.RFC3339, field[1:])
			if err != nil && perr == nil {
				perr = fmt.Errorf("git log gave a date %q: %w", field[1:], err)
			}
			when = t.UTC()
		default:
			if _, ok := dates[field]; !ok && !when.IsZero() {
				dates[field] = when
			}
		}
	}
	serr := sc.Err()
	if err := cmd.Wait(); err != nil {
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = err.Error()
		}
		return nil, fmt.Errorf("the dates of the last commits (git log in %s): %s", dir, msg)
	}
	if serr != nil {
		return nil, fmt.Errorf("the dates of the last commits (git log in %s): %w", dir, serr)
	}
	return dates, perr
}

// splitNUL splits git's -z output at NUL bytes.
func splitNUL(data []byte, atEOF bool) (int, []byte, error) {
	if i := bytes.IndexByte(data, 0); i >= 0 {
		return i + 1, data[:i], nil
	}
	if atEOF && len(data) > 0 {
		return len(data), data, nil
	}
	return 0, nil, nil
}
