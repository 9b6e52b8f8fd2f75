package robots

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// robotsServer serves a few behaviours on loopback, by path.
func robotsServer(t *testing.T) *httptest.Server {
	t.Helper()
	mux := http.NewServeMux()
	mux.HandleFunc("/ok/robots.txt", func(w http.ResponseWriter, r *http.Request) {
		if r.UserAgent() != FetchUserAgent {
			http.Error(w, "who are you", http.StatusForbidden)
			return
		}
		fmt.Fprint(w, "User-agent: *\nDisallow: /private/\n")
	})
	mux.HandleFunc("/html/robots.txt", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, "<html><head><title>Request Rejected</title></head><body>no</body></html>")
	})
	mux.HandleFunc("/big/robots.txt", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, "User-agent: *\nDisallow: /first\n")
		pad := strings.Repeat("#", 1023) + "\n"
		for range 600 {
			fmt.Fprint(w, pad)
		}
		fmt.Fprint(w, "Disallow: /late\n")
	})
	mux.HandleFunc("/missing/robots.txt", http.NotFound)
	mux.HandleFunc("/gone/robots.txt", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusGone) })
	mux.HandleFunc("/broken/robots.txt", func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "oops", http.StatusServiceUnavailable)
	})
	mux.HandleFunc("/notmodified/robots.txt", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusNotModified) })
	// /hop/N redirects to /hop/N-1; /hop/0 is the file.
	mux.HandleFunc("/hop/", func(w http.ResponseWriter, r *http.Request) {
		var n int
		fmt.Sscanf(strings.TrimPrefix(r.URL.Path, "/hop/"), "%d", &n)
		if n == 0 {
			fmt.Fprint(w, "User-agent: *\nDisallow: /hopped/\n")
			return
		}
		http.Redirect(w, r, fmt.Sprintf("/hop/%d", n-1), http.StatusMovedPermanently)
	})
	mux.HandleFunc("/loop/a", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/loop/b", http.StatusFound) })
	mux.HandleFunc("/loop/b", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/loop/a", http.StatusFound) })
	mux.HandleFunc("/stall/robots.txt", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-time.After(10 * time.Second):
		}
	})
	mux.HandleFunc("/stallbody/robots.txt", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, "User-agent: *\nDisallow: /a\n")
		w.(http.Flusher).Flush()
		select {
		case <-r.Context().Done():
		case <-time.After(10 * time.Second):
		}
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

func TestFetch(t *testing.T) {
	srv := robotsServer(t)
	closed := httptest.NewServer(http.NotFoundHandler())
	closedURL := closed.URL
	closed.Close()

	cases := []struct {
		url       string
		outcome   Outcome
		status    int
		redirects int
		path      string // asked of the resulting rules for "anybot"
		allowed   bool
		says      string // in String()
	}{
		{srv.URL + "/ok/robots.txt", Fetched, 200, 0, "/private/x", false, "HTTP 200, robots.txt read"},
		{srv.URL + "/html/robots.txt", Fetched, 200, 0, "/private/x", true, "HTML page"},
		{srv.URL + "/big/robots.txt", Fetched, 200, 0, "/late", true, "first 500 KiB"},
		{srv.URL + "/missing/robots.txt", Unavailable, 404, 0, "/private/x", true, "HTTP 404: robots.txt unavailable; RFC 9309 §2.3.1.3: everything allowed"},
		{srv.URL + "/gone/robots.txt", Unavailable, 410, 0, "/x", true, "everything allowed"},
		{srv.URL + "/notmodified/robots.txt", Unavailable, 304, 0, "/x", true, "everything allowed"},
		{srv.URL + "/broken/robots.txt", Unreachable, 503, 0, "/x", false, "HTTP 503: robots.txt unreachable; RFC 9309 §2.3.1.4: everything disallowed"},
		{srv.URL + "/hop/5", Fetched, 200, 5, "/hopped/x", false, "redirected 5 times"},
		{srv.URL + "/hop/6", Unavailable, 0, MaxRedirects, "/hopped/x", true, "more than 5 redirects"},
		{srv.URL + "/loop/a", Unavailable, 0, MaxRedirects, "/x", true, "more than 5 redirects"},
		{srv.URL + "/stall/robots.txt", Unreachable, 0, 0, "/x", false, "everything disallowed"},
		{srv.URL + "/stallbody/robots.txt", Unreachable, 0, 0, "/x", false, "everything disallowed"},
		{closedURL + "/robots.txt", Unreachable, 0, 0, "/x", false, "everything disallowed"},
	}
	for _, c := range cases {
		// A short timeout for the servers that stall; those that answer
		// get time to spare on a loaded machine.
		client := answerClient
		if strings.Contains(c.url, "/stall") {
			client = shortClient
		}
		start := time.Now()
		res, err := Fetch(context.Background(), c.url, client)
		if err != nil {
			t.Errorf("%s: error %v", c.url, err)
			continue
		}
		if took := time.Since(start); client == shortClient && took > 5*time.Second {
			t.Errorf("%s: took %v despite the client timeout", c.url, took)
		}
		if res.Outcome != c.outcome || res.Status != c.status || res.Redirects != c.redirects {
			t.Errorf("%s: outcome %v status %d redirects %d (err %v), want %v %d %d", c.url, res.Outcome, res.Status, res.Redirects, res.Err, c.outcome, c.status, c.redirects)
		}
		if ok, _ := res.Robots.Allowed("anybot", c.path); ok != c.allowed {
			t.Errorf("%s: %s allowed = %v, want %v", c.url, c.path, ok, c.allowed)
		}
		if ok, _ := res.Robots.Allowed("anybot", "/robots.txt"); !ok {
			t.Errorf("%s: /robots.txt itself disallowed", c.url)
		}
		if !strings.Contains(res.String(), c.says) {
			t.Errorf("%s: String() = %q, want it to say %q", c.url, res.String(), c.says)
		}
		if c.outcome == Unreachable {
			_, rule := res.Robots.Allowed("anybot", "/x")
			if rule == nil || !strings.Contains(rule.Text, "unreachable") {
				t.Errorf("%s: the deciding rule should say why: %+v", c.url, rule)
			}
		}
	}
}

func TestFetchContextAndURLs(t *testing.T) {
	srv := robotsServer(t)
	// The context's deadline bounds a stall when the client has none.
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	res, err := Fetch(ctx, srv.URL+"/stall/robots.txt", nil)
	if err != nil || res.Outcome != Unreachable {
		t.Errorf("stall with context deadline: %v, %v", res, err)
	}
	// A nil client works.
	res, err = Fetch(context.Background(), srv.URL+"/ok/robots.txt", nil)
	if err != nil || res.Outcome != Fetched {
		t.Errorf("nil client: %v, %v", res, err)
	}
	// The caller's client is not modified.
	c := &http.Client{Timeout: time.Second}
	if _, err := Fetch(context.Background(), srv.URL+"/hop/1", c); err != nil || c.CheckRedirect != nil {
		t.Errorf("client modified: CheckRedirect set")
	}
	for _, bad := range []string{"", "ftp://example.com/robots.txt", "/robots.txt", "http://", "http://[::1"} {
		if _, err := Fetch(context.Background(), bad, nil); err == nil {
			t.Errorf("Fetch(%q): no error", bad)
		}
	}
}
