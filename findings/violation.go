package findings

import "time"

// Violation is one request of a robot that robots.txt disallows.
type Violation struct {
	IP        string    `json:"ip"`
	UserAgent string    `json:"user_agent"`
	Name      string    `json:"name"`
	Time      time.Time `json:"time"`
	Method    string    `json:"method"`
	Path      string    `json:"path"`
	Status    int       `json:"status"`
	Group     string    `json:"group"` // the robots.txt group that applied
	Rule      string    `json:"rule"`  // the rule as written, "Disallow: /admin/"
	Line      int       `json:"line"`  // its line in robots.txt

	// RobotsTxtFrom is when the robots.txt version judged against came
	// into force (RFC 3339); "" for the only one, or one in force from the
	// start of the log.
	RobotsTxtFrom string `json:"robots_txt_from"`
	// RobotsTxtCopy is how that version was chosen, when there are
	// several: "fetched" (the robot's last 2xx fetch of robots.txt, at most
	// 24 h before, got it), "fetched, told by size" (the answer's size was
	// that version's), "in force" (no fetch in the 24 h before: every
	// version in force then disallows the request).
	RobotsTxtCopy string `json:"robots_txt_copy,omitempty"`
	// RobotsTxtFetched is the time of that fetch, for the first two.
	RobotsTxtFetched *time.Time `json:"robots_txt_fetched,omitempty"`
	// LastFetch and LastFetchStatus are the robot's latest fetch of
	// robots.txt before the request, whatever it was answered; absent
	// when it had fetched none or there is one robots.txt (the drill-down
	// lists the fetches).
	LastFetch       *time.Time `json:"last_robots_txt_fetch,omitempty"`
	LastFetchStatus int        `json:"last_robots_txt_status,omitempty"`
}
