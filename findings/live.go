package findings

import "time"

// Events is told what a detect.Detector finds while it reads, not only at
// the end (detect.Config.Events): a live run streams it (robowatch -o
// jsonl, -F). The calls come from the goroutine calling the Detector's Add,
// Advance or Result, one at a time; the values are the caller's to keep.
//
// The final Result stays the verdict: an event says what was known when it
// was sent. A client judged a robot on its first requests may, with the
// rest of its traffic, end as a person (a robots.txt fetch followed by a
// browser's pages and assets); its Robot event is not taken back.
type Events interface {
	// Robot: a client judged a robot for the first time, on what it did so far.
	Robot(v Verdict)
	// Violation: a robots.txt violation by a client judged a robot. Those it
	// made before it was judged one follow its Robot event (as many as the
	// detector kept: detect.Config.MaxViolationsPerClient).
	Violation(v Violation)
	// Incident: a rapid-fire incident opened; its counts are those so far.
	Incident(in Incident)
	// IncidentEnd: an incident closed, with its final counts.
	IncidentEnd(in Incident)
}

// Live is what a detect.Detector has seen so far, for a running summary;
// the counts of robots, violations and incidents are those Events was told.
type Live struct {
	Time          time.Time `json:"time"`           // the log's clock: the latest record's time
	Records       int64     `json:"records"`        // records added
	Clients       int64     `json:"clients"`        // clients tracked now, plus those folded into other (estimated)
	Robots        int64     `json:"robots"`         // clients judged robots so far
	Violations    int64     `json:"violations"`     // violations of those robots
	Incidents     int64     `json:"incidents"`      // incidents opened
	OpenIncidents int       `json:"open_incidents"` // incidents not yet closed
	Expired       int64     `json:"expired"`        // clients idle past detect.Config.Expire, folded into other

	TopRobots []LiveRobot `json:"top_robots"` // filled by the caller (detect.Detector.TopRobots), for a running summary
}

// LiveRobot is what the clients judged robots under one name did so far.
type LiveRobot struct {
	Name       string `json:"name"` // "Name (impostor)" for clients whose claim their address belies
	Operator   string `json:"operator,omitempty"`
	Identity   string `json:"identity,omitempty"`
	Purpose    string `json:"purpose,omitempty"`
	Clients    int    `json:"clients"`
	Requests   int64  `json:"requests"`
	Violations int64  `json:"violations"`
	Incidents  int    `json:"incidents"`
}
