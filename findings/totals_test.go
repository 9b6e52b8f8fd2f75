package findings

import (
	"math"
	"reflect"
	"testing"
)

// TestTotalsAddEveryCount: Add sums every count of Totals, so that a count
// added to the struct is merged by --workers and robowatch merge alike.
func TestTotalsAddEveryCount(t *testing.T) {
	var a, b Totals
	for _, x := range []*Totals{&a, &b} {
		v := reflect.ValueOf(x).Elem()
		for i := range v.NumField() {
			v.Field(i).SetInt(int64(i + 1))
		}
	}
	a.Add(&b)
	v := reflect.ValueOf(a)
	for i := range v.NumField() {
		if got := v.Field(i).Int(); got != 2*int64(i+1) {
			t.Errorf("%s: %d after Add, want %d", v.Type().Field(i).Name, got, 2*(i+1))
		}
	}
	a = Totals{RobotBytes: math.MaxInt64 - 1, WatchDropped: math.MaxInt64}
	a.Add(&Totals{RobotBytes: 5, WatchDropped: 1})
	if a.RobotBytes != math.MaxInt64 || a.WatchDropped != math.MaxInt64 {
		t.Errorf("saturating counts: robot bytes %d, watch dropped %d", a.RobotBytes, a.WatchDropped)
	}
}
