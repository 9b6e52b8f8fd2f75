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
