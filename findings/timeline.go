package findings

import (
	"encoding/json"
	"math"
	"time"
)

// MaxBins bounds the buckets of a timeline.
const MaxBins = 200

// TopRobotTimelines is how many robot names get a timeline of their own.
const TopRobotTimelines = 10

// binWidths is the ladder of bucket widths in seconds; each divides the
// next. Past the last, widths double.
var binWidths = [...]int64{1, 5, 10, 30, 60, 300, 600, 1800, 3600, 7200, 21600, 43200, 86400}

// Timeline is the site's requests over time in equal buckets, split into
// robots and humans by the final verdicts.
type Timeline struct {
	Start         time.Time       `json:"start"`           // start of the first bucket, in the log's zone
	BucketSeconds int64           `json:"bucket_seconds"`  // width of a bucket
	Requests      []int64         `json:"requests"`        // timed records per bucket
	Robots        []int64         `json:"robots"`          // of them by clients judged robots
	Humans        []int64         `json:"humans"`          // by the other clients
	Other         []int64         `json:"other,omitempty"` // by clients folded together (--max-clients): not judged
	Untimed       int64           `json:"untimed"`         // records without a time, in no bucket
	Estimated     int64           `json:"estimated"`       // robot requests placed by estimate (memory bound reached)
	ByRobot       []RobotTimeline `json:"by_robot"`        // the TopRobotTimelines robot names with most requests
}

// RobotTimeline is the requests of the clients of one robot name over time,
// on the buckets of the Timeline.
type RobotTimeline struct {
	Name     string  `json:"name"`
	Requests []int64 `json:"requests"`
}

// FloorDiv divides rounding towards minus infinity.
func FloorDiv(a, b int64) int64 {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

// LadderWidth is the bucket width at ladder step i.
func LadderWidth(i int) int64 {
	if i < len(binWidths) {
		return binWidths[i]
	}
	w := binWidths[len(binWidths)-1]
	for k := len(binWidths) - 1; k < i && w < math.MaxInt64/4; k++ {
		w *= 2
	}
	return w
}

// timelineFields is Timeline without its methods, for its JSON.
type timelineFields Timeline

// timelineJSON writes Start as null when there is no bucket (an input
// without timed records), not as the year 1; the outer Start hides the
// embedded one, and comes first as before.
type timelineJSON struct {
	Start *time.Time `json:"start"`
	*timelineFields
}

// MarshalJSON writes the timeline; "start" is null when it has no bucket.
func (t Timeline) MarshalJSON() ([]byte, error) {
	out := timelineJSON{timelineFields: (*timelineFields)(&t)}
	if !t.Start.IsZero() {
		out.Start = &t.Start
	}
	return json.Marshal(out)
}

// UnmarshalJSON reads what MarshalJSON wrote, "start": null included.
func (t *Timeline) UnmarshalJSON(b []byte) error {
	in := timelineJSON{timelineFields: (*timelineFields)(t)}
	if err := json.Unmarshal(b, &in); err != nil {
		return err
	}
	t.Start = time.Time{}
	if in.Start != nil {
		t.Start = *in.Start
	}
	return nil
}
