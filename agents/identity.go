package agents

import (
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"net/netip"
	"path"
	"slices"
	"strconv"
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

//go:embed ranges/*.json ranges/*.history.tsv
var embeddedRanges embed.FS

// RangeFile is one published range file, as the report lists it.
type RangeFile struct {
	File     string `json:"file"`
	Operator string `json:"operator"`
	Created  string `json:"created"`         // the file's own creationTime
	Since    string `json:"since,omitempty"` // the day of the earliest copy of its list known (its history)
	Prefixes int    `json:"prefixes"`
}

// Ranges are the published addresses of the operators that publish them,
// over time: operators add networks and retire others, and a log is judged
// by the lists of its own time.
type Ranges struct {
	Files []RangeFile
	nets  map[string][]span // operator → its prefixes over time

	// advisory are networks an operator's crawlers come from but that
	// hold its other machines too (a whole autonomous system): an
	// address outside them is an impostor, one inside is not proven.
	advisory map[string][]span

	// named are, for an operator whose ranges came from a collection, the
	// robots (lower-case User-agent patterns) its lists are published
	// for: Amazon's list is Amazonbot's, not AmazonBuyForMe's or
	// bedrockbot's. An operator's own file (Google's) is for all its
	// robots: it has no entry.
	named map[string][]string

	// begins is, by operator, the day its earliest list begins: a
	// client all before it has no list of its time.
	begins map[string]time.Time
}

// A span is a prefix an operator's list held from the day first to the
// day last; since and until are the days of the earliest and the latest
// copies of that list known. A prefix with last == until is still
// published. A list of no known date has all four zero: it holds at any
// time.
type span struct {
	pfx                       netip.Prefix
	first, last, since, until time.Time

	// robots, when not nil, are the robots (lower-case name prefixes) the
	// list may verify: those the verifiers table allows a limited list
	// (Google's user-triggered fetchers'), or a JAFAR file's service. nil
	// is every robot of the operator.
	robots []string
}

// claimedBy reports whether the span's list may verify the robot called
// lower (lower case).
func (s *span) claimedBy(lower string) bool {
	if s.robots == nil {
		return true
	}
	for _, r := range s.robots {
		if strings.HasPrefix(lower, r) {
			return true
		}
	}
	return false
}

// rangeGrace is how far from a list's days a record may be and still be
// judged by it: lists are copied every few days, and operators publish
// a new network some days after using it, or retire one some days late.
const rangeGrace = 30 * 24 * time.Hour

// maxRangePrefixes bounds one range file: Google's largest holds about a
// thousand; a hostile file must not take the memory of millions.
const maxRangePrefixes = 100_000

// jafarMajor is the major version of draft-illyes-webbotauth-jafar that
// robowatch reads; a file of another major version is not of this shape.
const jafarMajor = 1

// LoadRanges reads the range files in fsys, or only those named: Google's
// JSON shape or JAFAR's (draft-illyes-webbotauth-jafar: a formatVersion,
// a creationTime and prefixes of ipv4Prefix or ipv6Prefix, each with the
// service, or services, naming the robots it is for), and a collection
// (ipverse-crawlers.json), each with its history (NAME.history.tsv) when
// there is one. A file that is not of a shape it knows, holds a prefix
// that does not parse, holds none, or holds less than half of the prefixes
// of the latest list of its history, is an error naming it. In a
// directory, files of operators robowatch does not know are skipped; a
// file named that gives no list is an error.
func LoadRanges(fsys fs.FS, only ...string) (*Ranges, error) {
	names := only
	if len(only) == 0 {
		var err error
		if names, err = fs.Glob(fsys, "*.json"); err != nil {
			return nil, err
		}
	}
	slices.Sort(names)
	r := &Ranges{nets: map[string][]span{}, advisory: map[string][]span{}, named: map[string][]string{}}
	var collections []string
	for _, name := range names {
		if path.Base(name) == collectionFile {
			collections = append(collections, name)
			continue
		}
		n := len(r.Files)
		if err := r.loadFile(fsys, name, len(only) > 0); err != nil {
			return nil, err
		}
		if len(only) > 0 && len(r.Files) == n {
			return nil, fmt.Errorf("range file %s: neither a service on its prefixes nor its name (googlebot.json, googlesc.json, googleutf.json) says whose they are", name)
		}
	}
	// The collection after the operators' own files: an operator whose
	// own file was read keeps it alone.
	own := map[string]bool{}
	for op := range r.nets {
		own[op] = true
	}
	for _, name := range collections {
		if err := r.loadCollection(fsys, name, own); err != nil {
			return nil, err
		}
	}
	r.begins = map[string]time.Time{}
	for _, m := range [...]map[string][]span{r.nets, r.advisory} {
		for op, spans := range m {
			for _, s := range spans {
				if b, ok := r.begins[op]; !ok || s.since.Before(b) {
					r.begins[op] = s.since
				}
			}
		}
	}
	return r, nil
}

// loadFile reads a file of Google's shape or JAFAR's. In a directory
// (named false), a JSON file of a name robowatch does not know that does
// not parse is some other file, skipped.
func (r *Ranges) loadFile(fsys fs.FS, name string, named bool) error {
	b, err := fs.ReadFile(fsys, name)
	if err != nil {
		return err
	}
	fileOp := rangeOperators[path.Base(name)]
	var doc struct {
		FormatVersion json.RawMessage `json:"formatVersion"`
		CreationTime  string          `json:"creationTime"`
		Prefixes      []prefix        `json:"prefixes"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		if !named && fileOp == "" {
			return nil
		}
		return fmt.Errorf("range file %s: %w", name, err)
	}
	if len(doc.FormatVersion) > 0 {
		if err := jafarVersion(doc.FormatVersion); err != nil {
			return fmt.Errorf("range file %s: %w", name, err)
		}
	}
	jafar := len(doc.FormatVersion) > 0 || slices.ContainsFunc(doc.Prefixes, func(p prefix) bool { return p.Service != "" || len(p.Services) > 0 })
	if !named && fileOp == "" && !jafar {
		return nil // some other JSON file
	}
	if len(doc.Prefixes) == 0 || len(doc.Prefixes) > maxRangePrefixes {
		// A source that answered with no prefixes is no list: the one it
		// would replace stays.
		return fmt.Errorf("range file %s: %d prefixes, want 1 to %d", name, len(doc.Prefixes), maxRangePrefixes)
	}
	// The file's prefixes by list: its own operator's (by its name), or,
	// in a JAFAR file, each service's.
	byList := map[string][]string{}
	for i, p := range doc.Prefixes {
		s := p.IPv4 + p.IPv6
		if _, err := netip.ParsePrefix(s); err != nil || p.IPv4 != "" && p.IPv6 != "" {
			return fmt.Errorf("range file %s: prefix %d: %q is not one CIDR network", name, i+1, s)
		}
		services := p.Services
		if p.Service != "" {
			services = append(slices.Clip(services), p.Service)
		}
		if len(services) == 0 && fileOp != "" {
			byList[""] = append(byList[""], s)
		}
		for _, svc := range services {
			byList[svc] = append(byList[svc], s)
		}
	}
	hist, err := readHistory(fsys, name)
	if err != nil {
		return err
	}
	created, _ := parseCreated(doc.CreationTime)
	for _, svc := range slices.Sorted(maps.Keys(byList)) {
		op, list := fileOp, path.Base(name)
		if svc != "" {
			// The service names the robot: its operator is the one the
			// name claims, and the list is for that robot alone.
			if op = Operator(svc); op == "" {
				continue
			}
			list += "#" + svc
			r.named[op] = append(r.named[op], strings.ToLower(svc))
		}
		spans, since, err := hist.spans(list, byList[svc], created)
		if err != nil {
			return fmt.Errorf("range file %s: %w", name, err)
		}
		if svc != "" {
			for i := range spans {
				spans[i].robots = []string{strings.ToLower(svc)}
			}
		} else {
			limit(spans, verifierOf(path.Base(name)))
		}
		r.nets[op] = append(r.nets[op], spans...)
		r.Files = append(r.Files, RangeFile{File: list, Operator: op, Created: doc.CreationTime, Since: since, Prefixes: len(byList[svc])})
	}
	return nil
}

// prefix is a prefix object of Google's shape or JAFAR's.
type prefix struct {
	IPv4     string   `json:"ipv4Prefix"`
	IPv6     string   `json:"ipv6Prefix"`
	Service  string   `json:"service"`  // JAFAR's first drafts: the one robot the prefix is for
	Services []string `json:"services"` // its later ones: the robots
}

// jafarVersion refuses a JAFAR formatVersion ("1.0", "1", 1) of a major
// version robowatch does not read: its fields may mean something else.
func jafarVersion(raw json.RawMessage) error {
	v := strings.Trim(string(raw), `"`)
	major, _, _ := strings.Cut(v, ".")
	if n, err := strconv.Atoi(major); err != nil || n != jafarMajor {
		return fmt.Errorf("formatVersion %s: robowatch reads JAFAR (draft-illyes-webbotauth-jafar) version %d.x only", raw, jafarMajor)
	}
	return nil
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
	hist, err := readHistory(fsys, name)
	if err != nil {
		return err
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
		into := r.nets
		if !*e.Authoritative {
			into = r.advisory
		} else {
			for _, p := range e.Agents {
				r.named[op] = append(r.named[op], strings.ToLower(strings.Trim(p, "*")))
			}
		}
		all := append(slices.Clip(e.IPv4), e.IPv6...)
		for i, p := range all {
			if _, err := netip.ParsePrefix(p); err != nil {
				return fmt.Errorf("range file %s: service %q: prefix %d: %q is not a CIDR network", name, svc, i+1, p)
			}
		}
		changed, _ := parseCreated(e.Changed)
		spans, since, err := hist.spans(svc, all, changed)
		if err != nil {
			return fmt.Errorf("range file %s: service %q: %w", name, svc, err)
		}
		// A service copied from a list the table limits (Google's
		// user-triggered fetchers') verifies what the list does.
		limit(spans, verifierOf(path.Base(e.Source)))
		into[op] = append(into[op], spans...)
		file := path.Base(name) + "#" + svc
		if !*e.Authoritative {
			file += " (advisory: the operator's whole network)"
		}
		r.Files = append(r.Files, RangeFile{File: file, Operator: op, Created: e.Changed, Since: since, Prefixes: n})
	}
	return nil
}

// rangeHistory is a range file's history (NAME.history.tsv, written by
// agents/internal/rangehistory): its lists by name (a Google file's own
// name, a collection's or JAFAR file's service).
type rangeHistory map[string]*historyList

type historyList struct {
	since, until time.Time
	spans        []span
	latest       int // prefixes in the latest copy
}

// maxHistoryLines bounds a history file as maxRangePrefixes bounds a list.
const maxHistoryLines = 1_000_000

// readHistory reads the history of the range file name, if fsys holds one.
// A line that does not parse is an error naming the file and the line.
func readHistory(fsys fs.FS, name string) (rangeHistory, error) {
	hname := strings.TrimSuffix(name, ".json") + ".history.tsv"
	b, err := fs.ReadFile(fsys, hname)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	h := rangeHistory{}
	var l *historyList
	n := 0
	for line := range strings.Lines(string(b)) {
		if n++; n > maxHistoryLines {
			return nil, fmt.Errorf("range history %s: over %d lines", hname, maxHistoryLines)
		}
		line = strings.TrimRight(line, "\r\n")
		if line == "" || line[0] == '#' {
			continue
		}
		f := strings.Split(strings.TrimPrefix(line, "= "), "\t")
		bad := func() error {
			return fmt.Errorf("range history %s: line %d: %q is not a list or a prefix", hname, n, line)
		}
		if strings.HasPrefix(line, "= ") {
			if len(f) != 4 {
				return nil, bad()
			}
			since, ok1 := parseCreated(f[1])
			until, ok2 := parseCreated(f[2])
			if !ok1 || !ok2 || until.Before(since) {
				return nil, bad()
			}
			l = &historyList{since: since, until: until}
			h[f[0]] = l
			continue
		}
		if l == nil || len(f) != 3 {
			return nil, bad()
		}
		p, err := netip.ParsePrefix(f[0])
		first, ok1 := parseCreated(f[1])
		last, ok2 := parseCreated(f[2])
		if err != nil || !ok1 || !ok2 || last.Before(first) || first.Before(l.since) || last.After(l.until) {
			return nil, bad()
		}
		l.spans = append(l.spans, span{pfx: p.Masked(), first: first, last: last, since: l.since, until: l.until})
		if last.Equal(l.until) {
			l.latest++
		}
	}
	return h, nil
}

// spans returns a list's prefixes over time: its history (if any) with
// the copy of the day created added, and the day its history begins. A
// copy that shrank to less than half of the latest in the history is a
// source that answered with part of its list: refused.
func (h rangeHistory) spans(list string, prefixes []string, created time.Time) ([]span, string, error) {
	l := h[list]
	if l == nil {
		out := make([]span, 0, len(prefixes))
		for _, s := range prefixes {
			p, _ := netip.ParsePrefix(s)
			out = append(out, span{pfx: p.Masked(), first: created, last: created, since: created, until: created})
		}
		return out, day(created), nil
	}
	if 2*len(prefixes) < l.latest {
		return nil, "", fmt.Errorf("%d prefixes where its list of %s held %d: a partial list is not taken", len(prefixes), day(l.until), l.latest)
	}
	out := slices.Clone(l.spans)
	if created.After(l.until) {
		// A copy newer than the history: a prefix it still holds is
		// published until its day, one it adds from its day.
		held := map[netip.Prefix]bool{}
		for _, s := range prefixes {
			p, _ := netip.ParsePrefix(s)
			held[p.Masked()] = true
		}
		for i := range out {
			out[i].until = created
			if out[i].last.Equal(l.until) && held[out[i].pfx] {
				out[i].last = created
				delete(held, out[i].pfx)
			}
		}
		for p := range held {
			out = append(out, span{pfx: p, first: created, last: created, since: l.since, until: created})
		}
	}
	return out, day(l.since), nil
}

// day is t's date, "" for no time.
func day(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.Format(time.DateOnly)
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
	// (declared.go: appleMessagesPreview): Apple's, checked by no list.
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

// Identify checks the claim a robot name makes against addr by the
// latest lists: IdentifyAt of now.
func (r *Ranges) Identify(name, addr string) (operator, identity, verifiedBy string) {
	operator, identity, verifiedBy, _ = r.IdentifyAt(name, addr, time.Time{}, time.Time{})
	return operator, identity, verifiedBy
}

// IdentifyAt checks the claim a robot name makes against addr, for a
// client seen from first to last (zero: now), by the lists of that time:
// its operator, and verified (by VerifiedByRange), impostor or
// unverified; all "" for a name that claims no known operator. The
// address is verified when a list held it within rangeGrace of the
// client's time, an impostor when the lists of that time did not. A
// client seen before the lists' history begins is judged by the earliest
// lists known: verified if they hold it (note "by the earliest ranges
// known, DAY"), else unverified (note "ranges only from DAY"), for no
// list of its time rules it out.
func (r *Ranges) IdentifyAt(name, addr string, first, last time.Time) (operator, identity, verifiedBy, note string) {
	operator = Operator(name)
	if operator == "" {
		return "", "", "", ""
	}
	nets, advisory := r.nets[operator], r.advisory[operator]
	if len(nets) == 0 && len(advisory) == 0 {
		return operator, IdentityUnverified, "", ""
	}
	a, err := netip.ParseAddr(addr)
	if err != nil {
		// A host name in the log (HostnameLookups): the log's own lookup,
		// which the client's DNS owner chose; nothing checks it.
		return operator, IdentityUnverified, "", ""
	}
	a = a.Unmap()
	if first.IsZero() || last.IsZero() {
		first, last = farFuture, farFuture
	}
	lo, hi := first.Add(-rangeGrace), last.Add(rangeGrace)
	begins := r.begins[operator]
	before := hi.Before(begins)
	var earliest time.Time // the earliest list holding a, for a client before them all
	// claimed: some list of the operator may verify this robot. A list
	// that may verify some robots only (a Google Cloud customer's address
	// in Google's user-triggered-fetchers list) proves nothing of the
	// others.
	claimed := false
	lower := strings.ToLower(name)
	for _, s := range nets {
		if !s.claimedBy(lower) {
			continue
		}
		claimed = true
		if !s.pfx.Contains(a) {
			continue
		}
		if s.held(lo, hi) {
			return operator, IdentityVerified, VerifiedByRange, ""
		}
		if before && s.first.Equal(s.since) {
			earliest = s.since
		}
	}
	if !earliest.IsZero() {
		return operator, IdentityVerified, VerifiedByRange, "by the earliest ranges known, " + day(earliest)
	}
	for _, s := range advisory {
		if s.pfx.Contains(a) && (s.held(lo, hi) || before && s.first.Equal(s.since)) {
			// The operator's network, not proven its crawler's: DNS may
			// tell (--verify-dns).
			return operator, IdentityUnverified, "", ""
		}
	}
	if before {
		return operator, IdentityUnverified, "", "ranges only from " + day(begins)
	}
	if len(advisory) == 0 && (!claimed || !r.lists(operator, name)) || partial(operator, name) {
		// The operator publishes addresses for other robots of its own,
		// not this one, or publishes lists for it robowatch does not
		// hold: outside them proves nothing.
		return operator, IdentityUnverified, "", ""
	}
	return operator, IdentityImpostor, "", ""
}

// farFuture stands for now: after every list, so only the prefixes still
// published hold then.
var farFuture = time.Date(9999, 1, 1, 0, 0, 0, 0, time.UTC)

// held reports whether the list held s's prefix at some time from lo to
// hi: a prefix still published holds from its first day on.
func (s span) held(lo, hi time.Time) bool {
	return !s.first.After(hi) && (s.last.Equal(s.until) || !s.last.Before(lo))
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

// NewerThan reports whether the lists' history begins after t (the log's
// first record): then some of the log's records come before any list
// known, and an address outside the earliest lists proves no impostor
// there, only that the lists cannot tell (IdentifyAt).
func (r *Ranges) NewerThan(t time.Time) bool {
	if r == nil || t.IsZero() {
		return false
	}
	since, ok := r.Since()
	return ok && t.Before(since)
}

// Since returns the day the history of the ranges begins: the latest of
// the days their lists' histories begin (Google's in February 2024, the
// collection's in April 2026), so that a log from before it has some
// operator's lists that do not reach back to it.
func (r *Ranges) Since() (time.Time, bool) {
	var since time.Time
	for _, f := range r.Files {
		if t, ok := parseCreated(f.Since); ok && t.After(since) {
			since = t
		}
	}
	return since, !since.IsZero()
}

// parseCreated reads a range file's date: RFC 3339, with or without a
// fraction, or a bare date.
func parseCreated(s string) (time.Time, bool) {
	if len(s) == len(time.DateOnly) {
		// A day, as every line of a history gives: only the last layout
		// can fit, and a failed time.Parse allocates its error.
		if t, err := time.Parse(time.DateOnly, s); err == nil {
			return t, true
		}
	}
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
