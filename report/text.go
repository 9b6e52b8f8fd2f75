package report

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/robowatch/robowatch/agents"
	"github.com/robowatch/robowatch/findings"
)

// section is one titled table of a report, in a form every text style can
// render: cells are already escaped for a terminal. The terminal table
// (table.go), Markdown (markdown.go) and the HTML page read it; keep, when,
// under, drop, minw and tones are for the terminal table (Markdown reads
// keep too: what is never cut there is never cut in Markdown either).
type section struct {
	name   string   // the --section name
	title  string   // the heading people read
	header []string // column names
	right  []bool   // right-align this column (numbers)
	flex   []bool   // free text (from the log, or long words of robowatch's): may be cut to fit the width
	keep   []bool   // what tells rows apart (an address, a robot name): never cut; wrapped only when longer than an address
	when   []bool   // a time in timeLayout, which a terminal table under 120 columns writes shorter
	under  []int    // n > 0: a terminal table writes this column under column n-1, in the same cell
	drop   []int    // on a narrow screen, columns are left out in this order (1 first); 0: never
	after  []int    // n > 0: left out, this column comes back (see fit) only when no column of drop rank n or more is out
	minw   []int    // the narrowest a flexible column is cut to; 0 or nil: minFlex
	plan   []int    // the width a column is planned at when fit chooses the columns a width shows; 0 or nil: see fit
	rows   [][]string
	tones  [][]tone // what each cell's colour says on a terminal; nil: nothing
	notes  []string // lines under the table: what was cut, what was not computed
}

// tone is what a cell's colour means. Colour only repeats what the text
// says (a count of violations, a rapid-fire peak), so nothing is lost
// without it.
type tone uint8

const (
	toneNone      tone = iota
	toneViolation      // the client or robot broke robots.txt
	toneIncident       // the client went rapid-fire
	toneImpostor       // a crawler's name the client's address does not back
)

// paint gives cell (row, col) a tone.
func (s *section) paint(row, col int, t tone) {
	if t == toneNone {
		return
	}
	for len(s.tones) <= row {
		s.tones = append(s.tones, nil)
	}
	if s.tones[row] == nil {
		s.tones[row] = make([]tone, len(s.header))
	}
	s.tones[row][col] = t
}

// style renders sections.
type style func(w io.Writer, s *section, opt Options) error

// timeLayout shows times in the log's own zone, to the second.
const timeLayout = "2006-01-02 15:04:05 -0700"

// shortTimeLayout is timeLayout on a terminal under 120 columns: the year
// and zone (both in the summary) give way to the columns that tell rows
// apart.
const shortTimeLayout = "Jan _2 15:04:05"

// timeLayout is the layout of times in the drill-down's rows, which write
// times inside sentences: the width they are written for is the one given.
// Lists write times in full and mark the column (section.when), so that
// the terminal table shortens them for the width it fits to and Markdown
// keeps them whole.
func (o Options) timeLayout() string {
	if o.Width > 0 && o.Width < 120 {
		return shortTimeLayout
	}
	return timeLayout
}

// writeText renders the report's sections for people, in the table or
// Markdown style. It shares the summary, robots, clients and malformed
// sections with the HTML page; the violations are grouped (one row per
// client and rule) and times are left whole for the style to shorten.
func writeText(w io.Writer, r *Report, opt Options, render style) error {
	for _, s := range buildSections(r, opt, true) {
		if !opt.wants(s.name) {
			continue
		}
		if err := render(w, s, opt); err != nil {
			return err
		}
	}
	return nil
}

// sections builds every section of the report in order, as the HTML page
// shows them.
func sections(r *Report, opt Options) []*section { return buildSections(r, opt, false) }

// buildSections builds every section in order: for the table and Markdown
// styles when text is true, else for the HTML page.
func buildSections(r *Report, opt Options, text bool) []*section {
	violations := violationsSection(r, opt)
	if text {
		violations = groupedViolationsSection(r, opt)
	}
	all := append([]*section{
		headlineSection(r, opt),
		summarySection(r),
		robotsSection(r, opt, text),
		conductSection(r, opt),
		referSection(r, opt),
		trafficSection(r),
		statusSection(r, opt),
		pathsSection(r, opt),
		clientsSection(r, opt, text),
		violations,
		incidentsSection(r, opt, text),
		malformedSection(r, text),
	}, clientSections(r, opt)...)
	// A section with nothing to say of this log is left out (nil).
	return slices.DeleteFunc(all, func(s *section) bool { return s == nil })
}

// noun is the noun for n of them: one or many. Counts are written in words
// a person would write: "1 client", "2 clients".
func noun(n int64, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// RangesHistory says when the published ranges' history begins: "from
// DAY", or "from DAY to DAY, by list" when their lists begin on different
// days.
func RangesHistory(res *findings.Result) string {
	from, to := "", ""
	for _, f := range res.Ranges {
		if f.Since != "" {
			from, to = min(cmp.Or(from, f.Since), f.Since), max(to, f.Since)
		}
	}
	if from != to {
		return "from " + from + " to " + to + ", by list"
	}
	return "from " + from
}

func summarySection(r *Report) *section {
	res := r.Result
	s := &section{name: "summary", title: "Summary", header: []string{"", ""}, flex: []bool{false, true}}
	add := func(k, v string) { s.rows = append(s.rows, []string{k, v}) }
	names := make([]string, len(r.Files))
	for i, f := range r.Files {
		names[i] = f
		if f == "-" {
			names[i] = "(standard input)"
		}
	}
	files := strings.Join(names, ", ")
	if r.Reordered {
		files += " (read oldest first)"
	}
	add("Input", Escape(files))
	format := r.Stats.Format
	if format == "" {
		format = "(none: no lines)"
	}
	add("Format", Escape(format))
	if r.Window != "" {
		add("Window", r.Window+" ("+Exact(r.Outside)+noun(r.Outside, " record", " records")+" outside it left out)")
	}
	if d := r.Stats.Directives; d > 0 {
		add("Lines", Exact(r.Stats.Lines)+" ("+Exact(d)+noun(d, " W3C directive", " W3C directives")+", such as #Fields)")
	} else {
		add("Lines", Exact(r.Stats.Lines))
	}
	add("Records", Exact(r.Stats.Records))
	add("Malformed", Exact(r.Stats.Malformed)+percent(r.Stats.Malformed, r.Stats.Lines))
	if first, last := r.span(); !first.IsZero() {
		add("Time span", first.Format(timeLayout)+" to "+last.Format(timeLayout)+" ("+Duration(last.Sub(first))+")")
	}
	if res.ClientsEstimated {
		add("Clients", "about "+Count(res.DistinctClients)+" (IP + User-agent; "+Exact(int64(res.Clients.Len()))+" tracked one by one)")
	} else {
		add("Clients", Exact(res.DistinctClients)+" (IP + User-agent)")
	}
	robots, robotNames := int64(res.RobotCount), int64(len(res.Robots))
	add("Robots", Exact(robots)+noun(robots, " client, ", " clients, ")+Exact(robotNames)+noun(robotNames, " name", " names"))
	if res.ViolationsChecked {
		add("Violations", Exact(res.ViolationCount)+" (robots.txt: "+Escape(strings.Join(r.Robots, ", "))+")")
		if res.ViolationCount > 0 {
			s.paint(len(s.rows)-1, 1, toneViolation)
		}
		if res.Unchecked > 0 {
			add("Not checked", Exact(res.Unchecked)+noun(res.Unchecked, " record", " records")+" of hosts with no robots.txt given (--robots HOST=FILE)")
		}
	} else if len(r.RobotsFailed) > 0 {
		add("Violations", "not checked: robots.txt "+Escape(strings.Join(r.RobotsFailed, "; ")))
	} else {
		add("Violations", "not checked (no --robots given)")
	}
	if res.ViolationsChecked && len(r.RobotsFailed) > 0 {
		add("Not checked", "robots.txt "+Escape(strings.Join(r.RobotsFailed, "; ")))
	}
	if pages, unreachable := servedTotals(res.Robots); pages > 0 || unreachable > 0 {
		servedRows(res.Robots, pages, unreachable, add)
	}
	if j := res.JunkConnections; j > 0 {
		a := int64(res.JunkAddresses)
		add("Junk", Exact(j)+noun(j, " connection", " connections")+" from "+Exact(a)+noun(a, " address", " addresses")+
			" sent no HTTP request (TLS handshakes, empty lines): not counted as robots")
	}
	add("Incidents", Exact(int64(res.IncidentCount))+" rapid-fire")
	if res.IncidentCount > 0 {
		s.paint(len(s.rows)-1, 1, toneIncident)
	}
	if res.RangesNewer && res.RangesEarliest > 0 {
		n := int64(res.RangesEarliest)
		add("Identity", Exact(n)+noun(n, " robot client", " robot clients")+" came before the published address ranges' history ("+
			RangesHistory(res)+"): judged by the earliest lists known, an address in none of them is unverified, not an impostor")
	}
	if res.FutureRecords > 0 {
		add("Future records", Exact(res.FutureRecords)+" dated after today (forged or corrupt?): counted, not in rates or the time span")
	}
	if res.LateRecords > 0 {
		add("Late records", Exact(res.LateRecords)+" too far out of time order for the rate windows")
	}
	if o := res.Other; o.Clients > 0 {
		add("Other", fmt.Sprintf("about %s of the lightest %s folded together (--max-clients): %s %s",
			Count(o.Clients), noun(o.Clients, "client", "clients"), Count(o.Requests), noun(o.Requests, "request", "requests")))
	}
	for _, e := range r.Errors {
		add("Error", Escape(e))
	}
	if r.Partial {
		add("Partial", "interrupted: the report covers only what was read")
	}
	return s
}

// robotsSection lists the robot names, with who runs each, what it is
// for, whether its claim is verified and how, and the bytes it was sent.
// For text (the table and Markdown) what a robot did with robots.txt is
// said in a few words under the column's heading, and the signals are
// never cut: a cut list of signals reads as another signal. On a screen
// too narrow for all, the signals go first, then the clients, bytes,
// purpose, prefixes, operator and robots.txt, then the identity and last
// the violations, as the clients list's do: kept, they made the table
// wider than the screen and cut the names into pieces. Operator, purpose
// and identity are left out when no robot listed claims an operator
// robowatch knows: three empty columns say nothing.
func robotsSection(r *Report, opt Options, text bool) *section {
	s := &section{
		name: "robots", title: "Robots (by name)",
		header: []string{"Robot", "Operator", "Purpose", "Identity", "Clients", "Requests", "Bytes", "Violations", "robots.txt", "Signals", "Disallowed prefixes"},
		right:  []bool{false, false, false, false, true, true, true, true, false, false, false},
		flex:   []bool{true, false, false, false, false, false, false, false, true, true, true},
		keep:   []bool{true, false, false, false, false, false, false, false, false, false, false},
		drop:   []int{0, 6, 4, 8, 2, 0, 3, 9, 7, 1, 5},
		after:  []int{0, 0, 6, 0, 0, 0, 6, 0, 0, 0, 0}, // purpose and bytes never in the operator's or identity's place
		// A name, "Common Crawl", "ai-training", "verified (ranges)",
		// "21.7 MB", "never fetched", "robots-txt, rate": wider values wrap.
		plan: []int{nameWidth, 12, 11, 17, 0, 0, 7, 0, 13, 22, 0},
	}
	if text {
		s.flex = []bool{false, false, false, false, false, false, false, false, false, false, true}
		s.keep = []bool{true, false, false, false, false, false, false, false, false, true, false}
	}
	robots := r.Result.Robots
	n := opt.top(len(robots))
	claims := false
	for _, b := range robots[:n] {
		fetched := "not fetched"
		if b.FetchedRobotsTxt {
			fetched = "fetched"
		}
		if b.Finding != "" {
			fetched = b.Finding
			if short, ok := shortFindings[b.Finding]; ok && text {
				fetched = short
			}
		}
		viol := Count(b.Violations)
		if !r.Result.ViolationsChecked {
			viol = "-"
		}
		var prefixes []string
		for _, p := range b.Prefixes {
			prefixes = append(prefixes, p.Prefix+" ("+Count(p.Count)+")")
		}
		claims = claims || b.Operator != "" || b.Purpose != "" || b.Identity != ""
		s.rows = append(s.rows, []string{Escape(b.Name), Escape(b.Operator), Escape(b.Purpose), identityCell(b.Identity, b.VerifiedBy),
			Count(int64(b.Clients)), Count(b.Requests), Bytes(b.Bytes), viol,
			fetched, signals(reasonList(b.Reasons), text), Escape(strings.Join(prefixes, ", "))})
		if b.Identity == findings.IdentityImpostor {
			s.paint(len(s.rows)-1, 0, toneImpostor)
			s.paint(len(s.rows)-1, 3, toneImpostor)
		}
		if b.Violations > 0 {
			s.paint(len(s.rows)-1, 7, toneViolation)
		}
	}
	// A column empty for the whole run says nothing and takes the place
	// of one that does: operator, purpose and identity when no robot
	// claims an operator robowatch knows, violations when none were
	// checked.
	if !claims || !r.Result.ViolationsChecked {
		s.keepColumns([]bool{true, claims, claims, claims, true, true, true, r.Result.ViolationsChecked, true, true, true})
	}
	s.notes = cutNote(n, len(robots), "robot name", "robot names")
	s.notes = append(s.notes, aiNotes(robots)...)
	if len(robots) == 0 {
		s.notes = append(s.notes, "No robots found.")
	}
	return s
}

// verifier is a way a claim is verified (Verdict.VerifiedBy) in a word,
// for the robots table, and in a sentence about the operator (%s), for a
// client's drill-down.
type verifier struct{ word, sentence string }

var verifiers = map[string]verifier{
	agents.VerifiedByRange: {"ranges", "the address is in %s's published ranges"},
	agents.VerifiedByDNS:   {"DNS", "the address's reverse DNS name is %s's and resolves back to it"},
	// Web Bot Auth: it proves who signed, not what was asked.
	"signature": {"signature", "the request is signed with a key of %s's"},
}

// verifiedWays says each way of verifiedBy (comma-separated) in a word,
// a way robowatch has no word for as the JSON has it; or, given the
// operator's name escaped, in a sentence, leaving out the ways it has no
// sentence for.
func verifiedWays(verifiedBy, operator string, long bool) []string {
	var out []string
	for way := range strings.SplitSeq(verifiedBy, ",") {
		v, ok := verifiers[way]
		switch {
		case way == "":
		case long && ok:
			out = append(out, fmt.Sprintf(v.sentence, operator))
		case long:
		case ok:
			out = append(out, v.word)
		default:
			out = append(out, Escape(way))
		}
	}
	return out
}

// identityCell is a robots row's identity for its column: "verified
// (ranges)", "impostor", "unverified"; "" for a robot that claims no
// operator robowatch knows.
func identityCell(identity, verifiedBy string) string {
	ways := verifiedWays(verifiedBy, "", false)
	if identity == findings.IdentityVerified && len(ways) > 0 {
		return "verified (" + strings.Join(ways, ", ") + ")"
	}
	return Escape(identity)
}

// keepColumns leaves out the columns whose keep is false, from every list
// of s. The columns stacked under others (section.under) must be stacked
// first: their numbers name columns.
func (s *section) keepColumns(keep []bool) {
	s.header, s.right, s.flex, s.keep, s.when, s.minw = kept(s.header, keep), kept(s.right, keep), kept(s.flex, keep), kept(s.keep, keep), kept(s.when, keep), kept(s.minw, keep)
	s.drop, s.after, s.plan = kept(s.drop, keep), kept(s.after, keep), kept(s.plan, keep)
	for r, row := range s.rows {
		s.rows[r] = kept(row, keep)
		if r < len(s.tones) {
			s.tones[r] = kept(s.tones[r], keep)
		}
	}
}

// findingWords is a robot's finding about robots.txt as a sentence says
// it: what the log shows, with its span, not "never", which a log of some
// minutes cannot know.
func findingWords(finding string, res *findings.Result) string {
	rest, ok := strings.CutPrefix(finding, findings.FindingNeverRead)
	if !ok {
		return finding
	}
	return "did not fetch robots.txt " + inThisLog(res) + rest
}

// inThisLog is "in this log (5m02s)": the span of res's records.
func inThisLog(res *findings.Result) string {
	if res.First.IsZero() || res.Last.IsZero() {
		return "in this log"
	}
	return "in this log (" + Duration(res.Last.Sub(res.First)) + ")"
}

// shortFindings says detect's findings in the words a column headed
// "robots.txt" needs.
var shortFindings = map[string]string{
	findings.FindingIgnored:   "fetched, then ignored",
	findings.FindingNeverRead: "not fetched", // in this log: it may have been, the day before
	findings.FindingReadLate:  "fetched after violating",
	findings.FindingObeyed:    "obeyed",
	findings.FindingUnread:    "unread, no violation",
	// Not "obeyed": nothing judged what it asked for then.
	findings.FindingUnreachable: "unreachable (5xx), crawled on",
}

// clientsSection lists the clients. On a narrow screen the columns that
// go first are those another section repeats or a drill-down explains
// (robots.txt fetches, score, peaks), then the signals, then the count of
// violations, then the User-agent, which a narrow column cuts to its
// useless "Mozilla/5.0 (…" start anyway, and last the yes/no of Robot,
// which the name says too. The address and the robot's name tell rows
// apart and always stay.
func clientsSection(r *Report, opt Options, text bool) *section {
	s := &section{
		name: "clients", title: "Clients (by requests)",
		header: []string{"Client", "Robot", "Name", "Score", "Requests", "Peak 1s/10s/60s", "robots.txt", "Violations", "Signals", "User-agent"},
		right:  []bool{false, false, false, true, true, true, true, true, false, false},
		flex:   []bool{true, false, true, false, false, false, false, false, true, true},
		keep:   []bool{true, false, true, false, false, false, false, false, false, false},
		drop:   []int{0, 7, 0, 2, 0, 3, 1, 5, 4, 6},
		// An IPv4 address, "server", a name, "robots-txt, rate"; the
		// User-agent at least "Mozilla/5.0 (compat…", which at 80 columns
		// is room beside an address, a name and a count.
		plan: []int{planAddress, 6, nameWidth, 0, 0, 0, 0, 0, 22, uaWidth},
		minw: []int{0, 0, 0, 0, 0, 0, 0, 0, 0, uaWidth},
	}
	if text {
		s.flex = []bool{false, false, false, false, false, false, false, false, false, true}
		s.keep = []bool{true, false, true, false, false, false, false, false, true, false}
	}
	clients := &r.Result.Clients
	n := opt.top(clients.Len())
	for _, c := range clients.Head(n) {
		robot := "no"
		switch {
		case c.Robot:
			robot = "yes"
		case c.Kind == findings.KindJunk || c.Kind == findings.KindServer:
			// Neither a robot nor a person: no HTTP request at all, or
			// the server's own connection.
			robot = c.Kind
		}
		viol := Count(c.Violations)
		if !r.Result.ViolationsChecked {
			viol = "-"
		}
		name := Escape(c.Name)
		if c.Identity == findings.IdentityImpostor {
			name += " (impostor)"
		}
		s.rows = append(s.rows, []string{Address(c.IP), robot, name, strconv.Itoa(c.Score), Count(c.Requests),
			Exact(int64(c.Peak.Per1s)) + "/" + Exact(int64(c.Peak.Per10s)) + "/" + Exact(int64(c.Peak.Per60s)), Count(c.RobotsTxtFetches), viol,
			signals(c.Reasons, text), uaCell(c.UserAgent)})
		if c.Identity == findings.IdentityImpostor {
			s.paint(len(s.rows)-1, 2, toneImpostor)
		}
		if c.Incidents > 0 {
			s.paint(len(s.rows)-1, 5, toneIncident)
		}
		if c.Violations > 0 {
			s.paint(len(s.rows)-1, 7, toneViolation)
		}
	}
	if !r.Result.ViolationsChecked {
		s.keepColumns([]bool{true, true, true, true, true, true, true, false, true, true})
	}
	s.notes = cutNote(n, clients.Len(), "client", "clients")
	switch {
	case clients.Len() > 0:
	case r.Result.Other.Clients > 0:
		s.notes = append(s.notes, "No client is listed: all were folded into other (see Summary).")
	case r.Outside > 0:
		s.notes = append(s.notes, "No clients: no records in the window.")
	default:
		s.notes = append(s.notes, "No clients: no records were read.")
	}
	return s
}

// violationsSection lists the stored violations one request a row, for
// the HTML page.
func violationsSection(r *Report, opt Options) *section {
	s := &section{
		name: "violations", title: "robots.txt violations",
		header: []string{"Time", "Client", "Robot", "Method", "Path", "Status", "Group", "Rule"},
		right:  []bool{false, false, false, false, false, true, false, false},
		flex:   []bool{false, true, true, false, true, false, true, true},
	}
	res := r.Result
	if !res.ViolationsChecked {
		s.notes = append(s.notes, notCheckedNote(r))
		return s
	}
	n := opt.top(res.Violations.Len())
	for _, v := range res.Violations.Head(n) {
		s.rows = append(s.rows, []string{v.Time.Format(opt.timeLayout()), Address(v.IP), Escape(v.Name), Escape(v.Method),
			Escape(v.Path), strconv.Itoa(v.Status), Escape(v.Group), fmt.Sprintf("line %d: %s", v.Line, Escape(v.Rule))})
	}
	s.notes = cutNote(n, res.Violations.Len(), "stored violation", "stored violations")
	return violationNotes(s, res)
}

const notChecked = "Not checked: give the site's robots.txt with --robots FILE|URL."

// notCheckedNote says why violations were not checked: no --robots, or
// none that could be fetched.
func notCheckedNote(r *Report) string {
	if len(r.RobotsFailed) > 0 {
		return "Not checked: robots.txt " + Escape(strings.Join(r.RobotsFailed, "; "))
	}
	return notChecked
}

// violationNotes adds what the violations list cannot show.
func violationNotes(s *section, res *findings.Result) *section {
	if d := res.ViolationsUnlisted; d > 0 {
		s.notes = append(s.notes, Exact(d)+noun(d, " more violation was", " more violations were")+" counted but not listed (a storage bound, or the client was folded into other).")
	}
	if res.ViolationCount == 0 {
		s.notes = append(s.notes, "No robot requested a disallowed path.")
	}
	return s
}

// ruleCell is the robots.txt rule a request broke, with its line (none for
// the rule RFC 9309 makes of an unreachable robots.txt).
func ruleCell(line int, rule string) string {
	if line <= 0 {
		return Escape(rule)
	}
	return fmt.Sprintf("line %d: %s", line, Escape(rule))
}

// violationGroup is the violations of one rule by one client: a robot that
// ignores robots.txt breaks the same rule again and again, and a row for
// each request would fill the screen with one robot.
type violationGroup struct {
	first        findings.Violation // the earliest
	last         time.Time
	count        int64
	paths        []string // the first distinct paths, at most maxGroupPaths
	statuses     []int    // the first distinct statuses, at most maxGroupStatuses
	morePaths    bool     // there were other paths
	moreStatuses bool     // there were other statuses
}

// A group names its first few paths and statuses, and says when there
// were more: enough to see what the robot was after, in bounded memory
// however many violations it made.
const (
	maxGroupPaths    = 3
	maxGroupStatuses = 4
)

// groupViolations groups the stored violations by client and rule, most
// violations first; equal counts keep the order of their first violation.
func groupViolations(list findings.ViolationList) []*violationGroup {
	type key struct {
		ip, ua, group, rule string
		line                int
	}
	index := make(map[key]*violationGroup)
	var groups []*violationGroup
	for v := range list.All() {
		k := key{v.IP, v.UserAgent, v.Group, v.Rule, v.Line}
		g := index[k]
		if g == nil {
			g = &violationGroup{first: v}
			index[k] = g
			groups = append(groups, g)
		}
		g.count++
		g.last = v.Time // All yields by time
		switch {
		case slices.Contains(g.paths, v.Path):
		case len(g.paths) < maxGroupPaths:
			g.paths = append(g.paths, v.Path)
		default:
			g.morePaths = true
		}
		switch {
		case slices.Contains(g.statuses, v.Status):
		case len(g.statuses) < maxGroupStatuses:
			g.statuses = append(g.statuses, v.Status)
		default:
			g.moreStatuses = true
		}
	}
	slices.SortStableFunc(groups, func(a, b *violationGroup) int { return cmp.Compare(b.count, a.count) })
	return groups
}

// groupedViolationsSection lists the stored violations one client and rule
// a row, with how many, when first and last, and which paths. A terminal
// table stacks the robot under the client, the last time under the first
// and the paths under the rule, which keeps the rule readable beside a
// full IPv6 address at 80 columns.
func groupedViolationsSection(r *Report, opt Options) *section {
	s := &section{
		name: "violations", title: "robots.txt violations",
		header: []string{"Client", "Robot", "Count", "First", "Last", "Rule", "Paths", "Status", "Group"},
		right:  []bool{false, false, true, false, false, false, false, false, false},
		flex:   []bool{false, false, false, false, false, true, true, false, true},
		keep:   []bool{true, true, false, false, false, false, false, false, false},
		when:   []bool{false, false, false, true, true, false, false, false, false},
		under:  []int{0, 1, 0, 0, 4, 0, 6, 0, 0},
		drop:   []int{0, 0, 0, 3, 0, 0, 0, 2, 1},
		minw:   []int{0, 0, 0, 0, 0, 32, 0, 0, 0},
		plan:   []int{planAddress, 0, 0, 0, 0, 0, 0, 0, 0},
	}
	res := r.Result
	if !res.ViolationsChecked {
		s.notes = append(s.notes, notCheckedNote(r))
		return s
	}
	groups := groupViolations(res.Violations)
	n := opt.top(len(groups))
	for _, g := range groups[:n] {
		paths := make([]string, len(g.paths))
		for i, p := range g.paths {
			paths[i] = Escape(p)
		}
		if g.morePaths {
			paths = append(paths, "…")
		}
		statuses := make([]string, len(g.statuses))
		for i, st := range g.statuses {
			statuses[i] = strconv.Itoa(st)
		}
		if g.moreStatuses {
			statuses = append(statuses, "…")
		}
		v := &g.first
		s.rows = append(s.rows, []string{Address(v.IP), Escape(v.Name), Count(g.count),
			v.Time.Format(timeLayout), g.last.Format(timeLayout), ruleCell(v.Line, v.Rule),
			strings.Join(paths, ", "), strings.Join(statuses, ", "), Escape(v.Group)})
		s.paint(len(s.rows)-1, 2, toneViolation)
	}
	// Rows are no longer violations: say what a row is when it matters,
	// and what --top counted.
	stored := int64(res.Violations.Len())
	grouped := Exact(stored) + noun(stored, " stored violation", " stored violations") + ", one row per client and rule."
	switch {
	case n < len(groups):
		s.notes = append(s.notes, fmt.Sprintf("%s of %s rows shown (--top): %s", Exact(int64(n)), Exact(int64(len(groups))), grouped))
	case int64(len(groups)) < stored:
		s.notes = append(s.notes, grouped)
	}
	return violationNotes(s, res)
}

// incidentsSection lists the rapid-fire incidents. Their start times are
// whole, for the style to shorten, when text is true; the HTML page has
// them as the drill-down does.
func incidentsSection(r *Report, opt Options, text bool) *section {
	s := &section{
		name: "incidents", title: "Rapid-fire incidents (worst first)",
		header: []string{"Start", "Length", "Client", "Verdict", "Requests", "Peak/s", "Paths", "2xx/3xx/4xx/5xx", "Bytes"},
		right:  []bool{false, true, false, false, true, true, true, true, true},
		flex:   []bool{false, false, true, true, false, false, false, false, false},
		keep:   []bool{false, false, true, true, false, false, false, false, false},
		when:   []bool{text, false, false, false, false, false, false, false, false},
		drop:   []int{0, 4, 0, 5, 0, 6, 3, 1, 2},
		plan:   []int{0, 0, planAddress, nameWidth, 0, 0, 0, 0, 7},
	}
	layout := opt.timeLayout()
	if text {
		layout = timeLayout
	}
	res := r.Result
	n := opt.top(len(res.Incidents))
	for _, in := range res.Incidents[:n] {
		paths := Count(int64(in.Paths))
		if in.PathsCapped {
			paths += "+"
		}
		st := in.Status
		s.rows = append(s.rows, []string{in.Start.Format(layout), Duration(time.Duration(in.Seconds) * time.Second),
			Address(in.IP), Escape(cmp.Or(in.Verdict, in.Name)), Count(in.Requests), Exact(int64(in.PeakPerSecond)), paths,
			Exact(st.S2xx) + "/" + Exact(st.S3xx) + "/" + Exact(st.S4xx) + "/" + Exact(st.S5xx), Bytes(in.Bytes)})
		s.paint(len(s.rows)-1, 5, toneIncident)
	}
	s.notes = cutNote(n, len(res.Incidents), "incident", "incidents")
	if d := int64(res.IncidentsUnlisted); d > 0 {
		s.notes = append(s.notes, Exact(d)+noun(d, " more incident was", " more incidents were")+" counted but not listed (a storage bound, or the client was folded into other).")
	}
	if res.IncidentCount == 0 {
		s.notes = append(s.notes, "No client went above the rate threshold.")
	}
	return s
}

// malformedSection shows the first malformed lines. A terminal table
// writes each line under the reason it was not read, both cut to the
// width: the reasons are long, and a column each left little of either.
func malformedSection(r *Report, text bool) *section {
	s := &section{
		name: "malformed", title: "Malformed lines",
		header: []string{"Where", "Reason", "Line"},
		flex:   []bool{false, true, true},
	}
	if text {
		s.keep = []bool{true, false, false}
		s.under = []int{0, 0, 2}
	}
	for _, e := range r.Stats.Samples {
		s.rows = append(s.rows, []string{Escape(e.File) + ":" + strconv.FormatInt(e.Line, 10), Escape(reason(e)), Escape(e.Text)})
	}
	if m, shown := r.Stats.Malformed, int64(len(s.rows)); m > shown {
		first := "the first " + Exact(shown) + " are shown."
		if shown == 1 {
			first = "the first is shown."
		}
		s.notes = append(s.notes, Exact(m)+" malformed lines in all; "+first)
	}
	if r.Stats.Malformed == 0 {
		s.notes = append(s.notes, "Every line parsed.")
	}
	return s
}

func uaCell(ua string) string {
	if ua == "" {
		return "(empty)"
	}
	return Escape(ua)
}

// reasonList is the reasons of m that any of a robot's clients gave, in
// the order verdicts give them.
func reasonList(m map[string]int) []string {
	var parts []string
	for _, k := range []string{"robots-txt", "rate", "user-agent", "behaviour"} {
		if m[k] > 0 {
			parts = append(parts, k)
		}
	}
	return parts
}

// signals is a Signals cell. The table and Markdown put a space after
// each comma, so that a narrow column wraps the list between signals:
// "user-agent,behavi" and "our" read as signals that do not exist.
func signals(reasons []string, text bool) string {
	if text {
		return strings.Join(reasons, ", ")
	}
	return strings.Join(reasons, ",")
}

func percent(n, of int64) string {
	if n == 0 || of == 0 {
		return ""
	}
	p := 100 * float64(n) / float64(of)
	if p < 10 {
		return fmt.Sprintf(" (%.2g%%)", p)
	}
	if n < of {
		p = min(p, 99) // 99.8% is not "100%": some lines did parse
	}
	return fmt.Sprintf(" (%.0f%%)", p)
}

// cutNote says how many of a list --top left out. All is at least two
// when it says anything, but the singular is there for the day it is not.
func cutNote(shown, all int, one, many string) []string {
	if shown < all {
		return []string{fmt.Sprintf("%s of %s %s shown (--top).", Exact(int64(shown)), Exact(int64(all)), noun(int64(all), one, many))}
	}
	return nil
}

// headlineSection is what an admin reads in ten seconds, each line
// pointing to the section that says more: how much of the traffic robots
// are, the worst incident, the worst robots.txt offender, the scanners.
func headlineSection(r *Report, opt Options) *section {
	s := &section{name: "headline", title: "Headline", header: []string{"", ""}, flex: []bool{false, true}}
	add := func(k, v string) { s.rows = append(s.rows, []string{k, v}) }
	res := r.Result
	// The shares are of the records in the --since/--until window: those
	// outside it were left out of every verdict.
	records := r.Stats.Records - r.Outside
	if r.Stats.Records == 0 {
		add("Robots", "no records were read")
		return s
	}
	if records <= 0 {
		add("Robots", "no records in the window ("+Exact(r.Outside)+noun(r.Outside, " record", " records")+" outside it left out)")
		return s
	}
	// Shares of everything read: the clients folded under --max-clients
	// sent bytes too. Their robots' requests and bytes are not known one
	// by one, so the shares are then lower bounds.
	bytes := findings.SaturatingAdd(res.ClientBytes, max(res.Other.Bytes, 0))
	robots := int64(res.RobotCount)
	if robots == 0 {
		add("Robots", "none: no client of the "+Exact(records)+noun(records, " request", " requests")+" was judged a robot")
	}
	line := fmt.Sprintf("%s of requests (%s of %s)", share(res.RobotRequests, records), Exact(res.RobotRequests), Exact(records))
	if res.Other.Requests > 0 {
		line = "at least " + line
	}
	if bytes > 0 {
		line += fmt.Sprintf(", %s of bytes (%s)", share(res.RobotBytes, bytes), Bytes(res.RobotBytes))
	}
	line += fmt.Sprintf(" from %s%s; see Robots", Exact(robots), noun(robots, " robot client", " robot clients"))
	if robots > 0 {
		add("Robots", line)
	}
	// A robot's: a person's busy minute is listed apart, after them.
	if len(res.Incidents) > 0 && !res.Incidents[0].Human() {
		in := res.Incidents[0]
		who := Address(in.IP)
		if !strings.HasPrefix(in.Name, "unnamed (") { // its network is in the address
			who += " (" + Escape(in.Name) + ")"
		}
		add("Worst incident", fmt.Sprintf("%s: %s in %s at up to %s/s from %s; see Rapid-fire incidents",
			who, Count(in.Requests)+noun(in.Requests, " request", " requests"),
			Duration(time.Duration(in.Seconds)*time.Second), Exact(int64(in.PeakPerSecond)), in.Start.Format(opt.timeLayout())))
		s.paint(len(s.rows)-1, 1, toneIncident)
	}
	if !res.ViolationsChecked && len(r.RobotsFailed) > 0 {
		add("robots.txt", "not checked: the robots.txt given could not be fetched; see Summary")
		s.paint(len(s.rows)-1, 1, toneViolation)
	}
	if res.ViolationsChecked {
		if worst := worstOffender(res); worst != nil {
			add("Worst offender", fmt.Sprintf("%s: %s of robots.txt; %s; see robots.txt violations",
				Escape(worst.Name), Count(worst.Violations)+noun(worst.Violations, " violation", " violations"), findingWords(worst.Finding, res)))
			s.paint(len(s.rows)-1, 1, toneViolation)
		} else {
			add("robots.txt", "no robot requested a disallowed path")
		}
	}
	var impostorNames []string
	for _, b := range res.Robots {
		if b.Identity == findings.IdentityImpostor {
			impostorNames = append(impostorNames, Escape(b.Name))
		}
	}
	if len(impostorNames) > 0 {
		add("Impostors", strings.Join(impostorNames, ", ")+": crawler names from addresses their operators do not publish; see Robots")
		s.paint(len(s.rows)-1, 1, toneImpostor)
	}
	scanners, first := int64(res.Scanners), res.FirstScanner
	if scanners > 0 {
		which := "the busiest: " // clients come by requests, and it is the first of them
		if scanners == 1 {
			which = ""
		}
		add("Scanners", fmt.Sprintf("%s probed for weaknesses (%s%s); see Clients, kind scanner",
			Exact(scanners)+noun(scanners, " client", " clients"), which, Address(first)))
	}
	return s
}

// share is n as a whole percentage of total, "<1%" for a sliver.
func share(n, total int64) string {
	if total <= 0 {
		return "0%"
	}
	p := n * 100 / total
	if p == 0 && n > 0 {
		return "<1%"
	}
	return fmt.Sprintf("%d%%", p)
}

// worstOffender is the robot name with the most robots.txt violations; nil
// when none has any.
func worstOffender(res *findings.Result) *findings.RobotSummary {
	var worst *findings.RobotSummary
	for i := range res.Robots {
		if b := &res.Robots[i]; b.Violations > 0 && (worst == nil || b.Violations > worst.Violations) {
			worst = b
		}
	}
	return worst
}
