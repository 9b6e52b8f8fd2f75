package agents

import "testing"

// TestReferral: which operator's product a visitor came from, by the
// Referer's host (its registrable domain, never a substring) or, without
// one, by the utm_source tag ChatGPT appends to the links it gives.
func TestReferral(t *testing.T) {
	tests := []struct {
		name, referer, target, want string
	}{
		{"google.com", "https://www.google.com/", "/", "Google"},
		{"google.co.uk", "https://www.google.co.uk/", "/", "Google"},
		{"google.de", "https://www.google.de/search?q=x", "/", "Google"},
		{"google.com.br", "https://www.google.com.br/", "/", "Google"},
		{"bare google.fr", "http://google.fr/url?q=x", "/", "Google"},
		{"upper case", "HTTPS://WWW.GOOGLE.COM/", "/", "Google"},
		{"port and userinfo", "https://u@www.google.com:443/", "/", "Google"},
		{"trailing dot", "https://www.google.com./", "/", "Google"},
		{"gemini", "https://gemini.google.com/", "/", "Google"},
		{"news", "https://news.google.com/", "/", "Google"},
		{"google app", "android-app://com.google.android.googlequicksearchbox/", "/", "Google"},
		{"google.evil.com", "https://google.evil.com/", "/", ""},
		{"notgoogle.com", "https://notgoogle.com/", "/", ""},
		{"google.com.evil.net", "https://www.google.com.evil.net/", "/", ""},
		{"google in the path", "https://evil.example/www.google.com/", "/", ""},
		{"google in the query", "https://evil.example/?r=https://www.google.com/", "/", ""},
		{"co.de is someone's", "https://google.co.de/", "/", ""},
		{"blogspot is private", "https://google.blogspot.com/", "/", ""},
		{"google.invalid suffix", "https://google.example/", "/", ""},
		{"people's sites on google", "https://sites.google.com/view/x", "/", ""},
		{"a link in a mail", "https://mail.google.com/", "/", ""},
		{"bing", "https://www.bing.com/", "/", "Microsoft"},
		{"copilot", "https://copilot.microsoft.com/", "/", "Microsoft"},
		{"microsoft.com itself", "https://www.microsoft.com/", "/", ""},
		{"chatgpt", "https://chatgpt.com/", "/", "OpenAI"},
		{"chat.openai.com", "https://chat.openai.com/", "/", "OpenAI"},
		{"perplexity", "https://www.perplexity.ai/", "/", "Perplexity"},
		{"claude", "https://claude.ai/", "/", "Anthropic"},
		{"duckduckgo", "https://duckduckgo.com/", "/", "DuckDuckGo"},
		{"yandex.ru", "https://yandex.ru/", "/", "Yandex"},
		{"yandex.com.tr", "https://yandex.com.tr/", "/", "Yandex"},
		{"yandex.evil.com", "https://yandex.evil.com/", "/", ""},
		{"baidu", "https://www.baidu.com/link?url=x", "/", "Baidu"},
		{"notbaidu.com", "https://notbaidu.com/", "/", ""},
		{"the site itself", "https://example.org/a", "/b", ""},
		{"no referer", "", "/b", ""},
		{"utm chatgpt", "", "/post?utm_source=chatgpt.com", "OpenAI"},
		{"utm among others", "", "/post?a=1&utm_source=chatgpt.com&b=2", "OpenAI"},
		{"utm upper case", "", "/post?utm_source=ChatGPT.com", "OpenAI"},
		{"utm perplexity", "", "/post?utm_source=perplexity.ai", "Perplexity"},
		{"utm with the site's own Referer", "https://example.org/", "/post?utm_source=chatgpt.com", "OpenAI"},
		{"Referer first", "https://www.bing.com/", "/post?utm_source=chatgpt.com", "Microsoft"},
		{"utm of a campaign", "", "/post?utm_source=google", ""},
		{"utm in a value", "", "/post?x=utm_source=chatgpt.com", ""},
		{"utm in the fragment", "", "/post#utm_source=chatgpt.com", ""},
		{"garbage", "://", "?utm_source=", ""},
		{"IPv6 literal", "http://[2001:db8::1]/", "/", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Referral(tt.referer, tt.target); got != tt.want {
				t.Errorf("Referral(%q, %q) = %q, want %q", tt.referer, tt.target, got, tt.want)
			}
		})
	}
}

// TestReferralOperatorsKnown: every operator the table names is one the
// robot catalogue names too, or a search engine with no crawler of its
// own there: a typo would make a row no robot's pages ever meet.
func TestReferralOperatorsKnown(t *testing.T) {
	crawlers := map[string]bool{}
	for _, c := range claims {
		crawlers[c.operator] = true
	}
	without := map[string]bool{"Brave": true, "Ecosia": true}
	for _, r := range referrers {
		if r.operator != "" && !crawlers[r.operator] && !without[r.operator] {
			t.Errorf("referrer %q: operator %q is no crawler's", r.domain, r.operator)
		}
	}
}

func BenchmarkReferral(b *testing.B) {
	for b.Loop() {
		Referral("https://www.example.org/blog/2024/post", "/blog/2024/next")
	}
}

// TestReferralsRemember: the cache of the last host gives what Referral
// gives, whatever came before.
func TestReferralsRemember(t *testing.T) {
	var c Referrals
	for _, tt := range []struct{ referer, target, want string }{
		{"https://example.org/a", "/b", ""},
		{"https://example.org/b", "/c?utm_source=chatgpt.com", "OpenAI"},
		{"https://www.google.de/", "/d", "Google"},
		{"https://www.google.de/", "/e?utm_source=chatgpt.com", "Google"},
		{"", "/f", ""},
		{"https://example.org/", "/g", ""},
	} {
		if got := c.Of(tt.referer, tt.target); got != tt.want {
			t.Errorf("Of(%q, %q) = %q, want %q", tt.referer, tt.target, got, tt.want)
		}
	}
}

func BenchmarkReferralsSameSite(b *testing.B) {
	var c Referrals
	for b.Loop() {
		c.Of("https://www.example.org/blog/2024/post", "/blog/2024/next")
	}
}
