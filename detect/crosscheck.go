package detect

import (
	"time"

	"github.com/robowatch/robowatch/logparse"
)

// checker is the robots.txt cross-check; it lands with the robots package.
type checker struct{ enabled bool }

func (k *checker) init(cfg *Config) {}

func (d *Detector) check(c *client, r *logparse.Record, path string, res resource) {}

// clientViolations is one client's disallowed requests.
type clientViolations struct {
	n        int64
	first    time.Time
	list     []Violation
	prefixes map[string]int64
}

func (d *Detector) violations(c *client) []Violation { return nil }

func (d *Detector) crawlDelayDetail(c *client, robot bool) string { return "" }
