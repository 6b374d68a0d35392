package output_test

import (
	"bufio"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/feed2sitemap/feed2sitemap/formats"
	"github.com/feed2sitemap/feed2sitemap/formats/xml"
	"github.com/feed2sitemap/feed2sitemap/internal/testenv"
	"github.com/feed2sitemap/feed2sitemap/output"
)

// killChildEnv makes the test binary write a large split set and exit: the
// process TestKilledMidWrite kills.
const killChildEnv = "FEED2SITEMAP_TEST_KILL_CHILD"

func TestMain(m *testing.M) {
	if spec := os.Getenv(killChildEnv); spec != "" {
		if err := limitFileSize(os.Getenv(fileSizeEnv)); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(6)
		}
		os.Exit(writeForKill(spec))
	}
	os.Exit(testenv.Run(m))
}

// writeForKill writes the set spec names: "path,entries,generation".
func writeForKill(spec string) int {
	f := strings.Split(spec, ",")
	n, _ := strconv.Atoi(f[1])
	base, _ := url.Parse("https://example.com/")
	s, err := output.New(output.Options{Path: f[0], Format: xml.Format, MaxURLs: 10000, BaseURL: base})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 3
	}
	for i := range n {
		if i%10000 == 0 {
			fmt.Println(i) // progress, for TestKilledMidWrite to kill at
		}
		if err := s.Write(formats.Entry{Loc: fmt.Sprintf("https://example.com/%s/%d", f[2], i)}); err != nil {
			fmt.Fprintln(os.Stderr, err)
			s.Abort() // as the command does
			return 4
		}
	}
	fmt.Println("closing")
	if err := s.Close(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		s.Abort()
		return 5
	}
	return 0
}

// TestKilledMidWrite kills a process writing a split set at many moments
// (SIGKILL: no clean-up runs) and checks that the index on disk always
// lists complete parts of one generation, the old or the new.
func TestKilledMidWrite(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "sitemap.xml")
	const n = 200000
	run := func(gen string) *exec.Cmd {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), killChildEnv+"="+path+","+strconv.Itoa(n)+","+gen)
		return cmd
	}
	require.NoError(t, run("g0").Run())
	check(t, dir, path, n)

	// The child prints a line every 10,000 entries and one before it
	// closes the set: kills are spread over those lines, so they land
	// part-way whatever the machine's speed; the last ones come a little
	// after "closing", while the parts are named, the index switched and
	// old parts removed.
	const kills = 16
	lines := n/10000 + 1
	complete, killed := 0, 0
	for i := range kills {
		gen := "g" + strconv.Itoa(i+1)
		cmd := run(gen)
		out, err := cmd.StdoutPipe()
		require.NoError(t, err)
		require.NoError(t, cmd.Start())
		at := min((i+1)*lines/(kills-3)+1, lines)
		sc := bufio.NewScanner(out)
		for seen := 0; seen < at && sc.Scan(); seen++ {
		}
		if at == lines {
			time.Sleep(time.Duration(i-(kills-4)) * 3 * time.Millisecond)
		}
		cmd.Process.Signal(syscall.SIGKILL)
		io.Copy(io.Discard, out)
		if err := cmd.Wait(); err == nil {
			complete++
		} else {
			killed++
		}
		check(t, dir, path, n)
	}
	t.Logf("%d runs killed part-way, %d finished before the kill", killed, complete)
	require.Greater(t, killed, kills/2, "most runs are killed part-way")

	// The next complete run removes what the killed ones left behind.
	require.NoError(t, run("last").Run())
	check(t, dir, path, n)
	des, err := os.ReadDir(dir)
	require.NoError(t, err)
	require.Len(t, des, 1+n/10000, "the index and its parts, nothing else")
}

// check reads the index at path and every part it lists: all must be
// complete, of one generation, n entries in all.
func check(t *testing.T, dir, path string, n int) {
	t.Helper()
	index := readEntries(t, path)
	require.NotEmpty(t, index)
	gens := map[string]bool{}
	total := 0
	for _, child := range index {
		name := child.Loc[strings.LastIndexByte(child.Loc, '/')+1:]
		part, err := os.ReadFile(filepath.Join(dir, name))
		require.NoError(t, err, "the index lists %s, which must exist", name)
		require.True(t, strings.HasSuffix(string(part), xml.URLSetFooter), "%s is complete", name)
		for _, e := range readEntries(t, filepath.Join(dir, name)) {
			gens[strings.Split(e.Loc, "/")[3]] = true
			total++
		}
	}
	require.Len(t, gens, 1, "one generation: %v", gens)
	require.Equal(t, n, total)
}
