package agents

import (
	"regexp"
	"strings"
	"testing"

	"github.com/ua-parser/uap-go/uaparser"
)

// filterProbes are the strings the filter is checked on: the labelled
// corpus, each also upper-cased and cut where uap-go's input is cut.
func filterProbes(t *testing.T) []string {
	bots, browsers := loadLabelledAgents(t)
	probes := []string{"", "-", "Mozilla/5.0", `'"><script>alert(1)</script>`, "curl/8.4.0",
		"python-requests/2.31", "HTC_Sensation", "nokia6230", "Weather/1.2 CFNetwork/1410.0.3 Darwin/22.6.0"}
	every := 1
	switch {
	case raceEnabled:
		every = 32
	case testing.Short():
		every = 4
	}
	for i, ua := range append(bots, browsers...) {
		if i%every != 0 {
			continue
		}
		probes = append(probes, ua, strings.ToUpper(ua))
		if len(ua) > maxParserInput {
			probes = append(probes, ua[:maxParserInput])
		}
	}
	return probes
}

// literalProbes are strings made of a query's own literals, which its
// expression is likely to match: each alone, and upper-cased amid text.
func literalProbes(q *literalQuery) []string {
	var probes []string
	for i, lit := range q.literals(nil) {
		probes = append(probes, lit)
		if i%2 == 0 {
			probes = append(probes, "x "+strings.ToUpper(lit)+"/2.0")
		}
	}
	return probes
}

// literals appends the literals a query names.
func (q *literalQuery) literals(to []string) []string {
	if q.lit != "" {
		to = append(to, strings.Split(q.lit, "\x00")...)
	}
	for i := range q.sub {
		to = q.sub[i].literals(to)
	}
	return to
}

// TestUAPFilterHoldsForEveryMatch checks that every expression's query holds
// on every probe the expression matches: the filter never turns away a
// string uap-go would place.
func TestUAPFilterHoldsForEveryMatch(t *testing.T) {
	lists := uapLists()
	if lists == nil || uapFilters() == nil {
		t.Fatal("uap-go's lists could not be read")
	}
	probes := filterProbes(t)
	check := func(name string, flags, expr string) {
		var f uapFilter
		f.add(flags, expr)
		full := expr
		if flags != "" {
			full = "(?" + flags + ")" + expr
		}
		re := regexp.MustCompile(full)
		var own []string
		if len(f.queries) == 1 {
			own = literalProbes(&f.queries[0])
		}
		for _, s := range append(own, probes...) {
			if re.MatchString(s) && !f.mayMatch(s) {
				t.Errorf("%s expression %q matches %q, which its query turns away", name, expr, s)
			}
		}
	}
	for _, p := range lists.UA {
		check("user-agent", p.Flags, p.Expr)
	}
	for _, p := range lists.Device {
		check("device", p.Flags, p.Expr)
	}
}

// TestUAPAnswersAsTheWholeParser checks the classifier's view of uap-go
// (two lists, each behind its filter) against uap-go's own parser.
func TestUAPAnswersAsTheWholeParser(t *testing.T) {
	whole, err := uaparser.New(uaparser.WithCacheSize(8))
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range filterProbes(t) {
		if got, want := (uap{}).family(s), whole.ParseUserAgent(s).Family; got != want {
			t.Errorf("family(%q) = %q, uap-go says %q", s, got, want)
		}
		if got, want := (uap{}).spider(s), whole.ParseDevice(s).Family == "Spider"; got != want {
			t.Errorf("spider(%q) = %v, uap-go says %v", s, got, want)
		}
	}
}

// TestUAPFilterTurnsAwayJunk checks that the strings a generated log sends
// to uap-go (a bare Mozilla/5.0, an attack string) compile none of its
// lists: their 12 MB were most of such a run's memory.
func TestUAPFilterTurnsAwayJunk(t *testing.T) {
	for _, s := range []string{"Mozilla/5.0", `'"><script>alert(1)</script>`, "-", "zzqx1"} {
		for i, list := range uapFilters() {
			if list.mayMatch(s) {
				t.Errorf("list %d may match %q: uap-go would be compiled for it", i, s)
			}
		}
	}
	if f := uapFilters(); f == nil || f[0].always || f[1].always {
		t.Error("an expression without a query lets every string through")
	}
}
