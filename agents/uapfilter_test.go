package agents

import (
	"regexp"
	"regexp/syntax"
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

// mixedCase is s with its letters' case alternating from upper.
func mixedCase(s string) string {
	b := []byte(s)
	up := true
	for i, c := range b {
		switch {
		case 'a' <= c && c <= 'z' && up, 'A' <= c && c <= 'Z' && !up:
			b[i] = c ^ 0x20
		}
		if 'a' <= b[i]|0x20 && b[i]|0x20 <= 'z' {
			up = !up
		}
	}
	return string(b)
}

// TestUAPFilterHoldsInEveryCase checks each expression's query on strings
// made from the expression itself (samplesOf) and from its query's
// literals, in upper, lower and mixed case, alone, amid other text and
// repeated, so that a literal's case, an alternation, a class, an anchor or
// a prefix the query asks for never turns away what the expression
// matches. The corpus reaches a few hundred expressions; these reach all
// but one.
func TestUAPFilterHoldsInEveryCase(t *testing.T) {
	lists := uapLists()
	if lists == nil {
		t.Fatal("uap-go's lists could not be read")
	}
	matched := 0 // expressions some probe matches: the probes reach them
	check := func(name, flags, expr string) {
		var f uapFilter
		f.add(flags, expr)
		full := expr
		if flags != "" {
			full = "(?" + flags + ")" + expr
		}
		re := regexp.MustCompile(full)
		var probes []string
		for _, m := range samplesOf(full) {
			for _, x := range []string{m, mixedCase(m), strings.ToUpper(m), strings.ToLower(m)} {
				probes = append(probes, x, "Mozilla/5.0 ("+x+"; +http://x.example/) ", x+" "+x)
			}
		}
		for i := range f.queries {
			lits := f.queries[i].literals(nil)
			for _, lit := range lits {
				probes = append(probes, lit, mixedCase(lit), "x "+strings.ToUpper(lit)+"/1.0")
			}
		}
		hit := false
		for _, s := range probes {
			if !re.MatchString(s) {
				continue
			}
			hit = true
			if !f.mayMatch(s) {
				t.Errorf("%s expression %q matches %q, which its query turns away", name, expr, s)
			}
		}
		if hit {
			matched++
		}
	}
	for _, p := range lists.UA {
		check("user-agent", p.Flags, p.Expr)
	}
	for _, p := range lists.Device {
		check("device", p.Flags, p.Expr)
	}
	t.Logf("%d of %d expressions matched by their probes", matched, len(lists.UA)+len(lists.Device))
}

// TestUAPEdgeStringsAsTheWholeParser checks the classifier's view of uap-go
// against uap-go's whole parser on strings a log may hold and the corpus
// has not: upper and mixed case, characters that fold to ASCII letters
// (the Kelvin sign, the long s), other non-ASCII, control bytes, invalid
// UTF-8, and strings longer than what uap-go is handed, cut there as the
// classifier cuts them (mid-character too).
func TestUAPEdgeStringsAsTheWholeParser(t *testing.T) {
	whole, err := uaparser.New(uaparser.WithCacheSize(8))
	if err != nil {
		t.Fatal(err)
	}
	pad := strings.Repeat("x", 2100)
	accents := strings.Repeat("é", maxParserInput/2)
	for _, s := range []string{
		"GOOGLEBOT/2.1 (+HTTP://WWW.GOOGLE.COM/BOT.HTML)",
		"mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)",
		mixedCase("Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots)"),
		"MOZILLA/5.0 (IPHONE; CPU IPHONE OS 17_0 LIKE MAC OS X) APPLEWEBKIT/605.1.15 (KHTML, LIKE GECKO) VERSION/17.0 MOBILE/15E148 SAFARI/604.1",
		"Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/122.0.0.0 Mobile Safari/537.36",
		"Mozilla/5.0 (compatible; \u212Aimibot/1.0)",     // Kelvin sign: (?i)k matches it
		"Mozilla/5.0 (compatible; Baidu\u017Fpider/2.0)", // long s: (?i)s matches it
		"\u212Aindle/3.0 (EInk)",
		"Ünïcødé-Crawler/1.0 (+https://example.org/bot)",
		"Mozilla/5.0 (Windows NT 10.0) Firefox/120.0 \u00e9\u00e8",
		"Bot-\u03a9/1.0 spider",
		"curl/8.4.0\x00\x01",
		"Mozilla/5.0 (compatible; Googlebot/2.1)\xff\xfe",
		"\xc3",
		pad + " Googlebot/2.1",
		"Googlebot/2.1 " + pad,
		accents + "Googlebot/2.1",
		"Mozilla/5.0 (compatible; MJ12bot/v1.4.8; http://mj12bot.com/)" + strings.Repeat(" pad", 600),
		strings.Repeat("A", maxParserInput-3) + "Spider",
	} {
		in := s[:min(len(s), maxParserInput)]
		for _, probe := range []string{s, in} {
			if got, want := (uap{}).family(probe), whole.ParseUserAgent(probe).Family; got != want {
				t.Errorf("family(%q) = %q, uap-go says %q", probe, got, want)
			}
			if got, want := (uap{}).spider(probe), whole.ParseDevice(probe).Family == "Spider"; got != want {
				t.Errorf("spider(%q) = %v, uap-go says %v", probe, got, want)
			}
		}
	}
}

// samplesOf returns strings the expression expr may match, a few for each
// alternative: each part as its shortest repetition, a class as its
// bounds. They are probes only: the test checks which ones match.
func samplesOf(expr string) []string {
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return nil
	}
	return samplesOfTree(re.Simplify())
}

func samplesOfTree(re *syntax.Regexp) []string {
	const most = 16
	switch re.Op {
	case syntax.OpLiteral:
		return []string{string(re.Rune)}
	case syntax.OpCharClass:
		var set []string
		for i := 0; i+1 < len(re.Rune) && len(set) < 4; i += 2 {
			set = append(set, string(re.Rune[i]))
			if re.Rune[i+1] != re.Rune[i] {
				set = append(set, string(re.Rune[i+1]))
			}
		}
		return set
	case syntax.OpAnyChar, syntax.OpAnyCharNotNL:
		return []string{"a", " "}
	case syntax.OpCapture:
		return samplesOfTree(re.Sub[0])
	case syntax.OpStar, syntax.OpQuest:
		return append([]string{""}, samplesOfTree(re.Sub[0])...)
	case syntax.OpPlus:
		return samplesOfTree(re.Sub[0])
	case syntax.OpRepeat:
		one := samplesOfTree(re.Sub[0])
		var out []string
		for _, s := range one {
			out = append(out, strings.Repeat(s, max(re.Min, 1)))
		}
		return out
	case syntax.OpConcat:
		out := []string{""}
		for _, sub := range re.Sub {
			part := samplesOfTree(sub)
			if len(part) == 0 {
				continue
			}
			var next []string
			for i, a := range out {
				for j, b := range part {
					if len(next) < most || j == 0 && i < most {
						next = append(next, a+b)
					}
				}
			}
			out = next
		}
		return out
	case syntax.OpAlternate:
		var out []string
		for _, sub := range re.Sub {
			out = append(out, samplesOfTree(sub)...)
		}
		return out
	}
	return []string{""} // zero-width: anchors, boundaries
}
