package report

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/robowatch/robowatch/findings"
)

// sparkBlocks are the eight heights of a terminal sparkline.
var sparkBlocks = []rune("▁▂▃▄▅▆▇█")

// Sparkline draws counts per minute from first to last as at most width
// characters, each the sum of its minutes, scaled to the busiest; a blank
// is a stretch with no request. It returns the line and the minutes per
// character.
func Sparkline(minutes []findings.MinuteCount, width int) (string, int) {
	if len(minutes) == 0 || width <= 0 {
		return "", 0
	}
	first := minutes[0].Minute.Unix() / 60
	span := int(minutes[len(minutes)-1].Minute.Unix()/60-first) + 1
	per := (span + width - 1) / width
	cells := make([]int, (span+per-1)/per)
	for _, m := range minutes {
		cells[int(m.Minute.Unix()/60-first)/per] += m.Requests
	}
	peak := 0
	for _, n := range cells {
		peak = max(peak, n)
	}
	var b strings.Builder
	for _, n := range cells {
		if n == 0 {
			b.WriteByte(' ')
			continue
		}
		b.WriteRune(sparkBlocks[(n*len(sparkBlocks)-1)/peak])
	}
	return b.String(), per
}

// clientSections draws the drill-down of each client asked for with
// --client: the verdict and its evidence, requests per minute, peaks,
// incidents, robots.txt fetches and violations, and the first and last
// requests.
func clientSections(r *Report, opt Options) []*section {
	var out []*section
	res := r.Result
	sparkWidth := 60
	if opt.Width > 0 {
		sparkWidth = max(20, min(120, opt.Width-30))
	}
	for _, t := range res.Watched {
		v, _ := res.Clients.Find(t.IP, t.UserAgent)
		s := &section{name: "client", title: "Client " + Escape(t.IP), header: []string{"", ""}, flex: []bool{false, true}}
		add := func(k, v string) { s.rows = append(s.rows, []string{k, v}) }
		add("User-agent", uaCell(t.UserAgent))
		verdict := "not a robot"
		if v.Robot {
			verdict = "robot"
		}
		add("Verdict", fmt.Sprintf("%s: %s, score %d (%s)", verdict, Escape(v.Name), v.Score, strings.Join(v.Reasons, ",")))
		if v.Operator != "" {
			add("Operator", Escape(v.Operator))
		}
		if v.Purpose != "" {
			add("Purpose", Escape(v.Purpose))
		}
		if v.Identity != "" {
			add("Identity", identitySentence(v.Operator, v.Identity, v.VerifiedBy))
			if v.Identity == findings.IdentityImpostor {
				s.paint(len(s.rows)-1, 1, toneImpostor)
			}
		}
		for _, d := range v.Details {
			add("Evidence", Escape(d))
		}
		add("Requests", fmt.Sprintf("%s from %s to %s", Exact(v.Requests), v.First.Format(opt.timeLayout()), v.Last.Format(opt.timeLayout())))
		if line, per := Sparkline(t.Minutes, sparkWidth); line != "" {
			peak := findings.MinuteCount{}
			for _, m := range t.Minutes {
				if m.Requests > peak.Requests {
					peak = m
				}
			}
			add("Per minute", "|"+line+"|")
			add("", fmt.Sprintf("%s per mark; busiest minute %s: %s", Exact(int64(per))+noun(int64(per), " min", " min"), peak.Minute.Format(opt.timeLayout()),
				Exact(int64(peak.Requests))+noun(int64(peak.Requests), " request", " requests")))
		}
		add("Peaks", fmt.Sprintf("%s in 1 s (%s), %s in 10 s, %s in 60 s", Exact(int64(v.Peak.Per1s)), v.Peak.At1s.Format(opt.timeLayout()),
			Exact(int64(v.Peak.Per10s)), Exact(int64(v.Peak.Per60s))))
		for _, in := range res.Incidents {
			if in.IP == t.IP && in.UserAgent == t.UserAgent {
				add("Incident", fmt.Sprintf("%s for %s: %s, peak %s/s, %s", in.Start.Format(opt.timeLayout()),
					Duration(time.Duration(in.Seconds)*time.Second), Exact(in.Requests)+noun(in.Requests, " request", " requests"),
					Exact(int64(in.PeakPerSecond)), Exact(int64(in.Paths))+noun(int64(in.Paths), " path", " paths")))
			}
		}
		if len(t.RobotsTxt) == 0 {
			add("robots.txt", "not fetched "+inThisLog(res))
		}
		for _, f := range t.RobotsTxt {
			add("robots.txt", fmt.Sprintf("fetched %s, status %d", f.Time.Format(opt.timeLayout()), f.Status))
		}
		if res.ViolationsChecked {
			add("Violations", Exact(v.Violations))
			for _, x := range res.Violations.Of(t.IP, t.UserAgent, 5) {
				add("", fmt.Sprintf("%s %s %s: line %d: %s", x.Time.Format(opt.timeLayout()), Escape(x.Method), Escape(x.Path), x.Line, Escape(x.Rule)))
				if e := versionEvidence(&x, opt); e != "" {
					add("", "  "+e)
				}
			}
			if v.Cached > 0 {
				add("Cached", Exact(v.Cached)+noun(v.Cached, " request", " requests")+" the robots.txt in force disallows and a copy it could hold allowed: no violations")
			}
		}
		if v.PreferenceConflicts > 0 {
			line := Exact(v.PreferenceConflicts) + noun(v.PreferenceConflicts, " page", " pages") + " served that the site's content-use preferences decline to a robot of its purpose (" + Escape(v.Purpose) + ")"
			if v.PreferenceRule != "" {
				line += "; the first under " + Escape(v.PreferenceRule)
			}
			add("Preferences", line+": a preference, not a violation")
		}
		if d := v.Discovery; d != nil {
			add("Discovery", fmt.Sprintf("llms.txt %s, llms-full.txt %s, /.well-known/ files %s", Exact(d.LLMsTxt), Exact(d.LLMsFullTxt), Exact(d.WellKnown)))
		}
		out = append(out, s, requestSection("First requests of "+Escape(t.IP), t.First, 0, opt))
		if len(t.Last) > 0 {
			out = append(out, requestSection("Last requests of "+Escape(t.IP), t.Last, t.Skipped, opt))
		}
	}
	return out
}

// versionEvidence says which robots.txt version a violation was judged
// against and why, when the site had several (Violation.RobotsTxtCopy):
// the version, the robot's last fetch of robots.txt and what it got.
func versionEvidence(x *findings.Violation, opt Options) string {
	if x.RobotsTxtCopy == "" {
		return ""
	}
	ver := "the robots.txt in force from the start"
	if x.RobotsTxtFrom != "" {
		ver = "the robots.txt of " + Escape(x.RobotsTxtFrom)
	}
	var why string
	switch {
	case x.RobotsTxtFetched != nil:
		why = "its copy: fetched " + x.RobotsTxtFetched.Format(opt.timeLayout()) + " (at most 24 h before)"
		if strings.Contains(x.RobotsTxtCopy, "size") {
			why += ", the version told by the answer's size"
		}
	default:
		why = "no fetch in the 24 h before: every version in force then disallows it"
	}
	last := "; it never fetched robots.txt before"
	if x.LastFetch != nil {
		last = fmt.Sprintf("; its last fetch of robots.txt: %s, status %d", x.LastFetch.Format(opt.timeLayout()), x.LastFetchStatus)
	}
	return "judged by " + ver + ", " + why + last
}

// identitySentence says what a client's claim of its operator came to, and
// what verified it: "verified (ip-range): the address is in Google's
// published ranges". The word in parentheses is the JSON's verified_by.
func identitySentence(operator, identity, verifiedBy string) string {
	op := Escape(operator)
	switch identity {
	case findings.IdentityVerified:
		how := "verified"
		if verifiedBy != "" {
			how += " (" + Escape(verifiedBy) + ")"
		}
		if ways := verifiedWays(verifiedBy, op, true); len(ways) > 0 {
			return how + ": " + strings.Join(ways, "; ")
		}
		return how + " as " + op + "'s"
	case findings.IdentityImpostor:
		return "impostor: " + op + "'s published ranges or DNS rule the address out"
	case findings.IdentityUnverified:
		return "unverified: nothing robowatch holds proves or rules out that the address is " + op + "'s"
	}
	return Escape(identity)
}

func requestSection(title string, reqs []findings.Request, skipped int64, opt Options) *section {
	s := &section{
		name: "client", title: title,
		header: []string{"Time", "Method", "Path", "Status", "Bytes", "Referer"},
		right:  []bool{false, false, false, true, true, false},
		flex:   []bool{false, false, true, false, false, true},
		drop:   []int{0, 3, 0, 2, 1, 4},
		plan:   []int{len(opt.timeLayout()), 7, 0, 0, 7, 0}, // "OPTIONS", "21.7 MB"
	}
	for _, q := range reqs {
		ref := q.Referer
		if ref == "" {
			ref = "-"
		}
		s.rows = append(s.rows, []string{q.Time.Format(opt.timeLayout()), Escape(q.Method), Escape(q.Path),
			strconv.Itoa(q.Status), Bytes(q.Bytes), Escape(ref)})
	}
	if skipped > 0 {
		s.notes = append(s.notes, Exact(skipped)+" requests between the first and these are not shown.")
	}
	return s
}
