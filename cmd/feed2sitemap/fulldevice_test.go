package main

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestStandardOutputOnFullDevice writes a sitemap to standard output when
// it is /dev/full, where every write fails with ENOSPC: the run fails with
// the device's error, not silently.
func TestStandardOutputOnFullDevice(t *testing.T) {
	full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err != nil {
		t.Skipf("no /dev/full here: %v", err)
	}
	defer full.Close()
	var stderr bytes.Buffer
	status := run([]string{"-", "--to", "text"}, &env{Stdin: strings.NewReader(urlList(100000)), Stdout: full, Stderr: &stderr})
	assert.Equal(t, exitFail, status)
	require.Contains(t, stderr.String(), "no space left on device")
	assert.NotContains(t, stderr.String(), "wrote")
}
