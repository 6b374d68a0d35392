package indexnow_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/feed2sitemap/feed2sitemap/fetch"
	"github.com/feed2sitemap/feed2sitemap/indexnow"
)

func TestMaskKey(t *testing.T) {
	assert.Equal(t, "0123…", indexnow.MaskKey(key))
	assert.Equal(t, "ab…", indexnow.MaskKey("abcdefgh"))
	assert.Equal(t, "…", indexnow.MaskKey("abc"))
}

func TestReadKeyFile(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, []byte(content), 0o600))
		return p
	}
	for _, content := range []string{key, key + "\n", "\uFEFF" + key + "\r\n", "  " + key + "\t\n\n"} {
		got, err := indexnow.ReadKeyFile(write("k", content))
		require.NoError(t, err, "%q", content)
		assert.Equal(t, key, got)
	}

	_, err := indexnow.ReadKeyFile(filepath.Join(dir, "absent"))
	assert.ErrorIs(t, err, os.ErrNotExist)

	secret := "secret_value-1234567"
	for content, want := range map[string]string{
		"":                             "is empty",
		"\n \n":                        "is empty",
		secret:                         `the key must be 8 to 128 characters of a-z, A-Z, 0-9 and - (it holds "_")`,
		"short":                        "(it has 5)",
		key + "\n" + key:               "(it holds \"\\n\")",
		strings.Repeat("a", 5000):      "holds more than 4096 bytes",
		"<html>" + key + "</html>\n\n": `(it holds "<")`,
	} {
		p := write("bad", content)
		_, err := indexnow.ReadKeyFile(p)
		require.Error(t, err, "%q", content)
		assert.Contains(t, err.Error(), p+": ")
		assert.Contains(t, err.Error(), want)
		assert.NotContains(t, err.Error(), secret[:8], "what the file holds is not shown")
		assert.NotContains(t, err.Error(), key)
	}
}

func TestKeyFileURL(t *testing.T) {
	c := &indexnow.Client{Key: key}
	for _, tc := range []struct {
		loc  string
		b    indexnow.Batch
		want string
	}{
		{"", indexnow.Batch{Host: "example.com", URLs: []string{"https://example.com/a"}}, "https://example.com/" + key + ".txt"},
		{"", indexnow.Batch{Host: "example.com:8080", URLs: []string{"http://example.com:8080/a"}}, "http://example.com:8080/" + key + ".txt"},
		{"/keys/k.txt", indexnow.Batch{Host: "example.com:8080", URLs: []string{"http://example.com:8080/a"}}, "http://example.com:8080/keys/k.txt"},
		{"https://example.com/k.txt", indexnow.Batch{Host: "example.com", URLs: []string{"http://example.com/a"}}, "https://example.com/k.txt"},
	} {
		c.KeyLocation = tc.loc
		got, err := c.KeyFileURL(tc.b)
		require.NoError(t, err)
		assert.Equal(t, tc.want, got)
	}
}

// keySite is a loopback host that serves key files and records every
// request: GETs of its paths, and POSTs to /indexnow, which it accepts.
type keySite struct {
	*httptest.Server
	mu    sync.Mutex
	log   []string // "GET /path" or "POST body"
	files map[string]func(w http.ResponseWriter, r *http.Request)
}

func newKeySite(t *testing.T) *keySite {
	s := &keySite{files: map[string]func(http.ResponseWriter, *http.Request){}}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		s.mu.Lock()
		if r.Method == http.MethodPost {
			s.log = append(s.log, "POST "+string(body))
		} else {
			s.log = append(s.log, r.Method+" "+r.URL.Path)
		}
		h := s.files[r.URL.Path]
		s.mu.Unlock()
		switch {
		case r.Method == http.MethodPost:
			w.WriteHeader(http.StatusAccepted)
		case h != nil:
			h(w, r)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *keySite) serve(path, content string) {
	s.files[path] = func(w http.ResponseWriter, _ *http.Request) { io.WriteString(w, content) }
}

func (s *keySite) requests() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.log...)
}

func (s *keySite) batch(paths ...string) indexnow.Batch {
	b := indexnow.Batch{Host: strings.TrimPrefix(s.URL, "http://")}
	for _, p := range paths {
		b.URLs = append(b.URLs, s.URL+p)
	}
	return b
}

func TestSendChecksTheKeyFile(t *testing.T) {
	site := newKeySite(t)
	other := newKeySite(t)
	other.serve("/"+key+".txt", key)
	c := &indexnow.Client{Endpoint: site.URL + "/indexnow", Key: key, KeyCheck: true, UserAgent: "test-agent"}
	ctx := context.Background()
	kf := "/" + key + ".txt"
	masked := strings.TrimPrefix(site.URL, "http://") + "/" + indexnow.MaskKey(key) + ".txt"

	for _, tc := range []struct {
		name   string
		handle func(w http.ResponseWriter, r *http.Request)
		want   string
		status int
	}{
		{"missing", nil, "answered 404 Not Found", 404},
		{"wrong", func(w http.ResponseWriter, _ *http.Request) { io.WriteString(w, "<html>\x1b[31mno</html>") },
			`answered 200 but holds "<html>\x1b[31mno</html>" (20 bytes), not the key`, 200},
		{"another key", func(w http.ResponseWriter, _ *http.Request) { io.WriteString(w, "zyxwvutsrqpo-other\n") },
			"answered 200 but holds another key (zyxw…), not this one (0123…)", 200},
		{"empty", func(http.ResponseWriter, *http.Request) {}, "answered 200 but is empty, without the key", 200},
		{"echoes the key", func(w http.ResponseWriter, _ *http.Request) { io.WriteString(w, "key="+key) },
			`answered 200 but holds "key=0123…" (24 bytes), not the key`, 200},
		{"server error", func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusServiceUnavailable) }, "answered 503 Service Unavailable", 503},
		{"off-host redirect", func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, strings.Replace(other.URL, "127.0.0.1", "localhost", 1)+kf, http.StatusFound)
		}, "redirects to http://localhost:" + other.URL[strings.LastIndex(other.URL, ":")+1:] + "/0123….txt, off the host (a key file is read on its host only)", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// A fresh client: the outcome of a key file is kept.
			c := &indexnow.Client{Endpoint: c.Endpoint, Key: c.Key, KeyCheck: true, UserAgent: c.UserAgent}
			site.mu.Lock()
			site.log = nil
			site.files[kf] = tc.handle
			site.mu.Unlock()
			r := c.Send(ctx, site.batch("/a", "/b"))
			require.Error(t, r.Err)
			var ke *indexnow.KeyFileError
			require.True(t, errors.As(r.Err, &ke), "%v", r.Err)
			assert.Equal(t, tc.status, ke.Status)
			assert.Equal(t, site.batch().Host, ke.Host)
			assert.Equal(t, "the key file http://"+masked+" "+tc.want, r.Err.Error())
			assert.Equal(t, site.batch().Host+": 2 URLs: not posted: "+r.Err.Error(), r.String())
			assert.NotContains(t, r.String(), key, "the key is never shown in full")
			assert.Zero(t, r.Status)
			for _, req := range site.requests() {
				assert.False(t, strings.HasPrefix(req, "POST"), "nothing posted: %v", site.requests())
			}
		})
	}
	assert.Empty(t, other.requests(), "the redirect off the host is not followed")

	// The key, with a final newline, after a redirect on the same host:
	// the batch is posted. The key file is read once for all the batches
	// of its host.
	site.mu.Lock()
	site.log = nil
	site.files[kf] = func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/keys/current.txt", http.StatusMovedPermanently)
	}
	site.mu.Unlock()
	site.serve("/keys/current.txt", key+"\n")
	c = &indexnow.Client{Endpoint: site.URL + "/indexnow", Key: key, KeyCheck: true}
	for _, p := range []string{"/a", "/b"} {
		r := c.Send(ctx, site.batch(p))
		require.NoError(t, r.Err)
		assert.Equal(t, http.StatusAccepted, r.Status)
	}
	assert.Equal(t, []string{
		"GET " + kf, "GET /keys/current.txt",
		`POST {"host":"` + site.batch().Host + `","key":"` + key + `","urlList":["` + site.URL + `/a"]}`,
		`POST {"host":"` + site.batch().Host + `","key":"` + key + `","urlList":["` + site.URL + `/b"]}`,
	}, site.requests())

	// A key location on another host is refused without a request.
	c = &indexnow.Client{Endpoint: site.URL + "/indexnow", Key: key, KeyCheck: true, KeyLocation: other.URL + "/k.txt"}
	site.mu.Lock()
	site.log = nil
	site.mu.Unlock()
	other.mu.Lock()
	other.log = nil
	other.mu.Unlock()
	b := site.batch("/a")
	b.Host = "localhost" + b.Host[strings.LastIndex(b.Host, ":"):]
	r := c.Send(ctx, b)
	assert.EqualError(t, r.Err, "the key file "+other.URL+"/k.txt is not on "+b.Host+": IndexNow reads the key file of a host on the host")
	assert.Empty(t, site.requests())
	assert.Empty(t, other.requests())

	// The remote-host policy of KeyFileClient applies: a key file on
	// loopback is refused, and the error wraps the policy's.
	c = &indexnow.Client{Endpoint: site.URL + "/indexnow", Key: key, KeyCheck: true, KeyFileClient: fetch.New(fetch.Options{}).NewScope("").HTTPClient()}
	r = c.Send(ctx, site.batch("/a"))
	assert.ErrorIs(t, r.Err, fetch.ErrAddressRefused)
	assert.Contains(t, r.Err.Error(), "could not be read: fetch: address refused: 127.0.0.1 is a loopback address")
	assert.NotContains(t, r.Err.Error(), key)
	assert.Empty(t, site.requests())

	// An endpoint that quotes the key back: the message masks it.
	quoting := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.WriteHeader(http.StatusForbidden)
		io.WriteString(w, "key "+key+" not valid")
	}))
	defer quoting.Close()
	r = (&indexnow.Client{Endpoint: quoting.URL, Key: key}).Send(ctx, site.batch("/a"))
	assert.Equal(t, site.batch().Host+": 1 URL: 403 Forbidden: key not valid (the key file was not found on the host, or does not hold the key); the server said: key 0123… not valid", r.String())

	// Without KeyCheck nothing is read before the POST.
	c = &indexnow.Client{Endpoint: site.URL + "/indexnow", Key: key}
	site.mu.Lock()
	site.log = nil
	site.files[kf] = nil
	site.mu.Unlock()
	require.NoError(t, c.Send(ctx, site.batch("/a")).Err)
	assert.Len(t, site.requests(), 1)
	assert.True(t, strings.HasPrefix(site.requests()[0], "POST "))
}
