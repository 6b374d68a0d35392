package main

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/feed2sitemap/feed2sitemap/internal/fakenet"
)

// TestEveryCommandUsesTheBoundNetwork runs each command that reads remote
// inputs on a URL whose host only the fake network knows: each reaches
// the server through the network the parser binds from the env (its
// resolver and dialer), and without it the name does not resolve.
func TestEveryCommandUsesTheBoundNetwork(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte("http://" + r.Host + "/page-one\nhttp://" + r.Host + "/page-two\n"))
	}))
	defer srv.Close()
	in := "http://only-the-fake-network.example:" + srv.URL[strings.LastIndex(srv.URL, ":")+1:] + "/urls.txt"
	for name, args := range map[string][]string{
		"convert":  {in, "--to", "text"},
		"validate": {"validate", in},
		"diff":     {"diff", in, in},
		"submit":   {"submit", "--dry-run", "--indexnow-key", testKey, in},
	} {
		t.Run(name, func(t *testing.T) {
			n := fakenet.New()
			n.Name("only-the-fake-network.example", "127.0.0.1")
			_, errOut, status := runNet(t, n, args...)
			require.Equal(t, exitOK, status, errOut)
			assert.NotEmpty(t, n.Dialed(), "the request went through the bound network")
			for _, addr := range n.Dialed() {
				assert.True(t, strings.HasPrefix(addr, "127.0.0.1:"), addr)
			}
		})
	}
}
