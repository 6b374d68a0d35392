package output_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"strconv"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fileSizeEnv, beside killChildEnv, makes the child process lower its
// file size limit (RLIMIT_FSIZE) to that many bytes first: past it every
// write fails with EFBIG, as on a full disk, from the kernel itself.
const fileSizeEnv = "FEED2SITEMAP_TEST_FSIZE"

// limitFileSize sets the process's file size limit to the bytes spec says,
// if any, and ignores the SIGXFSZ a write past it raises, so that the
// write fails with an error instead of killing the process.
func limitFileSize(spec string) error {
	if spec == "" {
		return nil
	}
	n, err := strconv.ParseUint(spec, 10, 64)
	if err != nil {
		return err
	}
	signalIgnoreXFSZ()
	return syscall.Setrlimit(syscall.RLIMIT_FSIZE, &syscall.Rlimit{Cur: n, Max: n})
}

// writeChild returns the command that writes a split set of n entries of
// generation gen to path in a child process, with the environment extra.
func writeChild(path string, n int, gen string, extra ...string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), killChildEnv+"="+path+","+strconv.Itoa(n)+","+gen)
	cmd.Env = append(cmd.Env, extra...)
	return cmd
}

// TestFullDisk writes a split set whose parts cannot fit, as on a full
// disk: the kernel refuses every byte past 100 KiB in a file (a part is
// about 450 KiB). The run fails
// with the device's error, the previous set is left as it was, byte for
// byte, and no temporary file remains.
func TestFullDisk(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("RLIMIT_FSIZE and SIGXFSZ as on Linux")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "sitemap.xml")
	const n = 60000
	require.NoError(t, writeChild(path, n, "old").Run())
	before := snapshot(t, dir)

	cmd := writeChild(path, n, "new", fileSizeEnv+"="+strconv.Itoa(100<<10))
	out, err := cmd.CombinedOutput()
	require.Error(t, err, "the write must fail")
	assert.Contains(t, string(out), "file too large", "the device's own error is reported")
	after := snapshot(t, dir)
	for name := range after {
		assert.Contains(t, before, name, "a file left by the failed run")
	}
	for name, content := range before {
		assert.True(t, after[name] == content, "%s changed", name)
	}
	check(t, dir, path, n)
}

// TestReadOnlyDirectory writes into a directory the process may not write
// to, for real: as root (where permission bits do not stop writes) the
// child runs as the unprivileged user nobody. Nothing is written, the
// error says why, and the files there are untouched.
func TestReadOnlyDirectory(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("credentials as on Linux")
	}
	base := t.TempDir()
	// The test's own directories, made private by t.TempDir, are opened
	// to the child.
	require.NoError(t, os.Chmod(filepath.Dir(base), 0o755))
	require.NoError(t, os.Chmod(base, 0o755))
	dir := filepath.Join(base, "site")
	require.NoError(t, os.Mkdir(dir, 0o755))
	path := filepath.Join(dir, "sitemap.xml")
	const n = 20000
	require.NoError(t, writeChild(path, n, "old").Run())
	before := snapshot(t, dir)
	require.NoError(t, os.Chmod(dir, 0o555))
	t.Cleanup(func() { os.Chmod(dir, 0o755) })

	cmd := writeChild(path, n, "new")
	if os.Geteuid() == 0 {
		// The unprivileged child runs a copy of the test binary that it
		// can reach.
		bin := filepath.Join(base, "output.test")
		b, err := os.ReadFile(os.Args[0])
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(bin, b, 0o755))
		for _, p := range parents(dir) {
			if fi, err := os.Stat(p); err != nil || fi.Mode().Perm()&0o005 != 0o005 {
				t.Skipf("%s is not open to other users, so the unprivileged child cannot run", p)
			}
		}
		cmd.Path = bin
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	}
	out, err := cmd.CombinedOutput()
	require.Error(t, err, "the write must fail")
	assert.Contains(t, string(out), "permission denied", "%v", err)
	assert.True(t, reflect.DeepEqual(before, snapshot(t, dir)), "the previous set is intact and nothing else is left")
}

// parents returns dir and every directory above it.
func parents(dir string) []string {
	var ds []string
	for d := dir; ; d = filepath.Dir(d) {
		ds = append(ds, d)
		if filepath.Dir(d) == d {
			return ds
		}
	}
}
