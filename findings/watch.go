package findings

import "time"

// ClientTimeline is the drill-down of one watched client.
type ClientTimeline struct {
	IP        string        `json:"ip"`
	UserAgent string        `json:"user_agent"`
	Minutes   []MinuteCount `json:"per_minute"`         // requests per minute, minutes with requests only, in time order
	Cut       bool          `json:"per_minute_cut"`     // some minutes were not kept (maxWatchMinutes, maxWatchMinutesAll)
	RobotsTxt []Fetch       `json:"robots_txt_fetches"` // fetches of /robots.txt, in log order (at most 100)
	First     []Request     `json:"first_requests"`     // the first WatchRequests requests, in log order
	Last      []Request     `json:"last_requests"`      // the last WatchRequests requests (none that First already has), in log order
	Skipped   int64         `json:"skipped_requests"`   // requests between First and Last
}

// MinuteCount is how many requests began in one minute.
type MinuteCount struct {
	Minute   time.Time `json:"minute"`
	Requests int       `json:"requests"`
}

// Fetch is one request for /robots.txt.
type Fetch struct {
	Time   time.Time `json:"time"`
	Status int       `json:"status"`
}

// Request is one request as logged, for a drill-down.
type Request struct {
	Time    time.Time `json:"time"`
	Method  string    `json:"method"`
	Path    string    `json:"path"`
	Status  int       `json:"status"`
	Bytes   int64     `json:"bytes"`
	Referer string    `json:"referer"`
}
