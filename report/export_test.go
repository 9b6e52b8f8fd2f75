package report

// The tests of package report_test run a real detect pass to make the
// findings they render, which package report's own files, its tests
// included, may not do (imports_test.go). What they read of report's
// internals is exported to them here, for tests only.

var (
	SuggestLint = suggestLint
	WriteCSV    = writeCSV
)
