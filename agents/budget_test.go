package agents

import (
	"fmt"
	"testing"
)

// inApp are in-app browsers and other real browser strings that no family
// token names, so that only uap-go (or the fallback when its budget is
// spent) can place them.
var inApp = []string{
	"Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Instagram 307.0.0.34.111 (iPhone14,5; iOS 17_1; en_US; en; scale=3.00; 1170x2532; 531186348)",
	"Mozilla/5.0 (iPhone; CPU iPhone OS 16_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 [FBAN/FBIOS;FBAV/434.0.0.32.109;FBBV/524040395;FBDV/iPhone13,2;FBMD/iPhone;FBSN/iOS;FBSV/16.6;FBSS/3;FBID/phone;FBLC/en_US;FBOP/5]",
	"Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 MicroMessenger/8.0.42(0x18002a2d) NetType/WIFI Language/zh_CN",
	"Mozilla/5.0 (Linux; Android 13; SM-S911B Build/TP1A.220624.014; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/119.0.6045.66 Mobile Safari/537.36 [FB_IAB/FB4A;FBAV/440.0.0.31.105;]",
	"Mozilla/5.0 (iPhone; CPU iPhone OS 17_1_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 LinkedInApp/9.29.3952",
	"Mozilla/5.0 (iPhone; CPU iPhone OS 16_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 musical_ly_30.1.0 JsSdk/2.0 NetType/WIFI Channel/App Store ByteLocale/en Region/US",
	"Mozilla/5.0 (iPad; CPU OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148",
}

// TestClassifyIndependentOfJunk: a classifier that has spent its uap-go
// budget on junk answers real browsers as a fresh one does (the same kind),
// so that an attacker's junk User-agents cannot turn the people who come
// after them into robots.
func TestClassifyIndependentOfJunk(t *testing.T) {
	_, browsers := loadLabelledAgents(t)
	browsers = append(browsers, inApp...)
	var spent Classifier
	for i := 0; spent.parserBytes < MaxParserBytes; i++ {
		// Junk as floods send it: no product token, platform or engine.
		spent.Classify(fmt.Sprintf("zz%dq xq%d (yy %d) ww%d", i, i*7, i*13, i*31))
	}
	differ := 0
	for _, ua := range browsers {
		var fresh Classifier
		want, got := fresh.Classify(ua), spent.Classify(ua)
		if want.Kind != got.Kind {
			differ++
			if differ <= 10 {
				t.Errorf("%.90q: %v fresh, %v after junk", ua, want.Kind, got.Kind)
			}
		}
	}
	t.Logf("%d of %d browser strings classed differently after the budget was spent", differ, len(browsers))
	if spent.reserveBytes == 0 {
		t.Error("the reserve was not used: the test proves nothing")
	}
}

// flooded returns a classifier after a flood of n distinct junk
// User-agents that has spent uap-go's budget and its reserve (junk made to
// look real, "Mozilla/5.0 (Linux; Android 9) AppleWebKit/537.36 x1",
// spends both; spending them for real takes seconds of uap-go, so the
// classifier starts spent).
func flooded(n int) *Classifier {
	c := &Classifier{parserBytes: MaxParserBytes, reserveBytes: MaxReserveBytes}
	for i := range n {
		c.Classify(fmt.Sprintf("Mozilla/5.0 (Linux; Android %d) AppleWebKit/537.36 (KHTML, like Gecko) Mobile/%dX Zq%d/%d.0", i%13, i, i*7, i%97))
		c.Classify(fmt.Sprintf("zz%dq xq%d (yy %d) ww%d", i, i*7, i*13, i*31))
	}
	return c
}

// TestClassifyAfterFlood: after a flood of junk User-agents has spent
// uap-go's budget and its reserve, browsers and apps that only uap-go used
// to place (text browsers, feature phones, in-app browsers, mail clients,
// media players) are what a fresh classifier says they are: a browser, by
// the same name. Before, they became "unknown" (a robot signal) or
// "suspicious", so a flood of junk turned the people after it into robots.
func TestClassifyAfterFlood(t *testing.T) {
	// The premise: junk made to look real is charged to the reserve, so a
	// flood of it spends the reserve as well as the budget.
	probe := Classifier{parserBytes: MaxParserBytes}
	probe.Classify("Mozilla/5.0 (Linux; Android 1) AppleWebKit/537.36 (KHTML, like Gecko) Mobile/1X Zq7/1.0")
	if probe.reserveBytes == 0 {
		t.Fatal("junk made to look real does not spend the reserve: the flood below proves nothing")
	}
	spent := flooded(50000) // 100,000 distinct junk strings
	tests := []struct {
		ua   string
		kind Kind
		name string
	}{
		{"Lynx/2.9.0dev.12 libwww-FM/2.14 SSL-MM/1.4.1 GNUTLS/3.7.9", Browser, "Lynx"},
		{"Links (2.29; Linux 6.1.0-13-amd64 x86_64; GNU C 12.2; text)", Browser, "Links"},
		{"ELinks/0.16.1.1 (textmode; Debian; Linux 6.1.0-13-amd64 x86_64; 80x24-2)", Browser, "ELinks"},
		{"Dillo/3.0.5", Browser, "Dillo"},
		{"Opera/9.00 (Windows NT 5.1; U; en)", Browser, "Opera"},
		{"Opera/8.01 (J2ME/MIDP; Opera Mini/2.0.4509/1316; fr; U; ssr)", Browser, "Opera Mini"},
		{"SAMSUNG-SGH-E250/1.0 Profile/MIDP-2.0 Configuration/CLDC-1.1 UP.Browser/6.2.3.3.c.1.101 (GUI) MMP/2.0", Browser, "UP.Browser"},
		{"Nokia6300/2.0 (05.00) Profile/MIDP-2.0 Configuration/CLDC-1.1 UCWEB/2.0 (Java; U; MIDP-2.0; en-US; Nokia6300) U2/1.0.0 UCBrowser/9.5.0.449 U2/1.0.0 Mobile", Browser, "UC Browser"},
		{"[FBAN/FB4A;FBAV/443.0.0.23.229;FBBV/1234;FBLC/en_US;FBRV/0;FBCR/Vodafone;FBMF/Google;FBBD/google;FBPN/com.facebook.katana;FBDV/Pixel 7;FBSV/14;FBOP/1;FBCA/arm64-v8a:;]", Browser, "Facebook"},
		{"Mozilla/5.0 (iPhone; CPU iPhone OS 17_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Instagram 312.0.2.17.111 (iPhone15,2; iOS 17_2; en_GB; en; scale=3.00; 1179x2556; 546937216)", Browser, "Instagram"},
		{"Mozilla/5.0 (iPhone; CPU iPhone OS 17_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 [FBAN/FBIOS;FBAV/445.0.0.35.117;FBBV/560000000;FBDV/iPhone15,2;FBMD/iPhone;FBSN/iOS;FBSV/17.2;FBSS/3;FBID/phone;FBLC/en_GB;FBOP/5]", Browser, "Facebook"},
		{"Mozilla/5.0 (iPhone; CPU iPhone OS 17_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 MicroMessenger/8.0.44(0x18002c2f) NetType/WIFI Language/zh_CN", Browser, "Mobile Safari UI/WKWebView"},
		{"Mozilla/5.0 (iPhone; CPU iPhone OS 17_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 LinkedInApp/9.29.5841", Browser, "Mobile Safari UI/WKWebView"},
		{"Mozilla/5.0 (iPhone; CPU iPhone OS 17_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 musical_ly_32.5.0 JsSdk/2.0 NetType/WIFI Channel/App Store ByteLocale/en Region/GB", Browser, "Mobile Safari UI/WKWebView"},
		{"Mozilla/5.0 (iPhone; CPU iPhone OS 17_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Twitter for iPhone/10.20", Browser, "Twitter"},
		{"AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/120.0.6099.144 Mobile Safari/537.36", Browser, "Chrome Mobile WebView"},
		{"Microsoft Office/16.0 (Microsoft Outlook Mail 16.0.17029; Pro)", Browser, "Outlook"},
		{"QuickTime/7.7.9 (qtver=7.7.9;os=Windows NT 10.0)", Browser, "QuickTime"},
		{"VLC/3.0.20 LibVLC/3.0.20", Browser, "VLC"},
		{"Radio/3.1 CFNetwork/1410.0.3 AppleTV/17.2", Browser, "Radio"},
		// A text browser uap-go does not know is one with or without it.
		{"w3m/0.5.3+git20230121", Browser, "w3m"},
		// Not browsers, with or without uap-go: the fallback is no more lenient.
		{"zzqx 12 (yy)", Unknown, "zzqx"},
	}
	for _, tt := range tests {
		var fresh Classifier
		want, got := fresh.Classify(tt.ua), spent.Classify(tt.ua)
		if want.Kind != tt.kind || want.Name != tt.name {
			t.Errorf("%.70q: fresh classifier says %v %q, want %v %q", tt.ua, want.Kind, want.Name, tt.kind, tt.name)
		}
		if got.Kind != want.Kind || got.Name != want.Name {
			t.Errorf("%.70q: %v %q after the flood, %v %q without it", tt.ua, got.Kind, got.Name, want.Kind, want.Name)
		}
	}

	// The labelled corpus: every browser keeps its kind, and no bot that a
	// fresh classifier flags passes as a browser after the flood.
	bots, browsers := loadLabelledAgents(t)
	sameName, differ := 0, 0
	for _, ua := range append(browsers, inApp...) {
		var fresh Classifier
		want, got := fresh.Classify(ua), spent.Classify(ua)
		if got.Kind != want.Kind {
			if differ++; differ <= 10 {
				t.Errorf("%.90q: %v %q after the flood, %v %q without it", ua, got.Kind, got.Name, want.Kind, want.Name)
			}
		}
		if got.Name == want.Name {
			sameName++
		}
	}
	t.Logf("browsers after the flood: %d of %d of another kind, %d with the same name", differ, len(browsers)+len(inApp), sameName)
	for _, ua := range bots {
		var fresh Classifier
		if want, got := fresh.Classify(ua), spent.Classify(ua); want.Kind != Browser && got.Kind == Browser {
			t.Errorf("%.90q: bot flagged %v without the flood passes as browser %q after it", ua, want.Kind, got.Name)
		}
	}
}

// TestInAppBrowsersSpareTheParser: a log of distinct in-app browser strings
// (every Facebook app build is its own User-agent) is named from the
// tokens, without spending uap-go's budget, and as uap-go names them.
func TestInAppBrowsersSpareTheParser(t *testing.T) {
	var c Classifier
	for i := range 5000 {
		ua := fmt.Sprintf("Mozilla/5.0 (iPhone; CPU iPhone OS 17_%d like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 [FBAN/FBIOS;FBAV/%d.0.0.%d]", i%7, 400+i/300, i)
		if a := c.Classify(ua); a.Name != "Facebook" || a.Kind != Browser {
			t.Fatalf("%s: %+v, want the Facebook app, a browser", ua, a)
		}
	}
	if c.parserBytes != 0 {
		t.Errorf("uap-go was handed %d bytes for in-app browsers the token table names", c.parserBytes)
	}
	ua := "Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Instagram 309.0.2.28.108"
	if got, want := c.Classify(ua).Name, uapBrowsers().ParseUserAgent(ua).Family; got != want {
		t.Errorf("Instagram's in-app browser named %q; uap-go names it %q", got, want)
	}
}
