package pass

import (
	"context"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/robowatch/robowatch/findings"
	"github.com/robowatch/robowatch/input"
	"github.com/robowatch/robowatch/logparse"
)

// newReadyPass is a pass of opt with its detection made, for the tests
// that read inputs one by one, as Run does once it has its window.
func newReadyPass(opt Options) *pass {
	p := newPass(opt)
	p.det = newDetection(p.opt)
	return p
}

// notesSeen keeps what a pass told its Notes.
type notesSeen struct {
	inputs []string
	errs   []error
}

func (n *notesSeen) Duplicate(input.Duplicate) {}
func (n *notesSeen) StepBack(string, bool)     {}
func (n *notesSeen) Input(name string, _ logparse.Stats, err error) {
	n.inputs, n.errs = append(n.inputs, name), append(n.errs, err)
}
func (n *notesSeen) Following(input.FollowEvent) {}

// TestRunNothingRead: a pass whose only input cannot be opened tells its
// Notes and stops: there is nothing to report.
func TestRunNothingRead(t *testing.T) {
	notes := &notesSeen{}
	missing := filepath.Join(t.TempDir(), "access.log")
	o, err := Run(context.Background(), Options{Names: []string{missing}, Workers: 1, Notes: notes})
	if err != nil {
		t.Fatal(err)
	}
	if !o.Stopped || o.Result != nil || len(o.Errors) != 1 {
		t.Errorf("Stopped %v, Result %v, Errors %q; want a stopped pass with one error", o.Stopped, o.Result, o.Errors)
	}
	if len(notes.inputs) != 1 || notes.inputs[0] != missing || notes.errs[0] == nil {
		t.Errorf("Notes.Input got %q, %v; want %s with its error", notes.inputs, notes.errs, missing)
	}
}

// TestRunStrategiesAgree: record by record into one Detector and block by
// block into a Pool read the same counts, and the shards of a --shard
// split add up to the whole.
func TestRunStrategiesAgree(t *testing.T) {
	sample := filepath.Join("..", "testdata", "sample.log.gz")
	run := func(workers int, shard findings.Shard) *Outcome {
		t.Helper()
		o, err := Run(context.Background(), Options{Names: []string{sample}, Workers: workers, Shard: shard})
		if err != nil || o.Stopped {
			t.Fatalf("workers %d shard %v: %v, stopped %v", workers, shard, err, o != nil && o.Stopped)
		}
		return o
	}
	one, pool := run(1, findings.Shard{}), run(4, findings.Shard{})
	if !reflect.DeepEqual(one.Stats, pool.Stats) || one.Result.RobotCount != pool.Result.RobotCount || one.Result.DistinctClients != pool.Result.DistinctClients {
		t.Errorf("one Detector: %+v, %d robots; a Pool: %+v, %d robots", one.Stats, one.Result.RobotCount, pool.Stats, pool.Result.RobotCount)
	}
	if len(one.Inputs) != 1 || !reflect.DeepEqual(one.Inputs, pool.Inputs) {
		t.Errorf("inputs %q and %q; want one fingerprint, the same", one.Inputs, pool.Inputs)
	}
	var lines, records int64
	for i := 1; i <= 2; i++ {
		o := run(1, findings.Shard{I: i, N: 2})
		lines, records = lines+o.Stats.Lines, records+o.Stats.Records
	}
	if lines != one.Stats.Lines || records != one.Stats.Records {
		t.Errorf("shards read %d lines, %d records; the whole %d, %d", lines, records, one.Stats.Lines, one.Stats.Records)
	}
}
