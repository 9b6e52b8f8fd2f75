package robots

import "testing"

// TestDifferentialGoogle holds what a differential run against Google's
// robotstxt library (RobotsMatcher::OneAgentAllowedByRobots, on the real
// files in testdata and on generated adversarial ones) found robowatch
// answering wrongly. Differences that are robowatch's documented choices,
// or Google's own reading, are in google_conformance_test.go and the
// package comments, not here.
func TestDifferentialGoogle(t *testing.T) {
	const all = "user-agent: *\ndisallow: /\n"
	runMatchCases(t, []matchCase{
		// RFC 9309 2.2.2: /robots.txt is implicitly allowed (Google's
		// library does not do it: every /robots.txt disagreed). Sorting
		// those out showed robowatch allowing only the path as written:
		// a crawler that joins "https://host/" and "/robots.txt" asks for
		// //robots.txt, which nginx and Apache serve as /robots.txt, as
		// they do /x/../robots.txt and /%72obots.txt.
		{"//robots.txt", all, "FooBot", "//robots.txt", true, ""},
		{"absolute //robots.txt", all, "FooBot", "https://a.example//robots.txt", true, ""},
		{"/./robots.txt", all, "FooBot", "/./robots.txt", true, ""},
		{"/x/../robots.txt", all, "FooBot", "/x/../robots.txt", true, ""},
		{"escaped letter", all, "FooBot", "/%72obots.txt", true, ""},
		{"escaped dot", all, "FooBot", "/robots%2Etxt?x=1", true, ""},
		// Still other paths.
		{"escaped '?'", all, "FooBot", "/robots.txt%3Fx", false, "disallow: /"},
		{"robots.txt/", all, "FooBot", "/robots.txt/", false, "disallow: /"},
		{"robots.txt/..", all, "FooBot", "/robots.txt/..", false, "disallow: /"},
		{"ROBOTS.TXT", all, "FooBot", "/ROBOTS.TXT", false, "disallow: /"},
	})
}
