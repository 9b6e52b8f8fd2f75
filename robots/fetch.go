package robots

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// MaxRedirects is how many redirects Fetch follows, RFC 9309's minimum.
const MaxRedirects = 5

// DefaultFetchTimeout bounds a fetch when neither the context nor the
// client sets a limit.
const DefaultFetchTimeout = 15 * time.Second

// FetchUserAgent is the User-agent Fetch sends.
const FetchUserAgent = "robowatch (robots.txt checker)"

// Outcome is what a fetch of robots.txt came to, in RFC 9309's terms.
type Outcome uint8

// The outcomes of RFC 9309 §2.3.1.
const (
	Fetched     Outcome = iota // 2xx: the body is the robots.txt
	Unavailable                // 4xx, or too many redirects: no robots.txt, everything allowed
	Unreachable                // 5xx, network error or timeout: everything disallowed
)

// String returns "fetched", "unavailable" or "unreachable".
func (o Outcome) String() string {
	switch o {
	case Fetched:
		return "fetched"
	case Unavailable:
		return "unavailable"
	}
	return "unreachable"
}

// FetchResult says what fetching a robots.txt came to and which rules follow.
type FetchResult struct {
	URL       string  // the URL asked for
	FinalURL  string  // the URL answered, after redirects
	Status    int     // the final HTTP status; 0 when there was no response
	Redirects int     // redirects followed
	Outcome   Outcome // how RFC 9309 reads the result
	Err       error   // the network or redirect error behind an Unreachable or Unavailable outcome; nil otherwise
	Robots    *Robots // the rules to apply: the parsed file, an empty file (allow all) or DisallowAll
}

// String describes the result in one line, with what RFC 9309 prescribes.
func (f *FetchResult) String() string {
	where := f.URL
	if f.FinalURL != "" && f.FinalURL != f.URL {
		where = fmt.Sprintf("%s (redirected %d times to %s)", f.URL, f.Redirects, f.FinalURL)
	}
	switch {
	case f.Outcome == Fetched:
		s := fmt.Sprintf("%s: HTTP %d, robots.txt read", where, f.Status)
		if f.Robots != nil && f.Robots.Truncated {
			s += fmt.Sprintf(" (only its first %d KiB, as RFC 9309 allows)", MaxSize>>10)
		}
		if f.Robots != nil && f.Robots.HTML {
			s += " (but it is an HTML page, not a robots.txt)"
		}
		return s
	case f.Outcome == Unavailable && f.Status >= 400:
		return fmt.Sprintf("%s: HTTP %d: robots.txt unavailable; RFC 9309 §2.3.1.3: everything allowed", where, f.Status)
	case f.Outcome == Unavailable:
		return fmt.Sprintf("%s: %v: robots.txt unavailable; RFC 9309 §2.3.1.2-3: everything allowed", where, f.Err)
	case f.Status >= 500:
		return fmt.Sprintf("%s: HTTP %d: robots.txt unreachable; RFC 9309 §2.3.1.4: everything disallowed", where, f.Status)
	case f.Status != 0:
		return fmt.Sprintf("%s: unexpected HTTP %d: robots.txt unreachable; RFC 9309 §2.3.1.4: everything disallowed", where, f.Status)
	}
	return fmt.Sprintf("%s: %v: robots.txt unreachable; RFC 9309 §2.3.1.4: everything disallowed", where, f.Err)
}

var errTooManyRedirects = fmt.Errorf("more than %d redirects", MaxRedirects)

// Fetch gets a robots.txt over HTTP(S) and reads the outcome as RFC 9309
// does. client may be nil; its CheckRedirect is replaced (at most
// MaxRedirects are followed) and, when neither it nor ctx limits the time,
// DefaultFetchTimeout applies. The error is only for a URL that cannot be
// fetched at all; what the server did is in the result.
func Fetch(ctx context.Context, rawURL string, client *http.Client) (*FetchResult, error) {
	shown := Redact(rawURL) // what messages and the result show: no password
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, fmt.Errorf("robots: fetching %q: %w", shown, redactErr(err, rawURL, shown))
	}
	if u.Scheme != "http" && u.Scheme != "https" || u.Host == "" {
		return nil, fmt.Errorf("robots: fetching %q: not an http or https URL", shown)
	}
	c := http.Client{}
	if client != nil {
		c = *client
	}
	res := &FetchResult{URL: shown}
	c.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if len(via) > MaxRedirects {
			return errTooManyRedirects
		}
		res.Redirects = len(via)
		return nil
	}
	if _, ok := ctx.Deadline(); !ok && c.Timeout == 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, DefaultFetchTimeout)
		defer cancel()
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, fmt.Errorf("robots: fetching %q: %w", shown, redactErr(err, rawURL, shown))
	}
	req.Header.Set("User-Agent", FetchUserAgent)
	resp, err := c.Do(req)
	if err != nil {
		res.Err = redactErr(err, rawURL, shown)
		if errors.Is(err, errTooManyRedirects) {
			// RFC 9309 §2.3.1.2: past the redirects it follows, a crawler
			// may take robots.txt as unavailable.
			res.Outcome, res.Robots = Unavailable, &Robots{}
			res.Redirects = MaxRedirects
			return res, nil
		}
		res.Outcome = Unreachable
		res.Robots = DisallowAll(res.String())
		return res, nil
	}
	defer resp.Body.Close()
	res.Status = resp.StatusCode
	res.FinalURL = Redact(resp.Request.URL.String())
	switch {
	case resp.StatusCode >= 200 && resp.StatusCode < 300:
		r, err := Parse(resp.Body)
		if err != nil {
			// A body cut off by a stall or a reset is no robots.txt to
			// trust: the server could not deliver it.
			res.Status, res.Err, res.Outcome = 0, err, Unreachable
			res.Robots = DisallowAll(res.String())
			return res, nil
		}
		res.Outcome, res.Robots = Fetched, r
	case resp.StatusCode >= 300 && resp.StatusCode < 500:
		// 4xx, and a 3xx that could not be followed (no Location): the
		// file is unavailable.
		res.Outcome, res.Robots = Unavailable, &Robots{}
		if resp.StatusCode < 400 {
			res.Err = fmt.Errorf("HTTP %d without a usable Location", resp.StatusCode)
		}
	default:
		res.Outcome = Unreachable
		res.Robots = DisallowAll(res.String())
	}
	return res, nil
}

// redactErr is err with raw, which holds a password, shown as shown: url.Parse
// quotes the URL it fails on.
func redactErr(err error, raw, shown string) error {
	if raw == shown || !strings.Contains(err.Error(), raw) {
		return err
	}
	return errors.New(strings.ReplaceAll(err.Error(), raw, shown))
}
