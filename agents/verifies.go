package agents

import "strings"

// A published list or a reverse DNS domain proves that an address is the
// operator's, and only some of the operator's addresses are its own
// machines: Google's user-triggered-fetchers list and googleusercontent.com
// hold Google Cloud customers' machines, which anyone can rent and name
// Googlebot. verifiers says, for each list robowatch reads by file name and
// each domain --verify-dns accepts, whose claims it may verify; a claim it
// does not name gets nothing from it.
type verifier struct {
	source   string   // a range file's name, or a reverse DNS domain with its leading dot
	operator string   // whose list or domain it is
	robots   []string // the robots it may verify (lower-case name prefixes); nil: every robot of operator

	// partial: the operator publishes other lists for these robots that
	// robowatch does not hold, so an address outside the held ones proves
	// nothing of them.
	partial bool
}

// googleUserFetchers are the fetchers Google names on its "List of Google
// user-triggered fetchers" (Chrome Web Store, Feedfetcher, Gemini Notebook,
// Google Messages, Publisher Center, Read Aloud, Site Verifier, NotebookLM,
// Pinpoint, Google-Agent): a person asked for the fetch.
var googleUserFetchers = []string{
	"google-cws", "feedfetcher-google", "google-gemininotebook", "googlemessages",
	"googleproducer", "google-read-aloud", "google-site-verification",
	"google-notebooklm", "google-pinpoint", "google-agent",
}

// verifiers is the one table of what proves whom. Range files come from
// agents/ranges/NOTICE.md; a collection's services (ipverse-crawlers.json)
// name their robots in the file itself (user_agent_patterns). DNS domains
// come from each operator's documentation ("Verify requests from Google's
// crawlers and fetchers", "Verify Bingbot", "About Applebot", Yandex's,
// Baidu's, Amazon's and Petal's help pages).
var verifiers = []verifier{
	// Google's common and special-case crawlers run on Google's own
	// machines: any Google robot from them is Google's.
	{source: "googlebot.json", operator: "Google"},
	{source: "googlesc.json", operator: "Google"},
	{source: "special-crawlers.json", operator: "Google"},
	// Google Cloud customers' machines, fetching on their users' request
	// (a GCP site reading a feed): Google's user-triggered fetchers, which
	// also come from two lists robowatch does not hold
	// (user-triggered-fetchers-google.json, user-triggered-agents.json).
	{source: "googleutf.json", operator: "Google", robots: googleUserFetchers, partial: true},
	{source: "user-triggered-fetchers.json", operator: "Google", robots: googleUserFetchers, partial: true},

	{source: ".googlebot.com", operator: "Google"}, // crawl-….googlebot.com: the common crawlers
	{source: ".google.com", operator: "Google"},    // rate-limited-proxy-… and google-proxy-….google.com
	{source: ".googleusercontent.com", operator: "Google", robots: googleUserFetchers},
	{source: ".search.msn.com", operator: "Microsoft"},
	{source: ".applebot.apple.com", operator: "Apple", robots: []string{"applebot"}},
	{source: ".yandex.ru", operator: "Yandex"},
	{source: ".yandex.net", operator: "Yandex"},
	{source: ".yandex.com", operator: "Yandex"},
	{source: ".baidu.com", operator: "Baidu"},
	{source: ".baidu.jp", operator: "Baidu"},
	{source: ".crawl.yahoo.net", operator: "Yahoo"},
	{source: ".crawl.amazonbot.amazon", operator: "Amazon", robots: []string{"amazonbot"}},
	{source: ".petalsearch.com", operator: "Huawei"},
}

// names reports whether v may verify the robot called name.
func (v *verifier) names(name string) bool {
	if Operator(name) != v.operator {
		return false
	}
	if v.robots == nil {
		return true
	}
	lower := strings.ToLower(name)
	for _, r := range v.robots {
		if strings.HasPrefix(lower, r) {
			return true
		}
	}
	return false
}

// verifierOf returns the table's entry for a range file name or a DNS
// domain.
func verifierOf(source string) *verifier {
	for i := range verifiers {
		if verifiers[i].source == source {
			return &verifiers[i]
		}
	}
	return nil
}

// Verifies reports whether the range file or reverse DNS domain (".google.com")
// called source may verify a claim of the robot called name.
func Verifies(source, name string) bool {
	v := verifierOf(source)
	return v != nil && v.names(name)
}

// rangeOperators says whose addresses a range file holds, by its name.
var rangeOperators = func() map[string]string {
	m := map[string]string{}
	for _, v := range verifiers {
		if !strings.HasPrefix(v.source, ".") {
			m[v.source] = v.operator
		}
	}
	return m
}()

// dnsSuffixes are, by operator, the domains --verify-dns accepts.
var dnsSuffixes = func() map[string][]string {
	m := map[string][]string{}
	for _, v := range verifiers {
		if strings.HasPrefix(v.source, ".") {
			m[v.operator] = append(m[v.operator], v.source)
		}
	}
	return m
}()

// HasDNS reports whether an operator documents DNS names for the robot
// of that name.
func HasDNS(operator, name string) bool {
	for _, s := range dnsSuffixes[operator] {
		if Verifies(s, name) {
			return true
		}
	}
	return false
}

// For returns what r says of a claim of the robot called name: a
// confirmed reverse name under a domain that may not verify that robot
// (a Google Cloud customer's googleusercontent.com name for Googlebot)
// is outside its domains, as any hosting name is: an impostor.
func (r DNSResult) For(name string) DNSResult {
	if r.Identity != IdentityVerified {
		return r
	}
	for _, s := range dnsSuffixes[Operator(name)] {
		if strings.HasSuffix(r.Name, s) && Verifies(s, name) {
			return r
		}
	}
	return DNSResult{Identity: IdentityImpostor, Name: r.Name}
}

// limit restricts spans of a list to the robots v, its entry in the
// table, may verify; a list the table does not limit verifies them all.
func limit(spans []span, v *verifier) {
	if v == nil || v.robots == nil {
		return
	}
	for i := range spans {
		spans[i].robots = v.robots
	}
}

// partial reports whether the operator publishes lists for the robot
// called name that robowatch does not hold (verifier.partial), whether or
// not it holds the others.
func partial(operator, name string) bool {
	for i := range verifiers {
		if v := &verifiers[i]; v.partial && v.operator == operator && v.names(name) {
			return true
		}
	}
	return false
}
