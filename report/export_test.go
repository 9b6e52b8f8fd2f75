package report

import (
	"time"

	"github.com/robowatch/robowatch/findings"
)

// The tests of package report_test run a real detect pass to make the
// findings they render, which package report's own files, its tests
// included, may not do (imports_test.go). What they read of report's
// internals is exported to them here, for tests only.

// The functions the external tests call.
var (
	BuildSections   = buildSections
	Fit             = fit
	GroupViolations = groupViolations
	HTMLSections    = sections
	PathsSection    = pathsSection
	ShortenTimes    = shortenTimes
	Stack           = stack
	SuggestLint     = suggestLint
	WriteCSV        = writeCSV
)

// The constants the external tests compare the output with.
const (
	AnsiBrown       = ansiBrown
	AnsiRed         = ansiRed
	AnsiReset       = ansiReset
	MaxGroupPaths   = maxGroupPaths
	MdMaxText       = mdMaxText
	ShortTimeLayout = shortTimeLayout
	TimeLayout      = timeLayout
	WideTimes       = wideTimes
)

// The fields of a section and of a group of violations that
// TestFitKeepsIdentities and TestViolationsGrouped compare.

// Name is the section's --section name.
func (s *section) Name() string { return s.name }

// Header is every column name as fit left them, a key-value table's empty
// one too (htmlSection.Header, which the page reads, drops that).
func (s *section) Header() []string { return s.header }

// Rows is the section's cells.
func (s *section) Rows() [][]string { return s.rows }

// Flex marks the columns of free text, which may be cut to fit.
func (s *section) Flex() []bool { return s.flex }

// Keep marks the columns that tell rows apart, which are never cut.
func (s *section) Keep() []bool { return s.keep }

// Count is how many violations the group holds.
func (g *violationGroup) Count() int64 { return g.count }

// First is the group's earliest violation.
func (g *violationGroup) First() findings.Violation { return g.first }

// Last is the time of the group's latest violation.
func (g *violationGroup) Last() time.Time { return g.last }

// Paths is the group's first distinct paths.
func (g *violationGroup) Paths() []string { return g.paths }

// MorePaths reports whether the group had paths beyond Paths.
func (g *violationGroup) MorePaths() bool { return g.morePaths }
