//go:build unix

package cli

import (
	"syscall"
	"testing"
	"time"
)

// TestInterruptCopiesAreOne: timeout(1) sends SIGINT to robowatch and then
// to its process group, so the same signal comes twice, on a loaded machine
// milliseconds apart. The copy must not kill the process while it writes
// the report the first one asked for (it did: "exit=130" and no report).
func TestInterruptCopiesAreOne(t *testing.T) {
	ctx, stop := InterruptContext()
	defer stop()
	sent := time.Now()
	if err := syscall.Kill(syscall.Getpid(), syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	select {
	case <-ctx.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("SIGINT did not cancel the context")
	}
	time.Sleep(20 * time.Millisecond) // the first signal is fully handled
	// A copy that comes a second after the first is the user's insistence,
	// and exits: on a machine so loaded that the test got here that late,
	// it would kill the test binary, proving nothing.
	if late := time.Since(sent); late > interruptGrace/2 {
		t.Skipf("the copy would come %v after the first signal: too late to be a copy", late)
	}
	if err := syscall.Kill(syscall.Getpid(), syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	// Had the copy taken the default action, the test binary would be dead.
	time.Sleep(100 * time.Millisecond)
}
