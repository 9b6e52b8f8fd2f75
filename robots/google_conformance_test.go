// Ported from robots_test.cc of Google's robotstxt library,
// https://github.com/google/robotstxt, as it stands at commit
// 22b355ff855419e6a3ff8ff09c0ad7fdb17116f9 (the file last changed in
// a67394c, 2022-09-12):
//
//	Copyright 2019 Google LLC
//
//	Licensed under the Apache License, Version 2.0 (the "License");
//	you may not use this file except in compliance with the License.
//	You may obtain a copy of the License at
//
//	    https://www.apache.org/licenses/LICENSE-2.0
//
//	Unless required by applicable law or agreed to in writing, software
//	distributed under the License is distributed on an "AS IS" BASIS,
//	WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
//	See the License for the specific language governing permissions and
//	limitations under the License.
//
// The License's text is in LICENSE-google-robotstxt beside this file. This
// file is a derivative of that one, and so under the same License. Changes
// made by the robowatch project: the C++ EXPECTs rewritten as Go table rows
// (robots.txt bodies, agents and URLs taken from Google's cases), run
// against robowatch's parser instead of Google's, with robowatch's answer
// and, where it deliberately differs from Google's, the reason.

package robots

import (
	"cmp"
	"strings"
	"testing"
)

// The test suite of Google's robotstxt library (robots_test.cc, github.com/
// google/robotstxt), ported EXPECT by EXPECT. Each case is one call of the
// suite's IsUserAgentAllowed(robotstxt, useragent, url) with Google's URL as
// written: Allowed reads absolute URLs as a log's request targets.
//
// allowed is robowatch's answer. Where it differs from Google's, differs
// says why (robowatch's documented choice, see the package comments and
// docs/robots-txt.md): the suite checks that the difference stays deliberate.

// googleCase is one EXPECT of robots_test.cc.
type googleCase struct {
	test    string // the suite's TEST
	file    string
	agent   string
	url     string
	allowed bool   // robowatch's answer
	rule    string // when set, the deciding rule's text, "text@N" if on line N ("-": no rule decides)
	differs string // when set, Google answers !allowed, and this is why robowatch does not
}

func runGoogleCases(t *testing.T, cases []googleCase) {
	t.Helper()
	for _, c := range cases {
		r := ParseBytes([]byte(c.file))
		got, rule := r.Allowed(c.agent, c.url)
		if got != c.allowed {
			google := c.allowed
			if c.differs != "" {
				google = !c.allowed
			}
			t.Errorf("%s: Allowed(%q, %q) = %v (rule %+v), want %v (Google: %v)", c.test, c.agent, c.url, got, rule, c.allowed, google)
			continue
		}
		text, line := c.rule, 0
		if i := strings.LastIndexByte(text, '@'); i >= 0 {
			text, line = c.rule[:i], atoi(c.rule[i+1:])
		}
		switch {
		case c.rule == "":
		case c.rule == "-" && rule != nil:
			t.Errorf("%s: Allowed(%q, %q): decided by %q (line %d), want no rule", c.test, c.agent, c.url, rule.Text, rule.Line)
		case c.rule != "-" && (rule == nil || rule.Text != text || line != 0 && rule.Line != line):
			t.Errorf("%s: Allowed(%q, %q): decided by %+v, want %q", c.test, c.agent, c.url, rule, c.rule)
		}
	}
}

func atoi(s string) int {
	n := 0
	for _, c := range []byte(s) {
		n = n*10 + int(c-'0')
	}
	return n
}

const (
	gFooDisallowAll = "user-agent: FooBot\n" +
		"disallow: /\n"
	gGroups = "allow: /foo/bar/\n" +
		"\n" +
		"user-agent: FooBot\n" +
		"disallow: /\n" +
		"allow: /x/\n" +
		"user-agent: BarBot\n" +
		"disallow: /\n" +
		"allow: /y/\n" +
		"\n" +
		"\n" +
		"allow: /w/\n" +
		"user-agent: BazBot\n" +
		"\n" +
		"user-agent: FooBot\n" +
		"allow: /z/\n" +
		"disallow: /\n"
	gOtherRulesSitemap = "User-agent: BarBot\n" +
		"Sitemap: https://foo.bar/sitemap\n" +
		"User-agent: *\n" +
		"Disallow: /\n"
	gOtherRulesUnknown = "User-agent: FooBot\n" +
		"Invalid-Unknown-Line: unknown\n" +
		"User-agent: *\n" +
		"Disallow: /\n"
	gKeysUpper = "USER-AGENT: FooBot\n" +
		"ALLOW: /x/\n" +
		"DISALLOW: /\n"
	gKeysLower = "user-agent: FooBot\n" +
		"allow: /x/\n" +
		"disallow: /\n"
	gKeysCamel = "uSeR-aGeNt: FooBot\n" +
		"AlLoW: /x/\n" +
		"dIsAlLoW: /\n"
	gAgentUpper = "User-Agent: FOO BAR\n" +
		"Allow: /x/\n" +
		"Disallow: /\n"
	gAgentLower = "User-Agent: foo bar\n" +
		"Allow: /x/\n" +
		"Disallow: /\n"
	gAgentCamel = "User-Agent: FoO bAr\n" +
		"Allow: /x/\n" +
		"Disallow: /\n"
	gFirstSpace = "User-Agent: *\n" +
		"Disallow: /\n" +
		"User-Agent: Foo Bar\n" +
		"Allow: /x/\n" +
		"Disallow: /\n"
	gGlobal = "user-agent: *\n" +
		"allow: /\n" +
		"user-agent: FooBot\n" +
		"disallow: /\n"
	gOnlySpecific = "user-agent: FooBot\n" +
		"allow: /\n" +
		"user-agent: BarBot\n" +
		"disallow: /\n" +
		"user-agent: BazBot\n" +
		"disallow: /\n"
)

func TestGoogleSuiteSyntaxAndGroups(t *testing.T) {
	const u = "http://foo.bar/x/y"
	runGoogleCases(t, []googleCase{
		// GoogleOnly_SystemTest.
		{"SystemTest", "", "FooBot", "", true, "-", ""},
		{"SystemTest", gFooDisallowAll, "", "", true, "-", ""},
		// An empty URL is "/", which "disallow: /" covers.
		{"SystemTest", gFooDisallowAll, "FooBot", "", false, "disallow: /", ""},
		{"SystemTest", "", "", "", true, "-", ""},

		// ID_LineSyntax_Line: a missing colon is read when the line is two words.
		{"LineSyntax_Line", gFooDisallowAll, "FooBot", u, false, "disallow: /", ""},
		{"LineSyntax_Line", "foo: FooBot\nbar: /\n", "FooBot", u, true, "-", ""},
		{"LineSyntax_Line", "user-agent FooBot\ndisallow /\n", "FooBot", u, false, "disallow /", ""},

		// ID_LineSyntax_Groups: a group runs to the next User-agent line
		// after a rule; groups of one robot merge; rules outside groups,
		// and blank lines, count for nothing.
		{"LineSyntax_Groups", gGroups, "FooBot", "http://foo.bar/x/b", true, "allow: /x/", ""},
		{"LineSyntax_Groups", gGroups, "FooBot", "http://foo.bar/z/d", true, "allow: /z/", ""},
		{"LineSyntax_Groups", gGroups, "FooBot", "http://foo.bar/y/c", false, "disallow: /@4", ""},
		{"LineSyntax_Groups", gGroups, "BarBot", "http://foo.bar/y/c", true, "allow: /y/", ""},
		{"LineSyntax_Groups", gGroups, "BarBot", "http://foo.bar/w/a", true, "allow: /w/", ""},
		{"LineSyntax_Groups", gGroups, "BarBot", "http://foo.bar/z/d", false, "disallow: /@7", ""},
		{"LineSyntax_Groups", gGroups, "BazBot", "http://foo.bar/z/d", true, "allow: /z/", ""},
		{"LineSyntax_Groups", gGroups, "FooBot", "http://foo.bar/foo/bar/", false, "disallow: /@4", ""},
		{"LineSyntax_Groups", gGroups, "BarBot", "http://foo.bar/foo/bar/", false, "disallow: /@7", ""},
		{"LineSyntax_Groups", gGroups, "BazBot", "http://foo.bar/foo/bar/", false, "disallow: /", ""},

		// ID_LineSyntax_Groups_OtherRules: Sitemap and unknown lines do
		// not end a group's User-agent lines.
		{"Groups_OtherRules", gOtherRulesSitemap, "FooBot", "http://foo.bar/", false, "Disallow: /", ""},
		{"Groups_OtherRules", gOtherRulesSitemap, "BarBot", "http://foo.bar/", false, "Disallow: /", ""},
		{"Groups_OtherRules", gOtherRulesUnknown, "FooBot", "http://foo.bar/", false, "Disallow: /", ""},
		{"Groups_OtherRules", gOtherRulesUnknown, "BarBot", "http://foo.bar/", false, "Disallow: /", ""},

		// ID_REPLineNamesCaseInsensitive.
		{"REPLineNamesCaseInsensitive", gKeysUpper, "FooBot", u, true, "ALLOW: /x/", ""},
		{"REPLineNamesCaseInsensitive", gKeysLower, "FooBot", u, true, "allow: /x/", ""},
		{"REPLineNamesCaseInsensitive", gKeysCamel, "FooBot", u, true, "AlLoW: /x/", ""},
		{"REPLineNamesCaseInsensitive", gKeysUpper, "FooBot", "http://foo.bar/a/b", false, "DISALLOW: /", ""},
		{"REPLineNamesCaseInsensitive", gKeysLower, "FooBot", "http://foo.bar/a/b", false, "disallow: /", ""},
		{"REPLineNamesCaseInsensitive", gKeysCamel, "FooBot", "http://foo.bar/a/b", false, "dIsAlLoW: /", ""},

		// ID_UserAgentValueCaseInsensitive ("FOO BAR" names "foo").
		{"UserAgentValueCaseInsensitive", gAgentUpper, "Foo", u, true, "Allow: /x/", ""},
		{"UserAgentValueCaseInsensitive", gAgentLower, "Foo", u, true, "Allow: /x/", ""},
		{"UserAgentValueCaseInsensitive", gAgentCamel, "Foo", u, true, "Allow: /x/", ""},
		{"UserAgentValueCaseInsensitive", gAgentUpper, "Foo", "http://foo.bar/a/b", false, "Disallow: /", ""},
		{"UserAgentValueCaseInsensitive", gAgentLower, "Foo", "http://foo.bar/a/b", false, "Disallow: /", ""},
		{"UserAgentValueCaseInsensitive", gAgentCamel, "Foo", "http://foo.bar/a/b", false, "Disallow: /", ""},
		{"UserAgentValueCaseInsensitive", gAgentUpper, "foo", u, true, "Allow: /x/", ""},
		{"UserAgentValueCaseInsensitive", gAgentLower, "foo", u, true, "Allow: /x/", ""},
		{"UserAgentValueCaseInsensitive", gAgentCamel, "foo", u, true, "Allow: /x/", ""},
		{"UserAgentValueCaseInsensitive", gAgentUpper, "foo", "http://foo.bar/a/b", false, "Disallow: /", ""},
		{"UserAgentValueCaseInsensitive", gAgentLower, "foo", "http://foo.bar/a/b", false, "Disallow: /", ""},
		{"UserAgentValueCaseInsensitive", gAgentCamel, "foo", "http://foo.bar/a/b", false, "Disallow: /", ""},

		// GoogleOnly_AcceptUserAgentUpToFirstSpace: the line "Foo Bar"
		// names "foo" (robowatch too).
		{"AcceptUserAgentUpToFirstSpace", gFirstSpace, "Foo", u, true, "Allow: /x/", ""},
		{"AcceptUserAgentUpToFirstSpace", gFirstSpace, "Foo Bar", u, true, "Allow: /x/",
			"the agent asked about is a User-agent header, matched to groups by its words (Robots.Agent): the header \"Foo Bar\" has the word \"foo\"; Google compares a bare product token whole"},

		// ID_GlobalGroups_Secondary.
		{"GlobalGroups_Secondary", "", "FooBot", u, true, "-", ""},
		{"GlobalGroups_Secondary", gGlobal, "FooBot", u, false, "disallow: /", ""},
		{"GlobalGroups_Secondary", gGlobal, "BarBot", u, true, "allow: /", ""},
		{"GlobalGroups_Secondary", gOnlySpecific, "QuxBot", u, true, "-", ""},

		// ID_AllowDisallow_Value_CaseSensitive.
		{"AllowDisallow_Value_CaseSensitive", "user-agent: FooBot\ndisallow: /x/\n", "FooBot", u, false, "disallow: /x/", ""},
		{"AllowDisallow_Value_CaseSensitive", "user-agent: FooBot\ndisallow: /X/\n", "FooBot", u, true, "-", ""},
	})
}

func TestGoogleSuiteLongestMatch(t *testing.T) {
	const u = "http://foo.bar/x/page.html"
	runGoogleCases(t, []googleCase{
		// ID_LongestMatch: the pattern with the most octets wins; Allow
		// wins a tie; an empty pattern decides nothing.
		{"LongestMatch", "user-agent: FooBot\ndisallow: /x/page.html\nallow: /x/\n", "FooBot", u, false, "disallow: /x/page.html", ""},
		{"LongestMatch", "user-agent: FooBot\nallow: /x/page.html\ndisallow: /x/\n", "FooBot", u, true, "allow: /x/page.html", ""},
		{"LongestMatch", "user-agent: FooBot\nallow: /x/page.html\ndisallow: /x/\n", "FooBot", "http://foo.bar/x/", false, "disallow: /x/", ""},
		{"LongestMatch", "user-agent: FooBot\ndisallow: \nallow: \n", "FooBot", u, true, "-", ""},
		{"LongestMatch", "user-agent: FooBot\ndisallow: /\nallow: /\n", "FooBot", u, true, "allow: /", ""},
		{"LongestMatch", "user-agent: FooBot\ndisallow: /x\nallow: /x/\n", "FooBot", "http://foo.bar/x", false, "disallow: /x", ""},
		{"LongestMatch", "user-agent: FooBot\ndisallow: /x\nallow: /x/\n", "FooBot", "http://foo.bar/x/", true, "allow: /x/", ""},
		{"LongestMatch", "user-agent: FooBot\ndisallow: /x/page.html\nallow: /x/page.html\n", "FooBot", u, true, "allow: /x/page.html", ""},
		{"LongestMatch", "user-agent: FooBot\nallow: /page\ndisallow: /*.html\n", "FooBot", "http://foo.bar/page.html", false, "disallow: /*.html", ""},
		{"LongestMatch", "user-agent: FooBot\nallow: /page\ndisallow: /*.html\n", "FooBot", "http://foo.bar/page", true, "allow: /page", ""},
		{"LongestMatch", "user-agent: FooBot\nallow: /x/page.\ndisallow: /*.html\n", "FooBot", u, true, "allow: /x/page.", ""},
		{"LongestMatch", "user-agent: FooBot\nallow: /x/page.\ndisallow: /*.html\n", "FooBot", "http://foo.bar/x/y.html", false, "disallow: /*.html", ""},
		{"LongestMatch", "User-agent: *\nDisallow: /x/\nUser-agent: FooBot\nDisallow: /y/\n", "FooBot", "http://foo.bar/x/page", true, "-", ""},
		{"LongestMatch", "User-agent: *\nDisallow: /x/\nUser-agent: FooBot\nDisallow: /y/\n", "FooBot", "http://foo.bar/y/page", false, "Disallow: /y/", ""},
	})
}

func TestGoogleSuiteEncodingAndSpecialCharacters(t *testing.T) {
	const (
		queryURL = "User-agent: FooBot\nDisallow: /\nAllow: /foo/bar?qux=taz&baz=http://foo.bar?tar&par\n"
		utf8     = "User-agent: FooBot\nDisallow: /\nAllow: /foo/bar/ツ\n"
		utf8Enc  = "User-agent: FooBot\nDisallow: /\nAllow: /foo/bar/%E3%83%84\n"
		unresEnc = "User-agent: FooBot\nDisallow: /\nAllow: /foo/bar/%62%61%7A\n"
		star     = "User-agent: FooBot\nDisallow: /foo/bar/quz\nAllow: /foo/*/qux\n"
		dollar   = "User-agent: FooBot\nDisallow: /foo/bar$\nAllow: /foo/bar/qux\n"
		comment  = "User-agent: FooBot\n# Disallow: /\nDisallow: /foo/quz#qux\nAllow: /\n"
		// RFC 9309 §2.2.2 compares both sides percent-encoded, and its
		// table reads /foo/bar/%62%61%7A as /foo/bar/baz; Google leaves
		// the encoding of the URL to its caller.
		encodesURL = "robowatch percent-encodes the request path as it does the pattern (RFC 9309 §2.2.2): a log holds paths as clients sent them"
		decodesURL = "robowatch decodes escapes of unreserved characters on both sides, as RFC 9309 §2.2.2's table does (/foo/bar/%62%61%7A is /foo/bar/baz)"
	)
	runGoogleCases(t, []googleCase{
		// ID_Encoding.
		{"Encoding", queryURL, "FooBot", "http://foo.bar/foo/bar?qux=taz&baz=http://foo.bar?tar&par", true, "Allow: /foo/bar?qux=taz&baz=http://foo.bar?tar&par", ""},
		{"Encoding", utf8, "FooBot", "http://foo.bar/foo/bar/%E3%83%84", true, "Allow: /foo/bar/ツ", ""},
		{"Encoding", utf8, "FooBot", "http://foo.bar/foo/bar/ツ", true, "Allow: /foo/bar/ツ", encodesURL},
		{"Encoding", utf8Enc, "FooBot", "http://foo.bar/foo/bar/%E3%83%84", true, "Allow: /foo/bar/%E3%83%84", ""},
		{"Encoding", utf8Enc, "FooBot", "http://foo.bar/foo/bar/ツ", true, "Allow: /foo/bar/%E3%83%84", encodesURL},
		{"Encoding", unresEnc, "FooBot", "http://foo.bar/foo/bar/baz", true, "Allow: /foo/bar/%62%61%7A", decodesURL},
		{"Encoding", unresEnc, "FooBot", "http://foo.bar/foo/bar/%62%61%7A", true, "Allow: /foo/bar/%62%61%7A", ""},

		// ID_SpecialCharacters: '*', a final '$', '#'.
		{"SpecialCharacters", star, "FooBot", "http://foo.bar/foo/bar/quz", false, "Disallow: /foo/bar/quz", ""},
		{"SpecialCharacters", star, "FooBot", "http://foo.bar/foo/quz", true, "-", ""},
		// Read as the server serves it, /foo/quz: still no rule.
		{"SpecialCharacters", star, "FooBot", "http://foo.bar/foo//quz", true, "-", ""},
		{"SpecialCharacters", star, "FooBot", "http://foo.bar/foo/bax/quz", true, "-", ""},
		{"SpecialCharacters", dollar, "FooBot", "http://foo.bar/foo/bar", false, "Disallow: /foo/bar$", ""},
		{"SpecialCharacters", dollar, "FooBot", "http://foo.bar/foo/bar/qux", true, "Allow: /foo/bar/qux", ""},
		{"SpecialCharacters", dollar, "FooBot", "http://foo.bar/foo/bar/", true, "-", ""},
		{"SpecialCharacters", dollar, "FooBot", "http://foo.bar/foo/bar/baz", true, "-", ""},
		{"SpecialCharacters", comment, "FooBot", "http://foo.bar/foo/bar", true, "Allow: /", ""},
		{"SpecialCharacters", comment, "FooBot", "http://foo.bar/foo/quz", false, "Disallow: /foo/quz", ""},

		// GoogleOnly_IndexHTMLisDirectory.
		{"IndexHTMLisDirectory", "User-Agent: *\nAllow: /allowed-slash/index.html\nDisallow: /\n", "foobot", "http://foo.com/allowed-slash/", false, "Disallow: /",
			"Google's reading of a final index.html as its directory is Google's own, not RFC 9309's: the server need not serve index.html for the directory"},
		{"IndexHTMLisDirectory", "User-Agent: *\nAllow: /allowed-slash/index.html\nDisallow: /\n", "foobot", "http://foo.com/allowed-slash/index.htm", false, "Disallow: /", ""},
		{"IndexHTMLisDirectory", "User-Agent: *\nAllow: /allowed-slash/index.html\nDisallow: /\n", "foobot", "http://foo.com/allowed-slash/index.html", true, "Allow: /allowed-slash/index.html", ""},
		{"IndexHTMLisDirectory", "User-Agent: *\nAllow: /allowed-slash/index.html\nDisallow: /\n", "foobot", "http://foo.com/anyother-url", false, "Disallow: /", ""},
	})
}

func TestGoogleSuiteDocumentationChecks(t *testing.T) {
	const (
		fish     = "user-agent: FooBot\ndisallow: /\nallow: /fish\n"
		fishStar = "user-agent: FooBot\ndisallow: /\nallow: /fish*\n"
		fishDir  = "user-agent: FooBot\ndisallow: /\nallow: /fish/\n"
		php      = "user-agent: FooBot\ndisallow: /\nallow: /*.php\n"
		phpEnd   = "user-agent: FooBot\ndisallow: /\nallow: /*.php$\n"
		fishPhp  = "user-agent: FooBot\ndisallow: /\nallow: /fish*.php\n"
	)
	var cases []googleCase
	// add records a block of the suite: the file's allow rule decides the
	// paths allowed, "disallow: /" the others.
	add := func(file, allowRule string, allowed, disallowed []string) {
		for _, p := range allowed {
			cases = append(cases, googleCase{"DocumentationChecks", file, "FooBot", "http://foo.bar" + p, true, allowRule, ""})
		}
		for _, p := range disallowed {
			cases = append(cases, googleCase{"DocumentationChecks", file, "FooBot", "http://foo.bar" + p, false, "disallow: /", ""})
		}
	}
	add(fish, "allow: /fish",
		[]string{"/fish", "/fish.html", "/fish/salmon.html", "/fishheads", "/fishheads/yummy.html", "/fish.html?id=anything"},
		[]string{"/bar", "/Fish.asp", "/catfish", "/?id=fish"})
	add(fishStar, "allow: /fish*",
		[]string{"/fish", "/fish.html", "/fish/salmon.html", "/fishheads", "/fishheads/yummy.html", "/fish.html?id=anything"},
		[]string{"/bar", "/Fish.bar", "/catfish", "/?id=fish"})
	add(fishDir, "allow: /fish/",
		[]string{"/fish/", "/fish/salmon", "/fish/?salmon", "/fish/salmon.html", "/fish/?id=anything"},
		[]string{"/bar", "/fish", "/fish.html", "/Fish/Salmon.html"})
	// "//folder/any.php.file.html" is read as the server serves it,
	// /folder/any.php.file.html: allowed either way.
	add(php, "allow: /*.php",
		[]string{"/filename.php", "/folder/filename.php", "/folder/filename.php?parameters", "//folder/any.php.file.html", "/filename.php/", "/index?f=filename.php/"},
		[]string{"/bar", "/php/", "/index?php", "/windows.PHP"})
	add(phpEnd, "allow: /*.php$",
		[]string{"/filename.php", "/folder/filename.php"},
		[]string{"/bar", "/filename.php?parameters", "/filename.php/", "/filename.php5", "/php/", "/filename?php", "/aaaphpaaa", "//windows.PHP"})
	add(fishPhp, "allow: /fish*.php",
		[]string{"/fish.php", "/fishheads/catfish.php?parameters"},
		[]string{"/bar", "/Fish.PHP"})
	// Section "Order of precedence for group-member records".
	cases = append(cases,
		googleCase{"DocumentationChecks", "user-agent: FooBot\nallow: /p\ndisallow: /\n", "FooBot", "http://example.com/page", true, "allow: /p", ""},
		googleCase{"DocumentationChecks", "user-agent: FooBot\nallow: /folder\ndisallow: /folder\n", "FooBot", "http://example.com/folder/page", true, "allow: /folder", ""},
		googleCase{"DocumentationChecks", "user-agent: FooBot\nallow: /page\ndisallow: /*.htm\n", "FooBot", "http://example.com/page.htm", false, "disallow: /*.htm", ""},
		googleCase{"DocumentationChecks", "user-agent: FooBot\nallow: /$\ndisallow: /\n", "FooBot", "http://example.com/", true, "allow: /$", ""},
		googleCase{"DocumentationChecks", "user-agent: FooBot\nallow: /$\ndisallow: /\n", "FooBot", "http://example.com/page.html", false, "disallow: /", ""},
	)
	runGoogleCases(t, cases)
}

// TestGoogleSuiteLineTooLong is GoogleOnly_LineTooLong. Google cuts a line
// at 8 * 2083 bytes and keeps the cut rule; robowatch reads a line whole
// (up to MaxSize, as RFC 9309 asks), because a cut rule is a shorter, and
// so a broader, rule than the one written ("Disallow: /x/aaa…a/qux" cut to
// "/x/aaa…a" disallows far more): the cut-rule EXPECTs differ.
func TestGoogleSuiteLineTooLong(t *testing.T) {
	const maxLineLen = 2083 * 8
	const eolLen = 1
	{
		file := "user-agent: FooBot\n"
		longline := "/x/"
		maxLength := maxLineLen - len(longline) - len("disallow: ") + eolLen
		longline += strings.Repeat("a", maxLength-len(longline))
		file += "disallow: " + longline + "/qux\n"
		runGoogleCases(t, []googleCase{
			{"LineTooLong", file, "FooBot", "http://foo.bar/fux", true, "-", ""},
			{"LineTooLong", file, "FooBot", "http://foo.bar" + longline + "/fux", true, "-",
				"robowatch reads the line whole: the rule is .../qux, which .../fux does not match"},
			{"LineTooLong", file, "FooBot", "http://foo.bar" + longline + "/qux", false, "", ""},
		})
	}
	{
		file := "user-agent: FooBot\ndisallow: /\n"
		a, b := "/x/", "/x/"
		maxLength := maxLineLen - len(a) - len("allow: ") + eolLen
		a += strings.Repeat("a", maxLength-len(a))
		b += strings.Repeat("b", maxLength-len(b))
		file += "allow: " + a + "/qux\n" + "allow: " + b + "/qux\n"
		runGoogleCases(t, []googleCase{
			{"LineTooLong", file, "FooBot", "http://foo.bar/", false, "disallow: /", ""},
			{"LineTooLong", file, "FooBot", "http://foo.bar" + a + "/qux", true, "", ""},
			{"LineTooLong", file, "FooBot", "http://foo.bar" + b + "/fux", false, "disallow: /",
				"robowatch reads the line whole: the allow rule is .../qux, which .../fux does not match"},
		})
	}
}

// TestGoogleSuiteLineEndings is ID_LinesNumbersAreCountedCorrectly: LF, CR
// LF, CR alone, mixed, and no final line end all give the same groups and
// line numbers (Google counts 4 directives, the last on line 6).
func TestGoogleSuiteLineEndings(t *testing.T) {
	files := map[string]string{
		"unix":             "User-Agent: foo\nAllow: /some/path\nUser-Agent: bar\n\n\nDisallow: /\n",
		"dos":              "User-Agent: foo\r\nAllow: /some/path\r\nUser-Agent: bar\r\n\r\n\r\nDisallow: /\r\n",
		"mac":              "User-Agent: foo\rAllow: /some/path\rUser-Agent: bar\r\r\rDisallow: /\r",
		"no final newline": "User-Agent: foo\nAllow: /some/path\nUser-Agent: bar\n\n\nDisallow: /",
		"mixed":            "User-Agent: foo\nAllow: /some/path\r\nUser-Agent: bar\n\r\n\nDisallow: /",
	}
	for name, file := range files {
		r := ParseBytes([]byte(file))
		if got, want := groupList(r), "foo@1: A /some/path@2 | bar@3: D /@6"; got != want {
			t.Errorf("%s: groups %q, want %q", name, got, want)
		}
		if r.Lines != 6 {
			t.Errorf("%s: %d lines, want 6", name, r.Lines)
		}
		runGoogleCases(t, []googleCase{
			{"LinesNumbersAreCountedCorrectly " + name, file, "foo", "/some/path", true, "Allow: /some/path", ""},
			{"LinesNumbersAreCountedCorrectly " + name, file, "bar", "/some/path", false, "Disallow: /", ""},
		})
	}
}

// TestGoogleSuiteBOM is ID_UTF8ByteOrderMarkIsSkipped: a byte order mark,
// or the start of one, is skipped at the start of the file and nowhere
// else; a broken one spoils the first line only.
func TestGoogleSuiteBOM(t *testing.T) {
	cases := []struct {
		name, file string
		groups     string // groupList
		unknown    int    // lines ignored as unknown keys
	}{
		{"full BOM", "\xEF\xBB\xBFUser-Agent: foo\nAllow: /AnyValue\n", "foo@1: A /AnyValue@2", 0},
		{"partial BOM 2", "\xEF\xBBUser-Agent: foo\nAllow: /AnyValue\n", "foo@1: A /AnyValue@2", 0},
		{"partial BOM 1", "\xEFUser-Agent: foo\nAllow: /AnyValue\n", "foo@1: A /AnyValue@2", 0},
		{"broken BOM", "\xEF\x11\xBFUser-Agent: foo\nAllow: /AnyValue\n", "", 1},
		{"BOM in the middle", "User-Agent: foo\n\xEF\xBB\xBFAllow: /AnyValue\n", "foo@1: ", 1},
	}
	for _, c := range cases {
		r := ParseBytes([]byte(c.file))
		if got := groupList(r); got != c.groups {
			t.Errorf("%s: groups %q, want %q", c.name, got, c.groups)
		}
		unknown := 0
		for _, p := range Lint(r) {
			if p.Code == "unknown-key" {
				unknown++
			}
		}
		if unknown != c.unknown {
			t.Errorf("%s: %d unknown-key lines, want %d", c.name, unknown, c.unknown)
		}
	}
	// The same, as decisions: the first line's group holds.
	runGoogleCases(t, []googleCase{
		{"UTF8ByteOrderMarkIsSkipped", "\xEF\xBB\xBFUser-Agent: foo\nDisallow: /AnyValue\n", "foo", "/AnyValue", false, "Disallow: /AnyValue", ""},
		{"UTF8ByteOrderMarkIsSkipped", "\xEF\xBBUser-Agent: foo\nDisallow: /AnyValue\n", "foo", "/AnyValue", false, "Disallow: /AnyValue", ""},
		{"UTF8ByteOrderMarkIsSkipped", "\xEFUser-Agent: foo\nDisallow: /AnyValue\n", "foo", "/AnyValue", false, "Disallow: /AnyValue", ""},
		{"UTF8ByteOrderMarkIsSkipped", "\xEF\x11\xBFUser-Agent: foo\nDisallow: /AnyValue\n", "foo", "/AnyValue", true, "-", ""},
		{"UTF8ByteOrderMarkIsSkipped", "User-Agent: foo\n\xEF\xBB\xBFDisallow: /AnyValue\n", "foo", "/AnyValue", true, "-", ""},
	})
}

// TestGoogleSuiteSitemap is ID_NonStandardLineExample_Sitemap: a Sitemap
// line is read wherever it is, and ends no group.
func TestGoogleSuiteSitemap(t *testing.T) {
	const loc = "http://foo.bar/sitemap.xml"
	const body = "User-Agent: foo\nAllow: /some/path\nUser-Agent: bar\n\n\n"
	for _, c := range []struct{ file, groups string }{
		{body + "Sitemap: " + loc + "\n", "foo@1: A /some/path@2 | bar@3: "},
		{"Sitemap: " + loc + "\n" + body, "foo@2: A /some/path@3 | bar@4: "},
	} {
		r := ParseBytes([]byte(c.file))
		if len(r.Sitemaps) != 1 || r.Sitemaps[0] != loc {
			t.Errorf("%q: sitemaps %q, want [%q]", c.file, r.Sitemaps, loc)
		}
		if got := groupList(r); got != c.groups {
			t.Errorf("%q: groups %q, want %q", c.file, got, c.groups)
		}
	}
}

// TestGoogleSuitePathParamsQuery is TestGetPathParamsQuery: the path and
// query a URL is matched by. robowatch is given request targets (a log's,
// or check's PATH arguments): an origin-form target ("/a", "//a/b/c") is a
// path as it stands, and a target with neither '/' first nor a scheme is
// read as a path missing its '/'. Google is given URLs, and reads a string
// without a scheme as starting with a host name.
func TestGoogleSuitePathParamsQuery(t *testing.T) {
	cases := []struct {
		url, want string
		differs   string // Google's path, when robowatch's differs
	}{
		{"", "/", ""},
		{"http://www.example.com", "/", ""},
		{"http://www.example.com/", "/", ""},
		{"http://www.example.com/a", "/a", ""},
		{"http://www.example.com/a/", "/a/", ""},
		{"http://www.example.com/a/b?c=http://d.e/", "/a/b?c=http://d.e/", ""},
		{"http://www.example.com/a/b?c=d&e=f#fragment", "/a/b?c=d&e=f", ""},
		{"example.com", "/example.com", "/"},
		{"example.com/", "/example.com/", "/"},
		{"example.com/a", "/example.com/a", "/a"},
		{"example.com/a/", "/example.com/a/", "/a/"},
		{"example.com/a/b?c=d&e=f#fragment", "/example.com/a/b?c=d&e=f", "/a/b?c=d&e=f"},
		{"a", "/a", "/"},
		{"a/", "/a/", "/"},
		{"/a", "/a", ""},
		{"a/b", "/a/b", "/b"},
		{"example.com?a", "/example.com?a", "/?a"},
		{"example.com/a;b#c", "/example.com/a;b", "/a;b"},
		// A request for //a/b/c is served as /a/b/c (see TestDotSegments).
		{"//a/b/c", "//a/b/c", "/b/c"},
	}
	for _, c := range cases {
		p, slash := requestPath(c.url)
		if slash {
			p = "/" + p
		}
		if p != c.want {
			t.Errorf("requestPath(%q) = %q, want %q (Google: %q)", c.url, p, c.want, cmp.Or(c.differs, c.want))
		}
	}
}

// TestGoogleSuiteEscapePattern is TestMaybeEscapePattern: the canonical
// form of a pattern.
func TestGoogleSuiteEscapePattern(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"http://www.example.com", "http://www.example.com"},
		{"/a/b/c", "/a/b/c"},
		{"á", "%C3%A1"},
		{"%aa", "%AA"},
	} {
		if got := canonString(c.in); got != c.want {
			t.Errorf("canonString(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
