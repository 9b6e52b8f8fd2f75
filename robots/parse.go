package robots

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"
)

// Parse reads a robots.txt from rd (at most MaxKept bytes) and parses its
// first MaxSize bytes. The only error is a read error; content never makes
// Parse fail.
func Parse(rd io.Reader) (*Robots, error) {
	b, err := io.ReadAll(io.LimitReader(rd, MaxKept+1))
	if err != nil {
		return nil, fmt.Errorf("robots: reading robots.txt: %w", err)
	}
	return ParseBytes(b), nil
}

// ParseBytes parses a robots.txt body; only its first MaxSize bytes count as
// rules, and its first MaxKept bytes are kept (Text, Beyond).
func ParseBytes(b []byte) *Robots {
	r := &Robots{}
	cut := len(b) // the end of what is read as rules
	if len(b) > MaxSize {
		r.Truncated = true
		// A line cut in the middle could turn "Disallow: /admin/private" into
		// the far broader "Disallow: /ad", so the cut line is dropped whole.
		// A line whose end is the first byte past the limit is whole.
		cut = MaxSize
		if !endsLine(b[MaxSize-1]) && !endsLine(b[MaxSize]) {
			cut = lastLineEnd(b[:cut])
		}
	}
	keep := len(b)
	if len(b) > MaxKept {
		// Kept to its last whole line: a suggested robots.txt must not end
		// in half a rule.
		r.Cut = true
		keep = max(lastLineEnd(b[:MaxKept]), cut)
	}
	// One conversion: every Pattern and Text below is a substring of it.
	s := string(b[:keep])
	s, r.Beyond = s[:cut], s[cut:]
	r.Text = s
	r.HTML = looksLikeHTML(s)
	s = trimBOM(s)
	p := parser{r: r}
	for len(s) > 0 {
		var line string
		line, s = cutLine(s)
		p.lineNo++
		p.line(line)
	}
	r.Lines = p.lineNo
	return r
}

// cutLine splits s after its first line, which ends at "\n", "\r\n" or
// a lone "\r" (RFC 9309's EOL), as every reader of a file here splits it.
func cutLine(s string) (line, rest string) {
	i := 0
	for i < len(s) && s[i] != '\n' && s[i] != '\r' {
		i++
	}
	line = s[:i]
	if i < len(s) {
		if s[i] == '\r' && i+1 < len(s) && s[i+1] == '\n' {
			i++
		}
		i++
	}
	return line, s[i:]
}

func endsLine(c byte) bool { return c == '\n' || c == '\r' }

// lastLineEnd is the length of b up to the end of its last whole line.
func lastLineEnd(b []byte) int {
	n := len(b)
	for n > 0 && !endsLine(b[n-1]) {
		n--
	}
	return n
}

// trimBOM drops a UTF-8 byte order mark at the start, or the start of one, as
// Google's parser does: editors and gateways leave partial marks too.
func trimBOM(s string) string {
	const bom = "\xEF\xBB\xBF"
	for n := len(bom); n > 0; n-- {
		if strings.HasPrefix(s, bom[:n]) {
			return s[n:]
		}
	}
	return s
}

// looksLikeHTML reports whether the body is an HTML page: servers answer
// /robots.txt with their error page more often than with a 404.
func looksLikeHTML(s string) bool {
	s = trimBOM(s)
	s = strings.TrimLeft(s, " \t\r\n\f\v")
	if !strings.HasPrefix(s, "<") {
		return false
	}
	if len(s) > 1024 {
		s = s[:1024]
	}
	s = strings.ToLower(s)
	for _, tag := range []string{"<!doctype html", "<html", "<head", "<body", "<title", "<?xml", "<div", "<p>", "<h1"} {
		if strings.Contains(s, tag) {
			return true
		}
	}
	return false
}

// keyKind is what a line's key means.
type keyKind uint8

const (
	keyUnknown keyKind = iota
	keyUserAgent
	keyAllow
	keyDisallow
	keySitemap
	keyCrawlDelay
	keyNonStandard // a key some crawlers read but RFC 9309 and Google do not
	keyContentSignal
	keyContentUsage
)

// key is a recognised spelling of a key.
type key struct {
	kind  keyKind
	typo  bool   // a misspelling read as the key, as Google reads it
	canon string // how the key should be written
}

// keys maps lower-case spellings to their meaning. The misspellings are the
// ones Google's parser accepts.
var keys = map[string]key{
	"user-agent":  {keyUserAgent, false, "User-agent"},
	"useragent":   {keyUserAgent, true, "User-agent"},
	"user agent":  {keyUserAgent, true, "User-agent"},
	"allow":       {keyAllow, false, "Allow"},
	"disallow":    {keyDisallow, false, "Disallow"},
	"dissallow":   {keyDisallow, true, "Disallow"},
	"dissalow":    {keyDisallow, true, "Disallow"},
	"disalow":     {keyDisallow, true, "Disallow"},
	"diasllow":    {keyDisallow, true, "Disallow"},
	"disallaw":    {keyDisallow, true, "Disallow"},
	"sitemap":     {keySitemap, false, "Sitemap"},
	"site-map":    {keySitemap, true, "Sitemap"},
	"crawl-delay": {keyCrawlDelay, false, "Crawl-delay"},
	// Read by some crawlers; worth a notice, not an "unknown key" warning.
	"host":           {keyNonStandard, false, "Host"},
	"clean-param":    {keyNonStandard, false, "Clean-param"},
	"noindex":        {keyNonStandard, false, "Noindex"},
	"nofollow":       {keyNonStandard, false, "Nofollow"},
	"noarchive":      {keyNonStandard, false, "Noarchive"},
	"request-rate":   {keyNonStandard, false, "Request-rate"},
	"visit-time":     {keyNonStandard, false, "Visit-time"},
	"content-signal": {keyContentSignal, false, "Content-Signal"},
	"content-usage":  {keyContentUsage, false, "Content-Usage"},
}

// nonStandardNote says who reads a non-standard key.
var nonStandardNote = map[string]string{
	"host":         "Host is read only by Yandex (and obsolete there); RFC 9309 readers ignore it",
	"clean-param":  "Clean-param is read only by Yandex; RFC 9309 readers ignore it",
	"noindex":      "Noindex in robots.txt is not part of RFC 9309 and Google stopped reading it in 2019; use a robots meta tag or X-Robots-Tag header",
	"nofollow":     "Nofollow in robots.txt is not part of RFC 9309; use a robots meta tag or X-Robots-Tag header",
	"noarchive":    "Noarchive in robots.txt is not part of RFC 9309; use a robots meta tag or X-Robots-Tag header",
	"request-rate": "Request-rate is from an unadopted 1996 draft; almost no crawler reads it",
	"visit-time":   "Visit-time is from an unadopted 1996 draft; almost no crawler reads it",
}

// parser holds the state of one pass over the lines.
type parser struct {
	r      *Robots
	lineNo int

	cur     *Group // the open group; nil before the first User-agent line
	inRules bool   // cur has had an Allow or Disallow line: a User-agent line starts a new group

	// For the 1994-vs-RFC 9309 notes: a blank line after a group's User-agent
	// lines (before any rule), and a blank line after rules.
	blankAfterAgents int // line number of that blank line, 0 if none
	lastAgentLine    int
	blankAfterRules  int
	noted1994Rules   bool // the "rules after a blank line" note was given for cur

	// For the Crawl-delay note: a Crawl-delay among cur's User-agent lines,
	// before any rule, and User-agent lines after it (see userAgent).
	delayLine    int  // line of the first such Crawl-delay, 0 if none
	delayAgents  int  // how many of cur.Agents came before it
	afterDelay   bool // the last key line was that Crawl-delay
	joinLine     int  // the first User-agent line after it, 0 if none
	agentsJoined int  // cur.Agents before the latest User-agent lines that follow a Crawl-delay
	lastDelay    int  // line of the latest Crawl-delay among them
}

func (p *parser) problem(sev Severity, code, msg, suggestion string) {
	p.problemAt(p.lineNo, sev, code, msg, suggestion)
}

func (p *parser) problemAt(line int, sev Severity, code, msg, suggestion string) {
	p.r.problems = append(p.r.problems, Problem{Line: line, Severity: sev, Code: code, Message: msg, Suggestion: suggestion})
}

// isSpace reports ASCII white space other than line ends.
func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\v' || c == '\f' }

func trimSpace(s string) string {
	for len(s) > 0 && isSpace(s[0]) {
		s = s[1:]
	}
	for len(s) > 0 && isSpace(s[len(s)-1]) {
		s = s[:len(s)-1]
	}
	return s
}

// fields splits s at runs of white space (and, for names, commas).
func fields(s string, comma bool) []string {
	var out []string
	for len(s) > 0 {
		i := 0
		for i < len(s) && (isSpace(s[i]) || comma && s[i] == ',') {
			i++
		}
		s = s[i:]
		j := 0
		for j < len(s) && !isSpace(s[j]) && !(comma && s[j] == ',') {
			j++
		}
		if j > 0 {
			out = append(out, s[:j])
		}
		s = s[j:]
	}
	return out
}

func (p *parser) line(raw string) {
	text := raw
	if i := strings.IndexByte(text, '#'); i >= 0 {
		text = text[:i]
	}
	text = trimSpace(text)
	if text == "" {
		if trimSpace(raw) == "" {
			p.blank()
		}
		return
	}
	k, value, ok := p.splitKeyValue(text)
	if !ok {
		return
	}
	lk := strings.ToLower(k)
	kd, known := keys[lk]
	if !known {
		msg := fmt.Sprintf("unknown key %q: the line is ignored", k)
		sugg := ""
		if c := closestKey(lk); c != "" {
			sugg = fmt.Sprintf("did you mean %q?", c+":")
		}
		p.problem(Warning, "unknown-key", msg, sugg)
		return
	}
	if kd.typo {
		p.problem(Warning, "misspelled-key", fmt.Sprintf("%q is a misspelling of %s: robowatch and Google read it, other crawlers ignore the line", k, kd.canon),
			fmt.Sprintf("write %q", kd.canon+": "+value))
	}
	switch kd.kind {
	case keyUserAgent:
		p.userAgent(value)
	case keyAllow, keyDisallow:
		p.rule(kd.kind == keyAllow, kd.canon, value, text)
	case keySitemap:
		if value != "" {
			p.r.Sitemaps = append(p.r.Sitemaps, value)
		}
		if !hasPrefixFold(value, "http://") && !hasPrefixFold(value, "https://") {
			p.problem(Warning, "sitemap-url", fmt.Sprintf("Sitemap %q is not an absolute URL", value), "write the full URL, e.g. \"Sitemap: https://example.com/sitemap.xml\"")
		}
	case keyCrawlDelay:
		p.crawlDelay(value)
	case keyNonStandard:
		p.problem(Notice, "non-standard-key", nonStandardNote[lk], "")
	case keyContentSignal:
		// Outside RFC 9309, and unknown to Google's parser: like any line
		// it does not know, it neither ends a group's User-agent lines nor
		// starts a group.
		p.preference(true, kd.canon, value, text)
	case keyContentUsage:
		// A rule of its group (draft-ietf-aipref-attach updates RFC
		// 9309): a User-agent line after it starts a new group.
		p.preference(false, kd.canon, value, text)
		if p.cur != nil {
			p.inRules = true
		}
	}
}

// splitKeyValue splits "key: value". Like Google, it accepts a missing colon
// when the line is exactly two words ("Disallow /tmp/"), and skips the line
// otherwise: prose and HTML must not turn into rules.
func (p *parser) splitKeyValue(text string) (k, v string, ok bool) {
	if i := strings.IndexByte(text, ':'); i >= 0 {
		k = trimSpace(text[:i])
		if k == "" {
			p.problem(Warning, "garbage", "line has no key before its colon: ignored", "")
			return "", "", false
		}
		return k, trimSpace(text[i+1:]), true
	}
	j := 0
	for j < len(text) && !isSpace(text[j]) {
		j++
	}
	if j == len(text) {
		p.problem(Warning, "garbage", fmt.Sprintf("line %q is not \"key: value\": ignored", cut(text, 60)), "")
		return "", "", false
	}
	k, v = text[:j], trimSpace(text[j:])
	for i := 0; i < len(v); i++ {
		if isSpace(v[i]) {
			p.problem(Warning, "garbage", fmt.Sprintf("line %q has no colon and more than two words: ignored", cut(text, 60)), "")
			return "", "", false
		}
	}
	if _, known := keys[strings.ToLower(k)]; known {
		p.problem(Warning, "missing-colon", fmt.Sprintf("no colon after %q: robowatch and Google read it, other crawlers may not", k), fmt.Sprintf("write %q", k+": "+v))
	}
	return k, v, true
}

func (p *parser) blank() {
	if p.cur == nil {
		return
	}
	if !p.inRules {
		if p.blankAfterAgents == 0 {
			p.blankAfterAgents = p.lineNo
		}
	} else if p.blankAfterRules == 0 {
		p.blankAfterRules = p.lineNo
	}
}

func (p *parser) userAgent(value string) {
	if p.cur == nil || p.inRules {
		p.cur = &Group{Line: p.lineNo}
		p.r.Groups = append(p.r.Groups, p.cur)
		p.inRules = false
		p.blankAfterAgents, p.blankAfterRules, p.noted1994Rules = 0, 0, false
		p.delayLine, p.joinLine = 0, 0
	} else if p.delayLine != 0 {
		// A Crawl-delay came before this line: the Crawl-delay note given
		// with the group's first rule says it all, blank lines included.
		if p.joinLine == 0 {
			p.joinLine = p.lineNo
		}
		if p.afterDelay {
			p.agentsJoined = len(p.cur.Agents)
		}
		p.blankAfterAgents = 0
	} else if p.blankAfterAgents != 0 {
		names := strings.Join(p.cur.Agents, ", ")
		p.problemAt(p.lastAgentLine, Warning, "blank-line-1994",
			fmt.Sprintf("User-agent %s (line %d) has no rules before blank line %d: RFC 9309 readers such as Google give it the rules of the group that goes on at line %d; 1994-style readers give it a record of its own with nothing disallowed",
				names, p.cur.Line, p.blankAfterAgents, p.lineNo),
			fmt.Sprintf("if %s may fetch everything, add \"Disallow:\" after line %d; if it should obey the rules from line %d on, delete blank line %d", names, p.lastAgentLine, p.lineNo, p.blankAfterAgents))
		p.blankAfterAgents = 0
	}
	p.lastAgentLine = p.lineNo
	p.afterDelay = false
	names := fields(value, true)
	if len(names) == 0 {
		p.problem(Warning, "empty-user-agent", "empty User-agent value: it names no robot", "write a product token such as \"User-agent: Googlebot\" or \"User-agent: *\"")
		return
	}
	if len(names) > 1 {
		// "Yahoo Pipes 1.0": a version is not a robot's name.
		kept := names[:0:0]
		for _, n := range names {
			if tok := productToken(n); tok == "*" || strings.IndexFunc(tok, func(r rune) bool { return 'a' <= r && r <= 'z' }) >= 0 {
				kept = append(kept, n)
			}
		}
		if len(kept) > 0 {
			names = kept
		}
	}
	if len(names) > 1 {
		// RFC 9309 readers (Google's parser first) take the value's leading
		// product token and nothing else, and so does robowatch: read as
		// several names, "Sogou web spider" would hold every robot called
		// "web" or "spider" to Sogou's rules. The author may have meant a
		// list, as some 1994-style readers take it: lint says so.
		p.problem(Warning, "several-agents",
			fmt.Sprintf("several words on one User-agent line (%s): robowatch, like RFC 9309 readers such as Google, reads only the first (%q); some 1994-style readers read each word as a robot", strings.Join(names, ", "), productToken(names[0])),
			fmt.Sprintf("write \"User-agent: %s\", and one \"User-agent:\" line for each other robot meant", names[0][:len(productToken(names[0]))]))
		names = names[:1]
	}
	for _, n := range names {
		tok := productToken(n)
		switch {
		case tok == "":
			p.problem(Warning, "bad-user-agent", fmt.Sprintf("User-agent %q names no robot: a product token is made of letters, digits, '-' and '_'", n), "")
		case tok != "*" && len(tok) < len(n):
			if strings.HasSuffix(n, "*") && len(tok) == len(n)-1 {
				p.problem(Notice, "agent-wildcard", fmt.Sprintf("User-agent %q: '*' is no wildcard here; it is read as %q", n, n[:len(n)-1]), fmt.Sprintf("write \"User-agent: %s\"", n[:len(n)-1]))
			} else if len(names) == 1 && n[len(tok)] == '/' {
				// "Googlebot/2.1": the version goes, the name stays.
				p.problem(Notice, "agent-not-token", fmt.Sprintf("User-agent %q is read as the product token %q", n, n[:len(tok)]), fmt.Sprintf("write \"User-agent: %s\"", n[:len(tok)]))
			} else if len(names) == 1 {
				// "Mail.RU_Bot" is read as "Mail": writing that would only
				// make the group's reach explicit, and wider than meant.
				p.problem(Notice, "agent-not-token", fmt.Sprintf("User-agent %q is read as the product token %q, which also names every other robot called %q: RFC 9309 tokens hold only letters, '-' and '_'", n, n[:len(tok)], n[:len(tok)]),
					"check the robot's documentation for the token it obeys")
			}
		}
		p.cur.Agents = append(p.cur.Agents, n)
	}
}

func (p *parser) rule(allow bool, keyName, value, text string) {
	if p.cur == nil {
		p.problem(Warning, "rule-outside-group", fmt.Sprintf("%s line before any User-agent line: every crawler ignores it", keyName), "put a \"User-agent: *\" line (or the robot's name) before it")
		return
	}
	if p.blankAfterRules != 0 && !p.noted1994Rules {
		p.problem(Notice, "rules-after-blank-1994",
			fmt.Sprintf("rules after blank line %d still belong to the group of line %d under RFC 9309; 1994-style readers end the record at the blank line and drop them", p.blankAfterRules, p.cur.Line),
			fmt.Sprintf("delete blank line %d", p.blankAfterRules))
		p.noted1994Rules = true
	}
	if p.joinLine != 0 && !p.inRules {
		p.noteDelayJoin(keyName, value)
	}
	p.blankAfterAgents = 0
	p.afterDelay = false
	p.inRules = true
	pats := fields(value, false)
	if len(pats) == 0 {
		p.cur.Rules = append(p.cur.Rules, &Rule{Allow: allow, Line: p.lineNo, Text: text})
		return
	}
	if len(pats) > 1 && !allPaths(pats) {
		// "Disallow: /Service References/" is one path with a space in
		// it, not the paths "/Service" and "References/": split, the first
		// would be a far broader rule than written and the second would
		// never match. Kept whole, the space is matched as %20, the way a
		// request for that path holds it (RFC 9309 §2.2.2).
		enc := encodeSpaces(value)
		p.problem(Warning, "path-space",
			fmt.Sprintf("path %q holds a space: robowatch reads it as one path and matches it as %q, as RFC 9309 asks; Google's parser compares the space as written, and no request holds one, so for Googlebot the rule matches nothing", value, enc),
			fmt.Sprintf("write %q", keyName+": "+enc))
		pats = pats[:1]
		pats[0] = value
	}
	if len(pats) > 1 {
		p.problem(Warning, "several-paths",
			fmt.Sprintf("several paths on one line: robowatch reads %d rules as the 1994 standard does, but RFC 9309 readers such as Google read one pattern %q with spaces in it, which matches nothing", len(pats), value),
			fmt.Sprintf("write one %q line per path", keyName+":"))
	}
	for _, pat := range pats {
		p.cur.Rules = append(p.cur.Rules, &Rule{Allow: allow, Pattern: pat, Line: p.lineNo, Text: text})
	}
}

// allPaths reports whether every word of a rule's value starts a path
// ('/' or '*'): a 1994-style list of paths rather than one path with spaces.
func allPaths(words []string) bool {
	for _, w := range words {
		if w[0] != '/' && w[0] != '*' {
			return false
		}
	}
	return true
}

// encodeSpaces percent-encodes the spaces and tabs of a path.
func encodeSpaces(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case ' ':
			b.WriteString("%20")
		case '\t':
			b.WriteString("%09")
		default:
			b.WriteByte(s[i])
		}
	}
	return b.String()
}

func (p *parser) crawlDelay(value string) {
	if p.cur == nil {
		p.problem(Warning, "rule-outside-group", "Crawl-delay line before any User-agent line: every crawler ignores it", "put it inside the group of the robot it is meant for")
		return
	}
	if !p.inRules && p.delayLine == 0 {
		p.delayLine, p.delayAgents = p.lineNo, len(p.cur.Agents)
	}
	p.afterDelay = !p.inRules
	if !p.inRules {
		p.lastDelay = p.lineNo
	}
	secs, err := strconv.ParseFloat(value, 64)
	if err != nil || math.IsNaN(secs) || secs < 0 || secs > 1e9 {
		p.problem(Warning, "bad-crawl-delay", fmt.Sprintf("Crawl-delay %q is not a number of seconds: ignored", value), "write e.g. \"Crawl-delay: 10\"")
		return
	}
	if p.cur.HasCrawlDelay && p.joinLine != 0 && !p.inRules {
		// Another robot's Crawl-delay, in the group only because Google's
		// reading runs on (see noteDelayJoin): no duplicate for the
		// readers of Crawl-delay, who see two groups. The shorter counts,
		// so that no robot is blamed under a delay meant for another.
		if d := time.Duration(secs * float64(time.Second)); d < p.cur.CrawlDelay {
			p.cur.CrawlDelay = d
		}
		return
	}
	if p.cur.HasCrawlDelay {
		p.problem(Warning, "duplicate-crawl-delay", fmt.Sprintf("second Crawl-delay in the group of line %d: the first (%v) counts", p.cur.Line, p.cur.CrawlDelay), "keep one Crawl-delay line per group")
		return
	}
	p.cur.CrawlDelay = time.Duration(secs * float64(time.Second))
	p.cur.HasCrawlDelay = true
}

// noteDelayJoin warns, at a group's first rule, that the group's User-agent
// lines run on past a Crawl-delay. Google's parser ignores Crawl-delay and
// ends a group only at a rule, so "User-agent: a / Crawl-delay: 5 /
// User-agent: b / Disallow: /" gives a "Disallow: /", as robowatch reads it
// too; parsers that read Crawl-delay (crawler-commons, Python's
// robotparser) end a's group at its Crawl-delay. Nothing in the file says
// which reading a robot follows, and Google's blocks robots the author
// meant only to slow down.
func (p *parser) noteDelayJoin(keyName, value string) {
	before := p.cur.Agents[:p.delayAgents]
	owners := p.cur.Agents[p.agentsJoined:]
	rule := keyName + ":"
	if value != "" {
		rule += " " + value
	}
	where := fmt.Sprintf("after line %d", p.delayLine)
	if p.lastDelay != p.delayLine {
		where = fmt.Sprintf("after each Crawl-delay of lines %d to %d", p.delayLine, p.lastDelay)
	}
	p.problemAt(p.delayLine, Warning, "crawl-delay-joins",
		fmt.Sprintf("User-agent %s (line %d) has this Crawl-delay but no rule before User-agent line %d: RFC 9309 readers such as Google ignore Crawl-delay and read one group on to line %d, so %s get the rules meant for %s (%q first); parsers that read Crawl-delay, such as crawler-commons (Common Crawl's CCBot) and Python's robotparser, end the group here, with nothing disallowed",
			listNames(before), p.cur.Line, p.joinLine, p.lineNo, listNames(p.cur.Agents[:p.agentsJoined]), listNames(owners), rule),
		fmt.Sprintf("if %s may fetch everything, add \"Disallow:\" %s; if it should obey the rules from line %d on, move the Crawl-delay after them", listNames(before), where, p.lineNo))
	p.joinLine = 0
}

// listNames joins User-agent names for a message, at most five of them.
func listNames(names []string) string {
	if len(names) <= 5 {
		return strings.Join(names, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(names[:5], ", "), len(names)-5)
}

func hasPrefixFold(s, prefix string) bool {
	return len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix)
}

// cut shortens s for quoting in a message.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}

// closestKey returns the standard key within two edits of k, or "".
func closestKey(k string) string {
	if len(k) < 4 || len(k) > 30 {
		return ""
	}
	best, bestD := "", 3
	for _, c := range []string{"User-agent", "Allow", "Disallow", "Sitemap", "Crawl-delay"} {
		if d := editDistance(k, strings.ToLower(c)); d < bestD {
			best, bestD = c, d
		}
	}
	return best
}

// editDistance is the Levenshtein distance between two short strings.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
