package findings

import "time"

// Incident is a rapid-fire incident: a maximal stretch of time in which one
// client stayed above the rate threshold.
type Incident struct {
	IP            string    `json:"ip"`
	UserAgent     string    `json:"user_agent"`
	Name          string    `json:"name"`
	Start         time.Time `json:"start"` // first second of the stretch
	End           time.Time `json:"end"`   // last second of the stretch (inclusive)
	Seconds       int64     `json:"seconds"`
	Requests      int64     `json:"requests"`
	PeakPerSecond int       `json:"peak_per_second"`
	Paths         int       `json:"paths"`                    // distinct paths (query included)
	PerSecond     []int     `json:"per_second"`               // requests in each second from Start (at most 3,600)
	PerSecondCut  bool      `json:"per_second_cut,omitempty"` // PerSecond ends before End: too long or memory bound
	PathsCapped   bool      `json:"paths_capped,omitempty"`   // Paths is a lower bound
	Bytes         int64     `json:"bytes"`
	Status        StatusMix `json:"status"`

	// Severity ranks incidents, worst first in every list (see severity).
	Severity int64 `json:"severity"`
	// Verdict is the client's: the robot's name, or VerdictHuman for a
	// client judged a person, whose busy minute is no robot's incident.
	// Lists put people's incidents after every robot's. Empty in a report
	// written before the field (a merged part): taken for a robot's.
	Verdict string `json:"verdict,omitempty"`
}

// VerdictHuman is an incident's Verdict when its client was judged human.
const VerdictHuman = "human"

// Human reports whether the incident is of a client judged human.
func (in *Incident) Human() bool { return in.Verdict == VerdictHuman }

// humanLast orders a robot's incident before a person's.
func humanLast(a, b *Incident) int {
	switch {
	case a.Human() == b.Human():
		return 0
	case b.Human():
		return -1
	}
	return 1
}

// StatusMix counts answers by status class.
type StatusMix struct {
	S2xx  int64 `json:"2xx"`
	S3xx  int64 `json:"3xx"`
	S4xx  int64 `json:"4xx"`
	S5xx  int64 `json:"5xx"`
	Other int64 `json:"other"`
}
