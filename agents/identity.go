package agents

import (
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"maps"
	"net/netip"
	"path"
	"slices"
	"strings"
	"sync"
	"time"
)

// A User-agent is a claim anyone can make: a scraper calls itself
// Googlebot to be let in. Operators that publish the addresses their
// crawlers come from make the claim checkable. Identify checks it: a
// client whose robot name claims such an operator is verified when its
// address is in the operator's published ranges and an impostor when it
// is not; a robot whose operator publishes nothing robowatch holds is
// unverified; a client that claims no known operator has no identity.

// The identities Identify gives, as the JSON contract spells them.
const (
	IdentityVerified   = "verified"
	IdentityImpostor   = "impostor"
	IdentityUnverified = "unverified"
)

// The ways a claim is verified: the address is in the operator's
// published ranges, or its reverse DNS name is under the operator's
// domains and resolves back to it.
const (
	VerifiedByRange = "ip-range"
	VerifiedByDNS   = "dns"
)

//go:embed ranges/*.json
var embeddedRanges embed.FS

// RangeFile is one published range file, as the report lists it.
type RangeFile struct {
	File     string `json:"file"`
	Operator string `json:"operator"`
	Created  string `json:"created"` // the file's own creationTime
	Prefixes int    `json:"prefixes"`
}

// Ranges are the published addresses of the operators that publish them.
type Ranges struct {
	Files []RangeFile
	nets  map[string][]netip.Prefix // operator → its prefixes

	// advisory are networks an operator's crawlers come from but that
	// hold its other machines too (a whole autonomous system): an
	// address outside them is an impostor, one inside is not proven.
	advisory map[string][]netip.Prefix

	// named are, for an operator whose ranges came from a collection, the
	// robots (lower-case User-agent patterns) its lists are published
	// for: Amazon's list is Amazonbot's, not AmazonBuyForMe's or
	// bedrockbot's. An operator's own file (Google's) is for all its
	// robots: it has no entry.
	named map[string][]string

	// limited are the lists that may verify some of their operator's
	// robots only (verifiers): kept apart from nets.
	limited []limitedList
}

// maxRangePrefixes bounds one range file: Google's largest holds about a
// thousand; a hostile file must not take the memory of millions.
const maxRangePrefixes = 100_000

// LoadRanges reads the range files in fsys (Google's JSON shape: a
// creationTime and prefixes of ipv4Prefix or ipv6Prefix). A file that is
// not of that shape, or holds a prefix that does not parse, is an error
// naming it. Files whose operator robowatch does not know are skipped.
func LoadRanges(fsys fs.FS) (*Ranges, error) {
	names, err := fs.Glob(fsys, "*.json")
	if err != nil {
		return nil, err
	}
	slices.Sort(names)
	r := &Ranges{nets: map[string][]netip.Prefix{}, advisory: map[string][]netip.Prefix{}, named: map[string][]string{}}
	var collections []string
	for _, name := range names {
		if path.Base(name) == collectionFile {
			collections = append(collections, name)
			continue
		}
		op, ok := rangeOperators[path.Base(name)]
		if !ok {
			continue
		}
		b, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, err
		}
		var doc struct {
			CreationTime string `json:"creationTime"`
			Prefixes     []struct {
				IPv4 string `json:"ipv4Prefix"`
				IPv6 string `json:"ipv6Prefix"`
			} `json:"prefixes"`
		}
		if err := json.Unmarshal(b, &doc); err != nil {
			return nil, fmt.Errorf("range file %s: %w", name, err)
		}
		if len(doc.Prefixes) == 0 || len(doc.Prefixes) > maxRangePrefixes {
			return nil, fmt.Errorf("range file %s: %d prefixes, want 1 to %d", name, len(doc.Prefixes), maxRangePrefixes)
		}
		for i, p := range doc.Prefixes {
			s := p.IPv4 + p.IPv6
			pfx, err := netip.ParsePrefix(s)
			if err != nil || p.IPv4 != "" && p.IPv6 != "" {
				return nil, fmt.Errorf("range file %s: prefix %d: %q is not one CIDR network", name, i+1, s)
			}
			r.add(path.Base(name), op, pfx.Masked())
		}
		r.Files = append(r.Files, RangeFile{File: path.Base(name), Operator: op, Created: doc.CreationTime, Prefixes: len(doc.Prefixes)})
	}
	// The collection after the operators' own files: an operator whose
	// own file was read keeps it alone.
	own := map[string]bool{}
	for op := range r.nets {
		own[op] = true
	}
	for _, l := range r.limited {
		own[l.v.operator] = true
	}
	for _, name := range collections {
		if err := r.loadCollection(fsys, name, own); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// collectionFile is the name of a collection of many operators' published
// ranges in ipverse's bot-ip-blocks shape (agents/ranges/NOTICE.md).
const collectionFile = "ipverse-crawlers.json"

// loadCollection reads a collection: {"services": {NAME: {"source_url",
// "last_changed_at", "user_agent_patterns", "ip_list_authoritative",
// "ipv4", "ipv6"}}}. A service counts for the operator its User-agent
// patterns claim (services of robots robowatch does not know are
// skipped); a list that is not authoritative (a whole autonomous system)
// is advisory.
func (r *Ranges) loadCollection(fsys fs.FS, name string, own map[string]bool) error {
	b, err := fs.ReadFile(fsys, name)
	if err != nil {
		return err
	}
	var doc struct {
		Services map[string]struct {
			Source        string   `json:"source_url"`
			Changed       string   `json:"last_changed_at"`
			Agents        []string `json:"user_agent_patterns"`
			Authoritative *bool    `json:"ip_list_authoritative"`
			IPv4          []string `json:"ipv4"`
			IPv6          []string `json:"ipv6"`
		} `json:"services"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		return fmt.Errorf("range file %s: %w", name, err)
	}
	if len(doc.Services) == 0 {
		return fmt.Errorf("range file %s: no services", name)
	}
	for _, svc := range slices.Sorted(maps.Keys(doc.Services)) {
		e := doc.Services[svc]
		op := ""
		for _, p := range e.Agents {
			if op = Operator(strings.Trim(p, "*")); op != "" {
				break
			}
		}
		n := len(e.IPv4) + len(e.IPv6)
		switch {
		case op == "" || own[op] || n == 0:
			continue // a robot robowatch does not know, one whose operator's own file was read, or a fetch that failed upstream
		case n > maxRangePrefixes || e.Authoritative == nil:
			return fmt.Errorf("range file %s: service %q: %d prefixes (want at most %d) and ip_list_authoritative %v", name, svc, n, maxRangePrefixes, e.Authoritative)
		}
		if *e.Authoritative {
			for _, p := range e.Agents {
				r.named[op] = append(r.named[op], strings.ToLower(strings.Trim(p, "*")))
			}
		}
		for i, p := range append(slices.Clip(e.IPv4), e.IPv6...) {
			pfx, err := netip.ParsePrefix(p)
			if err != nil {
				return fmt.Errorf("range file %s: service %q: prefix %d: %q is not a CIDR network", name, svc, i+1, p)
			}
			if !*e.Authoritative {
				r.advisory[op] = append(r.advisory[op], pfx.Masked())
			} else {
				// A service copied from a list the table limits (Google's
				// user-triggered fetchers') verifies what the list does.
				r.add(path.Base(e.Source), op, pfx.Masked())
			}
		}
		file := path.Base(name) + "#" + svc
		if !*e.Authoritative {
			file += " (advisory: the operator's whole network)"
		}
		r.Files = append(r.Files, RangeFile{File: file, Operator: op, Created: e.Changed, Prefixes: n})
	}
	return nil
}

// DefaultRanges are the range files built into robowatch (ranges/, with
// their NOTICE.md and refresh.sh).
var DefaultRanges = sync.OnceValue(func() *Ranges {
	sub, err := fs.Sub(embeddedRanges, "ranges")
	if err == nil {
		var r *Ranges
		if r, err = LoadRanges(sub); err == nil {
			return r
		}
	}
	panic("agents: the built-in range files do not load: " + err.Error())
})

// claims are the robot names (lower case; a name matches when it starts
// with one) that claim an operator, with what the robot is for, for the
// operators robowatch knows; a few give a purpose and no operator. Purposes, one word each: search, ai-training,
// ai-search, ai-assistant, seo, social-preview, feed, archive, monitoring.
var claims = []struct {
	prefix, operator, purpose, url string
}{
	{"googlebot", "Google", "search", "https://developers.google.com/search/docs/crawling-indexing/googlebot"}, {"storebot-google", "Google", "search", ""}, {"google-inspectiontool", "Google", "search", ""},
	{"googleother", "Google", "other", ""}, {"adsbot-google", "Google", "other", ""}, {"mediapartners-google", "Google", "other", ""},
	{"apis-google", "Google", "other", ""}, {"feedfetcher-google", "Google", "feed", ""}, {"google-read-aloud", "Google", "ai-assistant", ""},
	{"google-site-verification", "Google", "other", ""}, {"google favicon", "Google", "other", ""}, {"google-extended", "Google", "ai-training", ""},
	// Google's other user-triggered fetchers (verifiers: googleUserFetchers).
	{"google-cws", "Google", "other", ""}, {"googleproducer", "Google", "feed", ""}, {"googlemessages", "Google", "social-preview", ""},
	{"google-notebooklm", "Google", "ai-assistant", ""}, {"google-gemininotebook", "Google", "ai-assistant", ""}, {"google-pinpoint", "Google", "other", ""},
	{"google-agent", "Google", "ai-assistant", ""},
	{"bingbot", "Microsoft", "search", "https://www.bing.com/webmasters/help/which-crawlers-does-bing-use-8c184ec0"}, {"msnbot", "Microsoft", "search", ""}, {"bingpreview", "Microsoft", "social-preview", ""}, {"adidxbot", "Microsoft", "other", ""},
	// A link's preview Messages fetches from the sender's own iPhone or Mac
	// (classify.go: appleMessagesPreview): Apple's, checked by no list.
	{"apple messages link preview", "Apple", "social-preview", "https://developer.apple.com/library/archive/technotes/tn2444/_index.html"},
	{"applebot-extended", "Apple", "ai-training", "https://support.apple.com/en-us/119829"}, // a robots.txt token for Apple's AI training, before applebot
	{"applebot", "Apple", "search", "https://support.apple.com/en-us/119829"}, {"gptbot", "OpenAI", "ai-training", "https://platform.openai.com/docs/bots"}, {"oai-searchbot", "OpenAI", "ai-search", "https://platform.openai.com/docs/bots"}, {"chatgpt-user", "OpenAI", "ai-assistant", "https://platform.openai.com/docs/bots"},
	{"yandexadditional", "Yandex", "ai-search", ""}, // YandexGPT's quick answers in search, before yandex
	{"yandex", "Yandex", "search", "https://yandex.com/support/webmaster/robot-workings/check-yandex-robots.html"}, {"baiduspider", "Baidu", "search", "https://www.baidu.com/search/robots_english.html"}, {"duckduckbot", "DuckDuckGo", "search", "https://duckduckgo.com/duckduckgo-help-pages/results/duckduckbot"}, {"yahoo! slurp", "Yahoo", "search", ""},
	{"claudebot", "Anthropic", "ai-training", "https://support.anthropic.com/en/articles/8896518"}, {"claude-user", "Anthropic", "ai-assistant", ""}, {"amazonbot", "Amazon", "ai-training", ""},
	{"facebookexternalhit", "Meta", "social-preview", ""}, {"meta-externalagent", "Meta", "ai-training", ""},
	{"meta-externalfetcher", "Meta", "ai-assistant", ""}, {"facebookbot", "Meta", "ai-training", ""},
	{"ccbot", "Common Crawl", "ai-training", "https://commoncrawl.org/ccbot"}, {"bytespider", "ByteDance", "ai-training", ""}, {"perplexitybot", "Perplexity", "ai-search", ""},
	{"ahrefsbot", "Ahrefs", "seo", "https://ahrefs.com/robot"}, {"ahrefssiteaudit", "Ahrefs", "seo", "https://ahrefs.com/robot"}, {"semrushbot", "Semrush", "seo", "https://www.semrush.com/bot/"}, {"mj12bot", "Majestic", "seo", "https://mj12bot.com/"}, {"dotbot", "Moz", "seo", ""},
	{"seznambot", "Seznam", "search", ""}, {"yeti", "Naver", "search", ""}, {"sogou", "Sogou", "search", ""},
	{"dataforseobot", "DataForSEO", "seo", ""}, {"barkrowler", "Babbar", "seo", ""},
	{"petalbot", "Huawei", "search", ""}, {"archive.org_bot", "Internet Archive", "archive", ""}, {"ia_archiver", "Internet Archive", "archive", ""},
	{"uptimerobot", "UptimeRobot", "monitoring", ""}, {"pingdom", "Pingdom", "monitoring", ""}, {"twitterbot", "X", "social-preview", ""},
	{"linkedinbot", "LinkedIn", "social-preview", ""}, {"slackbot", "Slack", "social-preview", ""}, {"discordbot", "Discord", "social-preview", ""},
	// Named in the published range files (ranges/ipverse-crawlers.json)
	// beside a robot above, from the same addresses.
	{"kagibot", "Kagi", "search", "https://kagi.com/bot"}, {"microsoftpreview", "Microsoft", "social-preview", ""},
	{"duckassistbot", "DuckDuckGo", "ai-assistant", ""}, {"claude-searchbot", "Anthropic", "ai-search", ""},
	{"sebot-wa", "SE Ranking", "seo", ""}, {"serankingbacklinksbot", "SE Ranking", "seo", ""}, {"duplexweb-google", "Google", "other", ""},
	// What they are for, with no operator to check them against: WhatsApp
	// and Skype fetch a link's preview from the sender's own device or
	// from addresses no list publishes, Perplexity-User from addresses its
	// list may not hold; an operator here would make them impostors.
	{"perplexity-user", "", "ai-assistant", ""}, {"whatsapp", "", "social-preview", ""}, {"skypeuripreview", "", "social-preview", ""},
	{"telegrambot", "", "social-preview", ""}, {"statuscake", "", "monitoring", ""}, {"blackbox exporter", "", "monitoring", ""}, {"feedly", "", "feed", ""},
	{"blexbot", "", "seo", ""}, // WebMeUp's, now pointing to SE Ranking's help: not SE Ranking's published lists
	{"inoreader", "", "feed", ""}, {"newsblur", "", "feed", ""}, {"feedbin", "", "feed", ""},
	// A scraping framework anyone runs: ai.robots.txt lists it under Zyte,
	// which writes it, but a Scrapy client is whoever started it.
	{"scrapy", "", "library", ""},
}

// Operator returns the operator a robot name claims; "" when it claims
// none robowatch knows.
func Operator(name string) string {
	op, _ := claim(name)
	return op
}

// Purpose returns what the robot a name claims is for; "" when it claims
// no robot robowatch knows.
func Purpose(name string) string {
	_, p := claim(name)
	return p
}

func claim(name string) (operator, purpose string) {
	e, _ := Lookup(name)
	return e.Operator, e.Purpose
}

// URL returns the documentation of the robot a name claims; "" when
// robowatch knows none.
func URL(name string) string {
	e, _ := Lookup(name)
	return e.URL
}

// Identify checks the claim a robot name makes against addr: its
// operator, and verified (by VerifiedByRange), impostor or unverified; all
// "" for a name that claims no known operator.
func (r *Ranges) Identify(name, addr string) (operator, identity, verifiedBy string) {
	operator = Operator(name)
	if operator == "" {
		return "", "", ""
	}
	nets, advisory := r.nets[operator], r.advisory[operator]
	if len(nets) == 0 && len(advisory) == 0 && len(r.limited) == 0 {
		return operator, IdentityUnverified, ""
	}
	a, err := netip.ParseAddr(addr)
	if err != nil {
		// A host name in the log (HostnameLookups): the log's own lookup,
		// which the client's DNS owner chose; nothing checks it.
		return operator, IdentityUnverified, ""
	}
	a = a.Unmap()
	for _, p := range nets {
		if p.Contains(a) {
			return operator, IdentityVerified, VerifiedByRange
		}
	}
	// A list that may verify some robots only (a Google Cloud customer's
	// address in Google's user-triggered-fetchers list) proves nothing of
	// the others.
	in, named := r.limitedFor(operator, name, a)
	if in {
		return operator, IdentityVerified, VerifiedByRange
	}
	for _, p := range advisory {
		if p.Contains(a) {
			// The operator's network, not proven its crawler's: DNS may
			// tell (--verify-dns).
			return operator, IdentityUnverified, ""
		}
	}
	if len(advisory) == 0 && (len(nets) == 0 && !named || !r.lists(operator, name)) || partial(operator, name) {
		// The operator publishes addresses for other robots of its own,
		// not this one, or publishes lists for it robowatch does not
		// hold: outside them proves nothing.
		return operator, IdentityUnverified, ""
	}
	return operator, IdentityImpostor, ""
}

// lists reports whether the operator's published ranges are for the robot
// called name: an operator's own file is for all its robots, a
// collection's service for the robots its User-agent patterns name.
func (r *Ranges) lists(operator, name string) bool {
	patterns, ok := r.named[operator]
	if !ok {
		return true
	}
	lower := strings.ToLower(name)
	for _, p := range patterns {
		if strings.Contains(lower, p) {
			return true
		}
	}
	return false
}

// rangesOutlive is how much newer than a log the range files may be and
// still prove an impostor: operators add networks and retire others, and
// an address a crawler used years before the list was published is not
// in it.
const rangesOutlive = 3 * 365 * 24 * time.Hour

// NewerThan reports whether the range files are all more than three years
// newer than t (the log's last record): then an address outside them proves no
// impostor, only that the lists cannot tell (a 2015 log read with 2026
// lists made Microsoft's bingbot of 2015 impostors).
func (r *Ranges) NewerThan(t time.Time) bool {
	if r == nil || t.IsZero() || len(r.Files) == 0 {
		return false
	}
	for _, f := range r.Files {
		created, ok := parseCreated(f.Created)
		if !ok || !created.After(t.Add(rangesOutlive)) {
			return false
		}
	}
	return true
}

// parseCreated reads a range file's date: RFC 3339, with or without a
// fraction, or a bare date.
func parseCreated(s string) (time.Time, bool) {
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05.999999", "2006-01-02"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t, true
		}
	}
	if len(s) >= 10 {
		if t, err := time.Parse("2006-01-02", s[:10]); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}
