// Command robowatch reads web-server access logs and tells which clients are
// robots, how hard they hit the server, and which of them ignore robots.txt:
// bytes (input) → records (logparse) → verdicts (detect) → report. The
// command itself is cli.Main; this file only gives it the process.
package main

import (
	"os"

	"github.com/robowatch/robowatch/cli"
)

func main() {
	ctx, stop := cli.InterruptContext()
	defer stop()
	cli.LimitMemory()
	cli.StopAllocSampling()
	os.Exit(cli.Main(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
