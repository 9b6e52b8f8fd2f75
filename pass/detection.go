package pass

import (
	"context"

	"github.com/robowatch/robowatch/agents"
	"github.com/robowatch/robowatch/detect"
	"github.com/robowatch/robowatch/findings"
	"github.com/robowatch/robowatch/logparse"
	"github.com/robowatch/robowatch/report"
)

// pass is a pass under way: the detection its records go to and what it
// read so far. Run makes one.
type pass struct {
	opt      Options
	clip     *logparse.Clip
	det      *detection
	progress *report.Progress // nil: none

	out        *Outcome // what the pass read and found so far (account)
	total      int      // how many inputs the pass reads in all
	digests    []string // fingerprints of the inputs read so far (inputs)
	digestsCut bool     // an input was not read to its end
	unread     int      // inputs whose error came before any record
}

func newPass(opt Options) *pass {
	if opt.Notes == nil {
		opt.Notes = quiet{}
	}
	return &pass{opt: opt, clip: &logparse.Clip{Since: opt.Since, Until: opt.Until}}
}

// verifyDNS checks by DNS, with Options.DNS, the robot claims the
// published ranges could not settle: a step between the last read and
// the Result; ctx ends it early. Without Options.DNS it does nothing.
func (p *pass) verifyDNS(ctx context.Context) {
	if p.opt.DNS != nil {
		p.det.VerifyDNS(ctx, p.opt.DNS)
	}
}

// detection is where a pass's records go: a Pool of Detectors on every
// core, or one Detector for a run that reports as it reads (-o jsonl, -F)
// or was asked for one worker.
type detection struct {
	*detect.Detector
	pool *detect.Pool
}

func newDetection(opt Options) *detection {
	if opt.Detect.Ranges == nil {
		// The built-in address ranges are decoded from JSON the first time
		// a verdict needs them, at the end of the pass: 4-5 ms on the one
		// goroutine that merges the workers' results while the other
		// core waits, and 2.5 MB of garbage over the report's peak.
		// Decoded now, beside the pass, they take neither.
		go agents.DefaultRanges()
	}
	if opt.Workers > 1 && opt.Detect.Events == nil && !opt.Follow {
		return &detection{pool: detect.NewPool(opt.Detect, opt.Workers)}
	}
	return &detection{Detector: detect.New(opt.Detect)}
}

// Close lets a Pool's goroutines end when the run ends without Result.
func (d *detection) Close() {
	if d.pool != nil {
		d.pool.Close()
	}
}

// NewInput tells the detection that another input starts (see
// detect.Detector.NewInput).
func (d *detection) NewInput() {
	if d.pool != nil {
		d.pool.NewInput()
	} else {
		d.Detector.NewInput()
	}
}

// Steps is how many times the log's clock went back so far.
func (d *detection) Steps() int64 {
	if d.pool != nil {
		return d.pool.Steps()
	}
	return d.Detector.Steps()
}

// VerifyDNS asks v about the robot claims the ranges could not settle
// (detect.Detector.VerifyDNS).
func (d *detection) VerifyDNS(ctx context.Context, v detect.DNSVerifier) {
	if d.pool != nil {
		d.pool.VerifyDNS(ctx, v)
		return
	}
	d.Detector.VerifyDNS(ctx, v)
}

// Result is the verdicts, once every input was read.
func (d *detection) Result() *findings.Result {
	if d.pool != nil {
		return d.pool.Result()
	}
	return d.Detector.Result()
}
