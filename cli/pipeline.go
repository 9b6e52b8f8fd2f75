package cli

import (
	"context"

	"github.com/robowatch/robowatch/detect"
	"github.com/robowatch/robowatch/input"
	"github.com/robowatch/robowatch/logparse"
	"github.com/robowatch/robowatch/pass"
	"github.com/robowatch/robowatch/report"
)

// Judge is pass.New for cfg and opt's workers: the root pipeline benchmark
// reads through it until it moves beside package pass.
func (opt *Analyse) Judge(cfg detect.Config) *pass.Pass {
	return pass.New(pass.Options{Detect: cfg, Workers: opt.Workers, Shard: opt.Shard, Proxies: opt.Proxies, Format: opt.Format, Strict: opt.Strict})
}

// ReadLog is p.Read, for the root pipeline benchmark, which passes no
// window, progress line or live output: p has none.
func (opt *Analyse) ReadLog(ctx context.Context, files *input.Files, name string, _ *logparse.Clip, p *pass.Pass, _ *report.Progress, _ pass.LiveOutput) (logparse.Stats, error) {
	return p.Read(ctx, files, name)
}
