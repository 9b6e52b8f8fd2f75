package agents

import (
	"strings"
	"sync"

	"github.com/ua-parser/uap-go/uaparser"
	"gopkg.in/yaml.v3"
)

// robowatch asks uap-go two things: a browser's family (its user-agent
// list) and whether a string is a "Spider" device (its device list). Its
// compiled expressions are about 12 MB, most of a small log's memory, so
// each list is compiled on its own, only when a string may match one of its
// expressions (uapFilter), and its operating-system list never.

// uapLists reads uap-go's expressions from its YAML (a few milliseconds),
// or returns nil. They are read again for each use rather than kept: most
// runs never compile them.
func uapLists() *uaparser.RegexDefinitions {
	var defs uaparser.RegexDefinitions
	if err := yaml.Unmarshal(uaparser.DefinitionYaml, &defs); err != nil {
		return nil
	}
	return &defs
}

// uapBrowsers and uapDevices are uap-go's parsers over its user-agent list
// and its device list alone. Their own caches are kept tiny, since
// Classifier caches the answers.
var (
	uapBrowsers = sync.OnceValue(func() *uaparser.Parser {
		if lists := uapLists(); lists != nil {
			return uapParserOf(uaparser.RegexDefinitions{UA: lists.UA})
		}
		return nil
	})
	uapDevices = sync.OnceValue(func() *uaparser.Parser {
		if lists := uapLists(); lists != nil {
			return uapParserOf(uaparser.RegexDefinitions{Device: lists.Device})
		}
		return nil
	})
)

func uapParserOf(defs uaparser.RegexDefinitions) *uaparser.Parser {
	p, err := uaparser.New(uaparser.WithCacheSize(8), uaparser.WithRegexDefinitions(defs))
	if err != nil {
		return nil
	}
	return p
}

// uapFilters are the literal queries of both lists (uapFilterData),
// decoded on first need; nil if the data could not be read (strings are
// then classified without uap-go).
var uapFilters = sync.OnceValue(func() *[2]uapFilter {
	f, err := decodeUAPFilters(uapFilterData)
	if err != nil {
		return nil
	}
	return &f
})

// uap is uap-go as the classifier asks it; the zero value is ready.
type uap struct{}

// available reports whether the filters of uap-go's lists could be read.
func (uap) available() bool { return uapFilters() != nil }

// family returns uap-go's browser family for s: "Other" when none of its
// expressions matches, as uap-go says.
func (uap) family(s string) string {
	if !uapFilters()[0].mayMatch(s) {
		return "Other"
	}
	if p := uapBrowsers(); p != nil {
		return p.ParseUserAgent(s).Family
	}
	return "Other"
}

// spider reports whether uap-go takes s for a Spider device.
func (uap) spider(s string) bool {
	if !uapFilters()[1].mayMatch(s) {
		return false
	}
	p := uapDevices()
	return p != nil && p.ParseDevice(s).Family == "Spider"
}

// uapLower is s lower-cased, and false when s is not all ASCII: case
// folding then reaches past what the literal queries can say (the Kelvin
// sign matches (?i)k), so such a string is always handed to uap-go.
func uapLower(s string) (string, bool) {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return "", false
		}
	}
	return strings.ToLower(s), true
}
