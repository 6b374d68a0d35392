package main

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/feed2sitemap/feed2sitemap/internal/fakenet"
)

func TestSubmitKeySources(t *testing.T) {
	t.Setenv("INDEXNOW_KEY", "")
	dir := t.TempDir()
	in := writeSitemap(t, filepath.Join(dir, "sitemap.xml"), "https://example.com/a")
	keyFile := filepath.Join(dir, "indexnow.key")
	fileKey := "from-the-file-0123"
	require.NoError(t, os.WriteFile(keyFile, []byte(fileKey+"\n"), 0o600))
	envKey := "from-the-environment-4567"
	body := func(key string) string {
		return `{"host":"example.com","key":"` + key + `","urlList":["https://example.com/a"]}` + "\n"
	}
	dryRun := func(args ...string) (string, string, int) {
		return runCLI(t, nil, append([]string{"submit", "--dry-run", in}, args...)...)
	}

	out, errOut, status := dryRun("--indexnow-key-file", keyFile)
	require.Equal(t, exitOK, status, errOut)
	assert.Equal(t, body(fileKey), out, "the file's key, its newline trimmed")

	t.Setenv("INDEXNOW_KEY", envKey)
	out, errOut, status = dryRun()
	require.Equal(t, exitOK, status, errOut)
	assert.Equal(t, body(envKey), out, "the environment's key")
	out, errOut, status = dryRun("--indexnow-key-file", keyFile)
	require.Equal(t, exitOK, status, errOut)
	assert.Equal(t, body(fileKey), out, "the file wins over the environment")
	out, errOut, status = dryRun("--indexnow-key", testKey)
	require.Equal(t, exitOK, status, errOut)
	assert.Equal(t, body(testKey), out, "the flag wins over the environment")

	// The flag and the file together are an error, as is no key at all,
	// and a key that is not one names where it came from without
	// showing it.
	_, errOut, status = dryRun("--indexnow-key", testKey, "--indexnow-key-file", keyFile)
	assert.Equal(t, exitUsage, status)
	assert.Contains(t, errOut, "--indexnow-key and --indexnow-key-file exclude each other: give the key one way")

	t.Setenv("INDEXNOW_KEY", "not a key!")
	_, errOut, status = dryRun()
	assert.Equal(t, exitUsage, status)
	assert.Contains(t, errOut, "INDEXNOW_KEY: indexnow: the key must be 8 to 128 characters of a-z, A-Z, 0-9 and - (it holds \" \")")
	assert.NotContains(t, errOut, "not a key!")

	t.Setenv("INDEXNOW_KEY", "")
	_, errOut, status = dryRun()
	assert.Equal(t, exitUsage, status)
	assert.Contains(t, errOut, "missing flags: --indexnow-key or --indexnow-key-file (or INDEXNOW_KEY in the environment)")

	_, errOut, status = dryRun("--indexnow-key-file", filepath.Join(dir, "absent.key"))
	assert.Equal(t, exitUsage, status)
	assert.Contains(t, errOut, "--indexnow-key-file: open "+filepath.Join(dir, "absent.key")+": no such file or directory")

	bad := filepath.Join(dir, "bad.key")
	require.NoError(t, os.WriteFile(bad, []byte("secret_value_9876\n"), 0o600))
	_, errOut, status = dryRun("--indexnow-key-file", bad)
	assert.Equal(t, exitUsage, status)
	assert.Contains(t, errOut, "--indexnow-key-file: "+bad+": indexnow: the key must be 8 to 128 characters")
	assert.NotContains(t, errOut, "secret")
}

// keyHosts is a loopback server that plays several hosts, told apart by
// the Host header, each serving its key file as its handler says; it
// records the requests, "host path".
type keyHosts struct {
	*httptest.Server
	port     string
	mu       sync.Mutex
	requests []string
	handlers map[string]http.HandlerFunc // host name -> its handler
}

func newKeyHosts(t *testing.T) *keyHosts {
	h := &keyHosts{handlers: map[string]http.HandlerFunc{}}
	h.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name := strings.Split(r.Host, ":")[0]
		h.mu.Lock()
		h.requests = append(h.requests, name+" "+r.URL.Path)
		handler := h.handlers[name]
		h.mu.Unlock()
		if r.Method != http.MethodGet || handler == nil {
			http.NotFound(w, r)
			return
		}
		handler(w, r)
	}))
	t.Cleanup(h.Close)
	h.port = h.URL[strings.LastIndex(h.URL, ":")+1:]
	return h
}

// host makes name resolve to addr on n, routes addr to the server, and
// serves the host with handler.
func (h *keyHosts) host(n *fakenet.Net, name, addr string, handler http.HandlerFunc) string {
	n.Name(name, addr)
	n.Route(addr+":"+h.port, "127.0.0.1:"+h.port)
	h.handlers[name] = handler
	return name + ":" + h.port
}

func (h *keyHosts) log() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]string(nil), h.requests...)
}

func serveText(text string) http.HandlerFunc {
	return func(w http.ResponseWriter, _ *http.Request) { fmt.Fprint(w, text) }
}

func TestSubmitKeyCheck(t *testing.T) {
	// Hosts whose key file is missing, wrong, redirected off the host
	// (to a host that serves the key) or on a private address get no
	// POST; the good host gets one, with its URLs.
	hosts := newKeyHosts(t)
	n := fakenet.New()
	kf := "/" + testKey + ".txt"
	good := hosts.host(n, "good.example", "203.0.113.1", serveText(testKey+"\n"))
	missing := hosts.host(n, "missing.example", "203.0.113.2", http.NotFound)
	wrong := hosts.host(n, "wrong.example", "203.0.113.3", serveText("<!doctype html><title>Not here</title>"))
	moved := hosts.host(n, "moved.example", "203.0.113.4", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "http://"+good+kf, http.StatusFound)
	})
	n.Name("intranet.example", "10.0.0.7")
	intranet := "intranet.example:" + hosts.port
	srv := newIndexNowServer(t, nil)
	list := filepath.Join(t.TempDir(), "urls.txt")
	var urls []string
	for _, h := range []string{good, missing, wrong, moved, intranet, good} {
		urls = append(urls, "http://"+h+fmt.Sprintf("/page%d", len(urls)))
	}
	require.NoError(t, os.WriteFile(list, []byte(strings.Join(urls, "\n")+"\n"), 0o644))

	out, errOut, status := runNet(t, n, "submit", "--indexnow-key", testKey, "--endpoint", srv.endpoint(), "--retries", "0", list)
	assert.Equal(t, exitFail, status)
	got := srv.received()
	require.Len(t, got, 1, "only the good host is posted to")
	assert.Equal(t, submission{Host: good, Key: testKey, URLList: []string{urls[0], urls[5]}}, got[0])
	masked := "/f2s-….txt"
	assert.Equal(t, good+": 2 URLs: 202 Accepted: URLs received; the key is still to be verified\n"+
		missing+": 1 URL: not posted: the key file http://"+missing+masked+" answered 404 Not Found\n"+
		wrong+`: 1 URL: not posted: the key file http://`+wrong+masked+` answered 200 but holds "<!doctype html><title>Not here</title>" (38 bytes), not the key`+"\n"+
		moved+": 1 URL: not posted: the key file http://"+moved+masked+" redirects to http://"+good+masked+", off the host (a key file is read on its host only)\n"+
		intranet+": 1 URL: not posted: the key file http://"+intranet+masked+" could not be read: fetch: address refused: intranet.example resolves to 10.0.0.7, which is a private address, and the input was not on one (--allow-private-hosts allows it)\n", out)
	assert.Equal(t, "feed2sitemap: tried to submit 6 URLs in 5 batches for 5 hosts to "+srv.endpoint()+"; 4 batches failed\n"+
		"feed2sitemap: error: 4 of 5 batches failed: "+strings.Split(out, "\n")[1]+" (a host gets no POST unless it serves its key file with the key; --no-key-check posts without checking)\n", errOut)
	assert.NotContains(t, out+errOut, testKey, "the key is never shown in full")
	assert.Equal(t, []string{"good.example " + kf, "missing.example " + kf, "wrong.example " + kf, "moved.example " + kf}, hosts.log(),
		"each key file read once, the redirect off the host not followed")
	for _, d := range n.Dialed() {
		assert.True(t, netip.MustParseAddrPort(d).Addr().Is4() && !strings.HasPrefix(d, "10."), "dialed %s", d)
	}

	// --no-key-check posts to every host without reading a key file.
	before := len(hosts.log())
	_, errOut, status = runNet(t, n, "submit", "--no-key-check", "--indexnow-key", testKey, "--endpoint", srv.endpoint(), "--retries", "0", list)
	require.Equal(t, exitOK, status, errOut)
	assert.Len(t, srv.received(), 1+5)
	assert.Len(t, hosts.log(), before)

	// --key-location: the key file is read there.
	hosts.handlers["good.example"] = func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/keys/indexnow.txt" {
			fmt.Fprint(w, " "+testKey+" \r\n")
			return
		}
		http.NotFound(w, r)
	}
	goodList := filepath.Join(t.TempDir(), "good.txt")
	require.NoError(t, os.WriteFile(goodList, []byte(urls[0]+"\n"), 0o644))
	_, errOut, status = runNet(t, n, "submit", "--indexnow-key", testKey, "--key-location", "/keys/indexnow.txt", "--endpoint", srv.endpoint(), goodList)
	require.Equal(t, exitOK, status, errOut)
	got = srv.received()
	require.Len(t, got, 1+5+1)
	assert.Equal(t, submission{Host: good, Key: testKey, KeyLocation: "http://" + good + "/keys/indexnow.txt", URLList: []string{urls[0]}}, got[6])
	assert.Equal(t, "good.example /keys/indexnow.txt", hosts.log()[len(hosts.log())-1])
}

func TestSubmitQuietWhenWell(t *testing.T) {
	hosts := newKeyHosts(t)
	n := fakenet.New()
	good := hosts.host(n, "good.example", "203.0.113.1", serveText(testKey))
	srv := newIndexNowServer(t, nil)
	list := filepath.Join(t.TempDir(), "urls.txt")
	require.NoError(t, os.WriteFile(list, []byte("http://"+good+"/a\nhttp://"+good+"/b\n"), 0o644))
	args := []string{"submit", "--indexnow-key", testKey, "--endpoint", srv.endpoint(), list}
	batchLine := good + ": 2 URLs: 202 Accepted: URLs received; the key is still to be verified\n"
	summary := "feed2sitemap: submitted 2 URLs in 1 batch for 1 host to " + srv.endpoint() + "\n"

	// All is well, off a terminal: the batches on standard output,
	// nothing on standard error.
	out, errOut, status := runNet(t, n, args...)
	require.Equal(t, exitOK, status, errOut)
	assert.Equal(t, batchLine, out)
	assert.Empty(t, errOut, "quiet when all is well")

	// -v prints the summary.
	out, errOut, status = runNet(t, n, append(args, "-v")...)
	require.Equal(t, exitOK, status, errOut)
	assert.Equal(t, batchLine, out)
	assert.Equal(t, summary, errOut)

	// -q and -v exclude each other.
	_, errOut, status = runNet(t, n, append(args, "-v", "-q")...)
	assert.Equal(t, exitUsage, status)
	assert.Contains(t, errOut, "can't be used together")

	// On a terminal the summary is printed too.
	in := filepath.Join(t.TempDir(), "example.txt")
	require.NoError(t, os.WriteFile(in, []byte("https://example.com/a\n"), 0o644))
	_, errOut, status = runAt(t, []string{"stderr"}, strings.NewReader(""), "submit", "--no-key-check", "--indexnow-key", testKey, "--endpoint", srv.endpoint(), in)
	require.Equal(t, exitOK, status, errOut)
	assert.Equal(t, "feed2sitemap: submitted 1 URL in 1 batch for 1 host to "+srv.endpoint()+"\n", errOut)

	// A failure prints what went wrong and the summary, -v or not.
	hosts.handlers["good.example"] = http.NotFound
	out, errOut, status = runNet(t, n, args...)
	assert.Equal(t, exitFail, status)
	assert.Contains(t, out, good+": 2 URLs: not posted: the key file http://"+good+"/f2s-….txt answered 404 Not Found\n")
	assert.Contains(t, errOut, "feed2sitemap: tried to submit 2 URLs in 1 batch for 1 host to "+srv.endpoint()+"; 1 batch failed\n")
	assert.Contains(t, errOut, "feed2sitemap: error: 1 of 1 batch failed: "+good+": 2 URLs: not posted")
}
