package robots

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// bigRobots is over MaxSize: /private/ is in its first 500 KiB, /late/ past them.
var bigRobots = "User-agent: *\nDisallow: /private/\n" + strings.Repeat("# padding\n", 60000) + "Disallow: /late/\n"

// loadServer serves misbehaving robots.txt files on loopback, by path: the
// server of the CLI's TestHostileRobotsURL, plus a 500, a source that counts
// its fetches and one that tells the test when a fetch has begun.
type loadServer struct {
	*httptest.Server
	hits    atomic.Int32  // fetches of /count
	started chan struct{} // a fetch of /cancel has begun
}

func newLoadServer(t *testing.T) *loadServer {
	t.Helper()
	s := &loadServer{started: make(chan struct{})}
	// wait holds a response back until the client gives up; the bound
	// keeps a broken client from holding the test's server open for ever.
	wait := func(r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-time.After(10 * time.Second):
		}
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/ok", func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "User-agent: *\nDisallow: /private/\n")
	})
	mux.HandleFunc("/count", func(w http.ResponseWriter, r *http.Request) {
		s.hits.Add(1)
		io.WriteString(w, "User-agent: *\nDisallow: /private/\n")
	})
	mux.HandleFunc("/hop", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/ok", http.StatusMovedPermanently) })
	mux.HandleFunc("/loop", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/loop", http.StatusFound) })
	mux.HandleFunc("/stall", func(w http.ResponseWriter, r *http.Request) { wait(r) })
	mux.HandleFunc("/cancel", func(w http.ResponseWriter, r *http.Request) {
		select {
		case s.started <- struct{}{}:
		case <-r.Context().Done():
		}
		wait(r)
	})
	mux.HandleFunc("/error", func(w http.ResponseWriter, r *http.Request) { http.Error(w, "oops", http.StatusInternalServerError) })
	mux.HandleFunc("/down", func(w http.ResponseWriter, r *http.Request) { http.Error(w, "down", http.StatusServiceUnavailable) })
	mux.HandleFunc("/missing", http.NotFound)
	mux.HandleFunc("/html", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		io.WriteString(w, "<!DOCTYPE html><html><head><title>Not found</title></head><body>Sorry</body></html>\n")
	})
	mux.HandleFunc("/big", func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, bigRobots) })
	mux.HandleFunc("/bom", func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "\ufeffUser-agent: *\rDisallow: /private/\r")
	})
	mux.HandleFunc("/evil", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/x\x1b]0;t\x07", http.StatusFound) })
	s.Server = httptest.NewServer(mux)
	t.Cleanup(s.Close)
	return s
}

// shortClient gives up on a stalled server soon; answerClient is for
// servers that answer, with time to spare on a loaded machine (the race
// detector, other tests), where half a second for a whole fetch may not be.
var (
	shortClient  = &http.Client{Timeout: 500 * time.Millisecond}
	answerClient = &http.Client{Timeout: 30 * time.Second}
)

// hostileFile is a file of the repository's testdata/robots/hostile.
func hostileFile(name string) string {
	return filepath.Join("..", "testdata", "robots", "hostile", name)
}

// allowedFor says which of paths r allows to any robot, as "+/a -/b".
func allowedFor(r *Robots, paths ...string) string {
	var b strings.Builder
	for i, p := range paths {
		if i > 0 {
			b.WriteByte(' ')
		}
		if ok, _ := r.Allowed("anybot", p); ok {
			b.WriteByte('+')
		} else {
			b.WriteByte('-')
		}
		b.WriteString(p)
	}
	return b.String()
}

// TestLoadFiles: robots.txt files from disk, with the warnings the CLI
// prints after "robowatch: ", word for word; also the files of the CLI's
// TestHostileRobotsFiles.
func TestLoadFiles(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	plain := write("robots.txt", "User-agent: *\nDisallow: /private/\n")
	big := write("big.txt", bigRobots)
	html := hostileFile("soft-404.txt")
	long := "/" + strings.Repeat("a", 10<<10)

	cases := []struct {
		name, src string
		paths     []string
		allowed   string   // allowedFor(paths)
		warnings  []string // exactly
	}{
		{"plain file", plain, []string{"/", "/private/x"}, "+/ -/private/x", nil},
		{"larger than 500 KiB: first 500 KiB parsed, the rest ignored", big, []string{"/private/x", "/late/x"}, "-/private/x +/late/x",
			[]string{"warning: " + big + " is larger than 500 KiB; only its first 500 KiB were read (RFC 9309)"}},
		{"HTML served as robots.txt", html, []string{"/private/x"}, "+/private/x",
			[]string{"warning: " + html + " looks like an HTML page, not a robots.txt; its HTML lines are skipped, any robots.txt lines in it count, as crawlers read them"}},
		{"BOM and CR-only line ends", hostileFile("bom-cr-only.txt"), []string{"/private/x", "/private/ok"}, "-/private/x +/private/ok", nil},
		{"many stars, 10 KiB path", hostileFile("many-stars.txt"), []string{long + "b", long}, "-" + long + "b +" + long, nil},
	}
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			r, warnings, err := Load(context.Background(), tt.src, nil)
			if err != nil {
				t.Fatal(err)
			}
			if got := allowedFor(r, tt.paths...); got != tt.allowed {
				t.Errorf("allowed %.80q, want %.80q", got, tt.allowed)
			}
			if !reflect.DeepEqual(warnings, tt.warnings) {
				t.Errorf("warnings %q, want %q", warnings, tt.warnings)
			}
		})
	}
}

// TestLoadFileErrors: what cannot be read is an error that names the file,
// the same words the CLI printed before Load existed.
func TestLoadFileErrors(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "missing.txt")
	cases := []struct {
		name, src string
		is        error
		msg       string // the error, or its start when it ends in ": " (the system's words follow)
	}{
		{"missing file", missing, fs.ErrNotExist, "open " + missing + ": no such file or directory"},
		{"a directory", dir, nil, "reading " + dir + ": robots: reading robots.txt: read " + dir + ": "},
		{"empty name", "", fs.ErrNotExist, "open : no such file or directory"},
		{"URL without a host", "http://", nil, `robots: fetching "http://": not an http or https URL`},
	}
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			r, warnings, err := Load(context.Background(), tt.src, nil)
			if err == nil || r != nil || warnings != nil {
				t.Fatalf("Load(%q) = %v, %q, %v; want an error alone", tt.src, r, warnings, err)
			}
			if msg := err.Error(); msg != tt.msg && !(strings.HasSuffix(tt.msg, ": ") && strings.HasPrefix(msg, tt.msg)) {
				t.Errorf("error %q, want %q", err, tt.msg)
			}
			if tt.is != nil && !errors.Is(err, tt.is) {
				t.Errorf("error %q is not %v", err, tt.is)
			}
		})
	}
}

// TestLoadURL: a URL is fetched and its outcome read as RFC 9309 says, one
// warning line saying so; also the servers of the CLI's
// TestHostileRobotsURL (stall, redirect loop, HTML, over 500 KiB, BOM, an
// escape in Location).
func TestLoadURL(t *testing.T) {
	srv := newLoadServer(t)
	closed := httptest.NewServer(http.NotFoundHandler())
	closedURL := closed.URL + "/robots.txt"
	closed.Close()

	cases := []struct {
		path    string // on srv; a whole URL when it has a scheme
		allowed string // allowedFor /private/x and /late/x
		says    string // in the warning, after "robots.txt URL"
	}{
		{"/ok", "-/private/x +/late/x", ": HTTP 200, robots.txt read"},
		{"/missing", "+/private/x +/late/x", ": HTTP 404: robots.txt unavailable; RFC 9309 §2.3.1.3: everything allowed"},
		{"/error", "-/private/x -/late/x", ": HTTP 500: robots.txt unreachable; RFC 9309 §2.3.1.4: everything disallowed"},
		{"/down", "-/private/x -/late/x", ": HTTP 503: robots.txt unreachable; RFC 9309 §2.3.1.4: everything disallowed"},
		{"/hop", "-/private/x +/late/x", " (redirected 1 times to " + srv.URL + "/ok): HTTP 200, robots.txt read"},
		{"/loop", "+/private/x +/late/x", "more than 5 redirects: robots.txt unavailable; RFC 9309 §2.3.1.2-3: everything allowed"},
		{"/stall", "-/private/x -/late/x", "robots.txt unreachable; RFC 9309 §2.3.1.4: everything disallowed"},
		{"/html", "+/private/x +/late/x", "but it is an HTML page, not a robots.txt"},
		{"/big", "-/private/x +/late/x", "HTTP 200, robots.txt read (only its first 500 KiB, as RFC 9309 allows)"},
		{"/bom", "-/private/x +/late/x", "HTTP 200, robots.txt read"},
		// An escape in Location: the client refuses it. The warning quotes
		// the header raw: escaping it for a terminal is the CLI's job.
		{"/evil", "-/private/x -/late/x", "robots.txt unreachable"},
		{closedURL, "-/private/x -/late/x", "robots.txt unreachable; RFC 9309 §2.3.1.4: everything disallowed"},
	}
	for _, tt := range cases {
		url := tt.path
		if !strings.Contains(url, "://") {
			url = srv.URL + tt.path
		}
		t.Run(tt.path, func(t *testing.T) {
			client := answerClient
			if tt.path == "/stall" {
				client = shortClient
			}
			start := time.Now()
			r, warnings, err := Load(context.Background(), url, client)
			if err != nil {
				t.Fatal(err)
			}
			if took := time.Since(start); client == shortClient && took > 5*time.Second {
				t.Errorf("took %v despite the client's timeout", took)
			}
			if got := allowedFor(r, "/private/x", "/late/x"); got != tt.allowed {
				t.Errorf("allowed %q, want %q", got, tt.allowed)
			}
			if len(warnings) != 1 || !strings.HasPrefix(warnings[0], "robots.txt "+url) || !strings.Contains(warnings[0], tt.says) {
				t.Errorf("warnings %q, want one: \"robots.txt %s...%s...\"", warnings, url, tt.says)
			}
		})
	}
	// The line is FetchResult.String, whole: the CLI printed nothing else.
	_, warnings, _ := Load(context.Background(), srv.URL+"/missing", nil)
	if want := []string{"robots.txt " + srv.URL + "/missing: HTTP 404: robots.txt unavailable; RFC 9309 §2.3.1.3: everything allowed"}; !reflect.DeepEqual(warnings, want) {
		t.Errorf("404: warnings %q, want %q", warnings, want)
	}
}

// TestLoadURLContext: an interrupt during a fetch is an error, not an
// unreachable site (everything disallowed would be a lie); a deadline is a
// timeout like the client's.
func TestLoadURLContext(t *testing.T) {
	srv := newLoadServer(t)
	t.Run("cancelled during the fetch", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		go func() {
			<-srv.started
			cancel()
		}()
		start := time.Now()
		r, warnings, err := Load(ctx, srv.URL+"/cancel", nil) // no client timeout: only ctx ends it
		if !errors.Is(err, context.Canceled) || r != nil || warnings != nil {
			t.Fatalf("Load = %v, %q, %v; want context.Canceled alone", r, warnings, err)
		}
		if want := `robots: fetching "` + srv.URL + `/cancel": context canceled`; err.Error() != want {
			t.Errorf("error %q, want %q", err, want)
		}
		if took := time.Since(start); took > 5*time.Second {
			t.Errorf("took %v after the cancel", took)
		}
	})
	t.Run("cancelled before", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if _, _, err := Load(ctx, srv.URL+"/ok", nil); !errors.Is(err, context.Canceled) {
			t.Errorf("error %v, want context.Canceled", err)
		}
	})
	t.Run("deadline", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
		defer cancel()
		r, warnings, err := Load(ctx, srv.URL+"/stall", nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := allowedFor(r, "/x"); got != "-/x" || len(warnings) != 1 || !strings.Contains(warnings[0], "everything disallowed") {
			t.Errorf("allowed %q, warnings %q; want unreachable", got, warnings)
		}
	})
}

func TestSplitHost(t *testing.T) {
	cases := []struct{ in, host, source string }{
		{"robots.txt", "", "robots.txt"},
		{"www.example.com=robots-www.txt", "www.example.com", "robots-www.txt"},
		{"shop=https://shop.example/robots.txt", "shop", "https://shop.example/robots.txt"},
		{"dir/a=b.txt", "", "dir/a=b.txt"},
		{`C:\robots\a=b.txt`, "", `C:\robots\a=b.txt`},
		{`dir\a=b.txt`, "", `dir\a=b.txt`},
		{"https://example.com/robots.txt?v=2", "", "https://example.com/robots.txt?v=2"},
		{"example.com:8080=x.txt", "", "example.com:8080=x.txt"}, // a port reads as a path, as before
		{"=x.txt", "", "=x.txt"},
		{"h=", "h", ""},
		{"h=a=b", "h", "a=b"},
		// An IPv6 host has colons of its own.
		{"[2001:db8::1]=v6.txt", "[2001:db8::1]", "v6.txt"},
		{"2001:DB8::1=v6.txt", "2001:DB8::1", "v6.txt"},
		{"[2001:db8::1]=https://[2001:db8::1]/robots.txt", "[2001:db8::1]", "https://[2001:db8::1]/robots.txt"},
		{"[2001:db8::1]:8080=x.txt", "", "[2001:db8::1]:8080=x.txt"}, // a port reads as a path, as above
		{"[2001:db8::1=x.txt", "", "[2001:db8::1=x.txt"},
		{"a:b=x.txt", "", "a:b=x.txt"},
	}
	for _, c := range cases {
		if host, source := SplitHost(c.in); host != c.host || source != c.source {
			t.Errorf("SplitHost(%q) = %q, %q; want %q, %q", c.in, host, source, c.host, c.source)
		}
	}
}

// TestLoadSet: --robots values into one Set, in order.
func TestLoadSet(t *testing.T) {
	srv := newLoadServer(t)
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	site := write("site.txt", "User-agent: *\nDisallow: /site/\n")
	shop := write("shop.txt", "User-agent: *\nDisallow: /shop/\n")
	eq := write("a=b.txt", "User-agent: *\nDisallow: /eq/\n") // '=' after a '/': a path
	html := hostileFile("soft-404.txt")

	// got renders a Set: "default:-/site/ www.example.com:-/shop/" for the
	// paths /site/, /shop/ and /eq/ (only the disallowed ones are listed).
	got := func(s Set) string {
		describe := func(r *Robots) string {
			var out []string
			for _, p := range []string{"/site/", "/shop/", "/eq/", "/private/"} {
				if ok, _ := r.Allowed("anybot", p); !ok {
					out = append(out, "-"+p)
				}
			}
			return strings.Join(out, ",")
		}
		var parts []string
		if s.Default != nil {
			parts = append(parts, "default:"+describe(s.Default))
		}
		hosts := make([]string, 0, len(s.ByHost))
		for h := range s.ByHost {
			hosts = append(hosts, h)
		}
		slices.Sort(hosts)
		for _, h := range hosts {
			parts = append(parts, h+":"+describe(s.ByHost[h]))
		}
		return strings.Join(parts, " ")
	}

	cases := []struct {
		name     string
		sources  []string
		want     string   // got(set)
		warnings []string // exactly
	}{
		{"none", nil, "", nil},
		{"one file for the whole log", []string{site}, "default:-/site/", nil},
		{"HOST=FILE, host lower-cased", []string{"WWW.Example.COM=" + shop}, "www.example.com:-/shop/", nil},
		{"whole log and two hosts", []string{"a.example=" + shop, site, "b.example=" + eq}, "default:-/site/ a.example:-/shop/ b.example:-/eq/", nil},
		{"a host given twice keeps the last", []string{"a.example=" + shop, "A.example=" + site}, "a.example:-/site/", nil},
		{"a host with its trailing dot is the same host", []string{"a.example.=" + shop, "A.example=" + site}, "a.example:-/site/", nil},
		{"the host without its trailing dot", []string{"WWW.example.com.=" + shop}, "www.example.com:-/shop/", nil},
		{"an IPv6 host however written", []string{"[2001:DB8::1]=" + shop, "2001:db8:0:0:0:0:0:1=" + site}, "2001:db8::1:-/site/", nil},
		{"'=' after a '/' is a path, not a host", []string{eq}, "default:-/eq/", nil},
		{"URL with '=' in its query", []string{srv.URL + "/ok?v=1"}, "default:-/private/",
			[]string{"robots.txt " + srv.URL + "/ok?v=1: HTTP 200, robots.txt read"}},
		{"HOST=URL", []string{"shop.example=" + srv.URL + "/missing"}, "shop.example:",
			[]string{"robots.txt " + srv.URL + "/missing: HTTP 404: robots.txt unavailable; RFC 9309 §2.3.1.3: everything allowed"}},
		{"warnings in the order of sources", []string{"h.example=" + html, srv.URL + "/ok", "i.example=" + srv.URL + "/missing"}, "default:-/private/ h.example: i.example:",
			[]string{
				"warning: " + html + " looks like an HTML page, not a robots.txt; its HTML lines are skipped, any robots.txt lines in it count, as crawlers read them",
				"robots.txt " + srv.URL + "/ok: HTTP 200, robots.txt read",
				"robots.txt " + srv.URL + "/missing: HTTP 404: robots.txt unavailable; RFC 9309 §2.3.1.3: everything allowed",
			}},
		// Unreachable: no rules at all rather than "everything disallowed",
		// which would make every robot a violator; Failed says why.
		{"unreachable whole-log URL", []string{srv.URL + "/down"}, "", nil},
		{"unreachable HOST=URL beside a file", []string{"h.example=" + srv.URL + "/error", site}, "default:-/site/", nil},
	}
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			set, warnings, err := LoadSet(context.Background(), tt.sources, answerClient)
			if err != nil {
				t.Fatal(err)
			}
			if g := got(set); g != tt.want {
				t.Errorf("set %q, want %q", g, tt.want)
			}
			if !reflect.DeepEqual(warnings, tt.warnings) {
				t.Errorf("warnings %q, want %q", warnings, tt.warnings)
			}
			var unreachable []string
			for _, src := range tt.sources {
				if strings.HasSuffix(src, "/down") || strings.HasSuffix(src, "/error") {
					unreachable = append(unreachable, src)
				}
			}
			if len(set.Failed) != len(unreachable) {
				t.Fatalf("failed %q, want one line for each of %q", set.Failed, unreachable)
			}
			for i, f := range set.Failed {
				if !strings.HasPrefix(f, unreachable[i]+": HTTP 50") || !strings.Contains(f, "robots.txt unreachable: violations not checked") || strings.Contains(f, "everything disallowed") {
					t.Errorf("failed line %q: want the source, its status, and that violations are not checked", f)
				}
			}
		})
	}
}

// TestLoadSetErrors: errors name the source as given, for the CLI to put
// "--robots " before; the warnings of the sources read before stay.
func TestLoadSetErrors(t *testing.T) {
	srv := newLoadServer(t)
	dir := t.TempDir()
	site := filepath.Join(dir, "site.txt")
	if err := os.WriteFile(site, []byte("User-agent: *\nDisallow: /\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(dir, "missing.txt")
	count := srv.URL + "/count"
	cases := []struct {
		name     string
		sources  []string
		msg      string
		is       error
		warnings []string
	}{
		{"two whole-log sources", []string{site, count},
			count + ": a robots.txt for the whole log was already given; use HOST=FILE for virtual hosts, FILE@TIME for a later version", nil, nil},
		{"two whole-log sources, the second missing: the mistake is said first", []string{count, "h=" + site, missing},
			missing + ": a robots.txt for the whole log was already given; use HOST=FILE for virtual hosts, FILE@TIME for a later version", nil, nil},
		{"missing file", []string{missing}, missing + ": open " + missing + ": no such file or directory", fs.ErrNotExist, nil},
		{"missing file for a host", []string{"h.example=" + missing}, "h.example=" + missing + ": open " + missing + ": no such file or directory", fs.ErrNotExist, nil},
		{"after a fetch", []string{count, "h.example=" + missing}, "h.example=" + missing + ": open " + missing + ": no such file or directory", fs.ErrNotExist,
			[]string{"robots.txt " + count + ": HTTP 200, robots.txt read"}},
	}
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			before := srv.hits.Load()
			set, warnings, err := LoadSet(context.Background(), tt.sources, answerClient)
			if err == nil {
				t.Fatal("no error")
			}
			if err.Error() != tt.msg {
				t.Errorf("error %q, want %q", err, tt.msg)
			}
			if tt.is != nil && !errors.Is(err, tt.is) {
				t.Errorf("error %q is not %v", err, tt.is)
			}
			if set.Default != nil || set.ByHost != nil {
				t.Errorf("a Set along with the error: %+v", set)
			}
			if !reflect.DeepEqual(warnings, tt.warnings) {
				t.Errorf("warnings %q, want %q", warnings, tt.warnings)
			}
			if fetched := srv.hits.Load() - before; int(fetched) != len(tt.warnings) {
				t.Errorf("%d fetches, want %d: a usage mistake should cost none", fetched, len(tt.warnings))
			}
		})
	}
	t.Run("cancelled", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if _, _, err := LoadSet(ctx, []string{"h=" + srv.URL + "/ok"}, nil); !errors.Is(err, context.Canceled) {
			t.Errorf("error %v, want context.Canceled", err)
		}
	})
}

// TestRedact: a password in a --robots URL never reaches a message.
func TestRedact(t *testing.T) {
	tests := []struct{ in, want string }{
		{"https://user:s3cret@example.com/robots.txt", "https://user:xxxxx@example.com/robots.txt"},
		{"www.example.com=https://u:p%40ss@example.com/robots.txt", "www.example.com=https://u:xxxxx@example.com/robots.txt"},
		{"https://user@example.com/robots.txt", "https://user@example.com/robots.txt"},
		{"https://example.com/a@b:c/robots.txt", "https://example.com/a@b:c/robots.txt"},
		{"http://u:p@[::1]:8080/robots.txt", "http://u:xxxxx@[::1]:8080/robots.txt"},
		{"robots.txt", "robots.txt"},
		{"dir/a:b@c.txt", "dir/a:b@c.txt"},
		{"http://u:pa ss@bad host/", "http://u:xxxxx@bad host/"},
	}
	for _, tt := range tests {
		if got := Redact(tt.in); got != tt.want {
			t.Errorf("Redact(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestLoadHidesPassword fetches --robots URLs with a password from servers
// that answer, fail, redirect, stall or are gone: no warning, error or
// FetchResult text carries the password.
func TestLoadHidesPassword(t *testing.T) {
	const secret = "s3cretPW"
	mux := http.NewServeMux()
	mux.HandleFunc("/ok", func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "User-agent: *\nDisallow: /x\n") })
	mux.HandleFunc("/missing", http.NotFound)
	mux.HandleFunc("/down", func(w http.ResponseWriter, r *http.Request) { http.Error(w, "down", 500) })
	mux.HandleFunc("/moved", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/ok", http.StatusFound) })
	mux.HandleFunc("/loop", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/loop", http.StatusFound) })
	mux.HandleFunc("/stall", func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() })
	srv := httptest.NewServer(mux)
	defer srv.Close()
	withPW := func(path string) string {
		return strings.Replace(srv.URL, "http://", "http://admin:"+secret+"@", 1) + path
	}
	gone := httptest.NewServer(mux)
	goneURL := strings.Replace(gone.URL, "http://", "http://admin:"+secret+"@", 1) + "/ok"
	gone.Close()
	client := &http.Client{Timeout: 300 * time.Millisecond}
	srcs := []string{withPW("/ok"), withPW("/missing"), withPW("/down"), withPW("/moved"), withPW("/loop"), withPW("/stall"), goneURL,
		"h.example=" + withPW("/ok"), "http://admin:" + secret + "@bad host/"}
	for _, src := range srcs {
		r, warnings, err := Load(context.Background(), strings.TrimPrefix(src, "h.example="), client)
		texts := append([]string{}, warnings...)
		if err != nil {
			texts = append(texts, err.Error())
		}
		if r != nil {
			for _, g := range r.Groups {
				for _, rule := range g.Rules {
					texts = append(texts, rule.Text)
				}
			}
		}
		_, setWarnings, setErr := LoadSet(context.Background(), []string{src, src}, client)
		texts = append(texts, setWarnings...)
		if setErr != nil {
			texts = append(texts, setErr.Error())
		}
		res, ferr := Fetch(context.Background(), strings.TrimPrefix(src, "h.example="), client)
		if ferr != nil {
			texts = append(texts, ferr.Error())
		} else {
			texts = append(texts, res.String(), res.URL, res.FinalURL)
		}
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if _, _, err := Load(ctx, strings.TrimPrefix(src, "h.example="), client); err != nil {
			texts = append(texts, err.Error())
		}
		for _, text := range texts {
			if strings.Contains(text, secret) {
				t.Errorf("%s: the password shows in %q", Redact(src), text)
			}
		}
	}
}
