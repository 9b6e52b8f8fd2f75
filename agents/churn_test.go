package agents

import (
	"bufio"
	"compress/gzip"
	"os"
	"strings"
	"testing"
)

// churnAgents is 5,000 distinct User-agents drawn (seed 35) from the
// 200,072 of the high-churn bench log (bench/, churn-300000-seed1): the
// browsers of a log where nearly every client is new.
const churnAgents = "testdata/churn-agents.txt.gz"

func loadChurnAgents(t testing.TB) []string {
	t.Helper()
	f, err := os.Open(churnAgents)
	if err != nil {
		t.Fatalf("opening the churn sample: %v", err)
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		t.Fatalf("reading %s: %v", churnAgents, err)
	}
	var out []string
	sc := bufio.NewScanner(z)
	for sc.Scan() {
		out = append(out, sc.Text())
	}
	if err := sc.Err(); err != nil {
		t.Fatalf("reading %s: %v", churnAgents, err)
	}
	return out
}

// BenchmarkClassifyChurn is the cost per new User-agent on the high-churn
// log's browsers, as the detector asks (ClassifyUncached): the pass's
// largest cost per new client.
func BenchmarkClassifyChurn(b *testing.B) {
	uas := loadChurnAgents(b)
	b.ReportAllocs()
	var c Classifier
	for b.Loop() {
		for _, ua := range uas {
			c.ClassifyUncached(ua)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(uas)), "ns/UA")
}

// pairFilterProbes are User-agents for the tests that hold the filtered
// classifier to the rules as they read: the labelled corpus, the churn
// sample, and every word of every table the rules search for, alone, in a
// product token, inside a browser's string, at its end and upper-cased,
// so that each sits where a filter could drop it.
func pairFilterProbes(t testing.TB) []string {
	bots, browsers := loadLabelledAgents(t)
	uas := append(append(append([]string{}, bots...), browsers...), loadChurnAgents(t)...)
	var words []string
	for _, tok := range agentTokens {
		words = append(words, tok.token)
	}
	for _, w := range agentRoleWords {
		words = append(words, w.word)
	}
	for name := range catalogue() {
		words = append(words, name)
	}
	for _, f := range browserFamilies {
		words = append(words, f.token)
	}
	for _, c := range clientTokens {
		words = append(words, c.token)
	}
	words = append(words, misspellings[:]...)
	words = append(words, platforms[:]...)
	words = append(words, "${jndi:", "${${", "${::-", "${lower:", "${upper:", "() {", "http://", "https://", "+http",
		"mailto:", "+example.com", "www.example", "a@example.com", "trident/7.0", "msie 12.0", "msie 9.0", "version/17.0",
		"windows nt 11.0", "windows nt 5.1", "mac os x 10_9", "rv:47.0", "gecko/20100101 firefox/140.0", "like gecko) chrome/130.0 safari/1",
		" facebookexternalhit/1.1 facebot twitterbot/1.0", "compatible; ", "applewebkit/", "khtml", "presto/", "mobile/")
	const chrome = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36"
	const iphone = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148"
	for _, w := range words {
		uas = append(uas, w, w+"2.1", "x "+w+"/1.0", "Mozilla/5.0 (compatible; "+w+"/2.1)", chrome+" "+w, chrome+" "+w+"9",
			w+"/3 "+chrome, iphone+" "+w+"/1", strings.ToUpper(w)+"/1.0 "+iphone, "Opera/9.80 ("+w+") Presto/2.12")
	}
	n := len(uas)
	for _, ua := range uas[:n] {
		// Cut short, so that words sit at the very end of the string.
		for cut := 1; cut < len(ua); cut += 17 {
			uas = append(uas, ua[:cut])
		}
	}
	return uas
}

// TestFiltersSkipNothing holds the classifier to the rules as they read:
// every probe classified with the pair filters and without them
// (Classifier.unfiltered, where every literal is searched for and every
// byte tried as a word start) gets the same answer, past uap-go's budget
// (the stand-in's rules) and, for every fourth probe, within it.
func TestFiltersSkipNothing(t *testing.T) {
	uas := pairFilterProbes(t)
	if testing.Short() {
		uas = uas[:len(uas)/4]
	}
	spent := func(unfiltered bool) Classifier {
		return Classifier{parserBytes: MaxParserBytes, reserveBytes: MaxReserveBytes, unfiltered: unfiltered}
	}
	fastSpent, slowSpent := spent(false), spent(true)
	var fast, slow Classifier
	for i, ua := range uas {
		if got, want := fastSpent.ClassifyUncached(ua), slowSpent.ClassifyUncached(ua); got != want {
			t.Errorf("%q, budget spent: %+v with the filters, %+v without", ua, got, want)
		}
		if i%4 != 0 {
			continue
		}
		if i%(1<<15) == 0 {
			fast, slow = Classifier{}, Classifier{unfiltered: true}
		}
		if got, want := fast.ClassifyUncached(ua), slow.ClassifyUncached(ua); got != want {
			t.Errorf("%q: %+v with the filters, %+v without", ua, got, want)
		}
	}
	t.Logf("%d User-agents", len(uas))
}

// FuzzFiltersSkipNothing is TestFiltersSkipNothing on any bytes.
func FuzzFiltersSkipNothing(f *testing.F) {
	for _, s := range []string{"", "Mozilla/5.0 (compatible; Googlebot/2.1)", "a@b.c", "${${x}", "x msie 12.0 mozlila/5"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, ua string) {
		fast, slow := Classifier{}, Classifier{unfiltered: true}
		if got, want := fast.ClassifyUncached(ua), slow.ClassifyUncached(ua); got != want {
			t.Fatalf("%q: %+v with the filters, %+v without", ua, got, want)
		}
	})
}

// TestOnePassFindsWhatTheScansFound holds the four table lookups that read
// the one pass's matches (findToken, catalogued, roleWord, browserFamily)
// to the scans they replace (oracle_test.go), on every probe, lower-cased
// as the classifier reads it.
func TestOnePassFindsWhatTheScansFound(t *testing.T) {
	var c Classifier
	probes := pairFilterProbes(t)
	for _, ua := range probes {
		if len(ua) > MaxLen {
			ua = ua[:MaxLen]
		}
		x := c.read(ua)
		lower := x.lower
		tok, at := findToken(x)
		if wantTok, wantAt := oldFindToken(lower); tok != wantTok || at != wantAt {
			t.Errorf("%q: findToken %v at %d, the scan %v at %d", ua, tok, at, wantTok, wantAt)
		}
		e, ok := catalogued(x)
		if wantE, wantOK := oldCatalogued(lower); e != wantE || ok != wantOK {
			t.Errorf("%q: catalogued %+v %v, the scan %+v %v", ua, e, ok, wantE, wantOK)
		}
		k, at, name := roleWord(x)
		if wantK, wantAt, wantName := oldRoleWord(ua, lower); k != wantK || at != wantAt || name != wantName {
			t.Errorf("%q: roleWord %d %d %q, the scan %d %d %q", ua, k, at, name, wantK, wantAt, wantName)
		}
		f, ok := browserFamily(x)
		if wantF, wantOK := oldBrowserFamily(lower); f != wantF || ok != wantOK {
			t.Errorf("%q: browserFamily %q %v, the scan %q %v", ua, f, ok, wantF, wantOK)
		}
	}
	t.Logf("%d User-agents", len(probes))
}
