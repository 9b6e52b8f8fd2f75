package agents

import (
	"strings"
	"testing"
)

// TestLookup: the big crawlers from robowatch's own table, the AI crawlers
// from ai.robots.txt's list, each with operator and purpose.
func TestLookup(t *testing.T) {
	tests := []struct {
		name, operator, purpose string
		known                   bool
	}{
		{"Googlebot", "Google", "search", true},
		{"GPTBot", "OpenAI", "ai-training", true},
		{"ChatGPT-User", "OpenAI", "ai-assistant", true},
		{"AI2Bot", "Ai2", "ai-training", true}, // from the list only
		// A longer name is not the shorter one's: Applebot-Extended and
		// Google-Extended are robots.txt tokens for AI training, not search.
		{"Applebot-Extended", "Apple", "ai-training", true},
		{"Applebot", "Apple", "search", true},
		{"Google-Extended", "Google", "ai-training", true},
		{"YandexAdditional", "Yandex", "ai-search", true},
		{"meta-externalfetcher", "Meta", "ai-assistant", true},
		{"FacebookBot", "Meta", "ai-training", true},
		{"AhrefsSiteAudit", "Ahrefs", "seo", true},
		{"SeznamBot", "Seznam", "search", true},
		{"Yeti", "Naver", "search", true},
		{"Sogou web spider", "Sogou", "search", true},
		{"DataForSeoBot", "DataForSEO", "seo", true},
		{"Barkrowler", "Babbar", "seo", true},
		{"BLEXBot", "", "seo", true},
		{"Scrapy", "", "library", true}, // a framework: whoever runs it, not Zyte
		// The list's operator text is cut to the operator's name
		// (refresh.py): not "Cohere to download training data for …".
		{"cohere-training-data-crawler", "Cohere", "ai-training", true},
		{"Amzn-User", "Amazon", "ai-assistant", true},
		{"NagetBot", "Naget Inc", "ai-training", true},
		{"Lightpanda", "", "ai-training", true}, // "Anyone who downloads the Lightpanda client"
		{"Firefox", "", "", false},
	}
	for _, tt := range tests {
		e, ok := Lookup(tt.name)
		if ok != tt.known || e.Operator != tt.operator || e.Purpose != tt.purpose {
			t.Errorf("Lookup(%q) = %+v, %v; want %q, %q, %v", tt.name, e, ok, tt.operator, tt.purpose, tt.known)
		}
	}
	if n := len(catalogue()); n < 100 {
		t.Errorf("the built-in catalogue has %d entries", n)
	}
}

// TestLoadCatalogueBad: a malformed entry is an error naming file and line.
func TestLoadCatalogueBad(t *testing.T) {
	tests := []struct{ text, want string }{
		{"# comment\nGoodBot\tOp\tsearch\thttps://x.example/\nBadBot\tOp\tsearch\n", "c.tsv:3: want name, operator, purpose and URL"},
		{"Bot\tOp\tworld-domination\t\n", `c.tsv:1: purpose "world-domination"`},
		{"Bot\tOp\tsearch\tjavascript:alert(1)\n", `c.tsv:1: URL "javascript:alert(1)"`},
	}
	for _, tt := range tests {
		if _, err := LoadCatalogue(strings.NewReader(tt.text), "c.tsv"); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("LoadCatalogue(%q): %v, want %q", tt.text, err, tt.want)
		}
	}
}

// TestCatalogueFeedsTheClassifier: a robot the catalogue names is a robot
// by its name alone, with the catalogue's spelling; a catalogue name that is
// an ordinary word, or a name inside another word, is not.
func TestCatalogueFeedsTheClassifier(t *testing.T) {
	tests := []struct {
		ua   string
		kind Kind
		name string
	}{
		{"meta-externalagent/1.1", Crawler, "meta-externalagent"},
		{"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Perplexity-User/1.0)", Crawler, "Perplexity-User"},
		{"anthropic-ai", Crawler, "anthropic-ai"},
		{"Mozilla/5.0 (compatible; Kimi-User/1.0)", Crawler, "Kimi-User"},
		{"img2dataset/1.45", Crawler, "img2dataset"},
		// Electron apps named like catalogue entries are browsers.
		{"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Cursor/0.42.3 Chrome/124.0.6367.243 Electron/30.4.0 Safari/537.36", Browser, ""},
		{"Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Code/1.85.1 Chrome/114.0.5735.289 Electron/25.9.7 Safari/537.36", Browser, ""},
		// A name inside a longer word names nothing.
		{"Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0 xanthropic-ai", Browser, ""},
	}
	var c Classifier
	for _, tt := range tests {
		a := c.Classify(tt.ua)
		if a.Kind != tt.kind || tt.name != "" && a.Name != tt.name {
			t.Errorf("%q: %v %q (%s), want %v %q", tt.ua, a.Kind, a.Name, a.Reason, tt.kind, tt.name)
		}
	}
}

// TestLookupAnyCase: a name is looked up whatever its case, long or
// beyond ASCII, and the lookup every verdict makes costs no allocation.
func TestLookupAnyCase(t *testing.T) {
	tests := []struct {
		name    string
		ok      bool
		purpose string
	}{
		{"Googlebot", true, "search"},
		{"GOOGLEBOT-Image", true, "search"},
		{"GPTBot", true, "ai-training"},
		{"gptbot", true, "ai-training"},
		{"Chrome", false, ""},
		{"", false, ""},
		{"Ünknown-Bot", false, ""},
		{strings.Repeat("GPTBot", 20), true, "ai-training"}, // a claim is a prefix
		{strings.Repeat("X", 100), false, ""},
	}
	for _, tt := range tests {
		e, ok := Lookup(tt.name)
		if ok != tt.ok || e.Purpose != tt.purpose {
			t.Errorf("Lookup(%q) = %q, %v; want purpose %q, %v", tt.name, e.Purpose, ok, tt.purpose, tt.ok)
		}
	}
	if n := testing.AllocsPerRun(100, func() { Lookup("Chrome") }); n != 0 {
		t.Errorf("Lookup(\"Chrome\"): %v allocations", n)
	}
}

// BenchmarkLookupBrowser is Lookup of a browser family's name, which every
// verdict of a browser client asks (its purpose, its URL): the churn log's
// 300,000 clients ask it 600,000 times.
func BenchmarkLookupBrowser(b *testing.B) {
	names := []string{"Chrome", "Edge", "Firefox", "Safari", "Facebook", "Mozilla"}
	for b.Loop() {
		for _, n := range names {
			Lookup(n)
		}
	}
}

// TestLookupByFirstByte holds Lookup's claims, found by their first byte,
// to the first claim in table order that the lower-cased name starts with,
// for every claim and catalogue name and variants of them.
func TestLookupByFirstByte(t *testing.T) {
	var names []string
	for _, c := range claims {
		names = append(names, c.prefix, strings.ToUpper(c.prefix), c.prefix+"-x", c.prefix[:len(c.prefix)-1])
	}
	for name := range catalogue() {
		names = append(names, name, name+"/2")
	}
	names = append(names, "Chrome", "", "Ünknown", "ü")
	for _, name := range names {
		lower := strings.ToLower(name)
		var want CatalogueEntry
		wantOK := false
		for _, c := range claims {
			if strings.HasPrefix(lower, c.prefix) {
				want, wantOK = CatalogueEntry{Name: name, Operator: c.operator, Purpose: c.purpose, URL: c.url}, true
				break
			}
		}
		if !wantOK {
			want, wantOK = catalogue()[lower]
		}
		if got, ok := Lookup(name); got != want || ok != wantOK {
			t.Errorf("Lookup(%q) = %+v, %v; want %+v, %v", name, got, ok, want, wantOK)
		}
	}
}
