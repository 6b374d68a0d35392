//go:build unix

package convert

import (
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The size guess opens no file that is not a regular one: a named pipe
// with no writer would block the open (and one with a writer would lose
// the reader it is writing to), so it counts 0 at once.
func TestPagesHintOpensNoPipe(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "urls.txt")
	require.NoError(t, syscall.Mkfifo(fifo, 0o600))
	got := make(chan int, 1)
	go func() { got <- pagesHint([]Input{{Name: fifo, Path: fifo}}, textPageBytes) }()
	select {
	case n := <-got:
		assert.Zero(t, n)
	case <-time.After(5 * time.Second):
		t.Fatal("pagesHint blocked on a named pipe")
	}
}
