package report

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/mattn/go-runewidth"

	"github.com/robowatch/robowatch/robots"
)

// CheckFormats names the formats WriteCheck and WriteLint accept; "table"
// is the same as "text", so that the main report's default works here too.
var CheckFormats = []string{"text", "table", "json", "csv"}

// ruleWidth bounds a quoted rule in text output: a robots.txt line can be
// hundreds of KiB long.
const ruleWidth = 160

// jsonDecision is one path of `robowatch check -o json`. The names path,
// allowed, group, rule and line are a contract for scripts: only add fields.
type jsonDecision struct {
	Path    string `json:"path"`
	Allowed bool   `json:"allowed"`
	Group   string `json:"group"`   // "" when no group applies
	Rule    string `json:"rule"`    // the deciding line as written; "" when no rule decided
	Line    int    `json:"line"`    // its line number; 0 when no rule decided or the rule is not from the file
	Pattern string `json:"pattern"` // the deciding rule's path pattern; "" when none
}

// jsonProblem is one finding of `robowatch check --lint -o json`.
type jsonProblem struct {
	Line       int    `json:"line"` // 0 for the whole file
	Severity   string `json:"severity"`
	Code       string `json:"code"`
	Message    string `json:"message"`
	Suggestion string `json:"suggestion"`
}

// WriteCheck renders the answers of `robowatch check`, one per path: as
// text ("disallowed  /cgi-bin/x  group *  line 12: Disallow: /cgi-bin/"),
// as a JSON array of {"path", "allowed", "group", "rule", "line", "pattern"}
// objects, or as CSV with those columns.
func WriteCheck(w io.Writer, format string, results []robots.Decision) error {
	switch format {
	case "", "text", "table":
		return writeCheckText(w, results)
	case "json":
		rows := make([]jsonDecision, 0, len(results))
		for _, d := range results {
			row := jsonDecision{Path: d.Path, Allowed: d.Allowed, Group: d.Group}
			if d.Rule != nil {
				row.Rule, row.Line, row.Pattern = d.Rule.Text, d.Rule.Line, d.Rule.Pattern
			}
			rows = append(rows, row)
		}
		return encodeJSON(w, rows)
	case "csv":
		// Groups, rules and patterns come from a robots.txt, which may be
		// anyone's (--robots https://…): the cells are written as the
		// report's CSV writes the log's text (see csvCell).
		cw := newCSVWriter(w)
		cw.Write([]string{"path", "allowed", "group", "rule", "line", "pattern"})
		for _, d := range results {
			rule, line, pattern := "", 0, ""
			if d.Rule != nil {
				rule, line, pattern = d.Rule.Text, d.Rule.Line, d.Rule.Pattern
			}
			cw.Write([]string{csvCell(d.Path), csvCell(d.Allowed), csvCell(d.Group), csvCell(rule), csvCell(line), csvCell(pattern)})
		}
		cw.Flush()
		if err := cw.Error(); err != nil {
			return fmt.Errorf("report: writing check results: %w", err)
		}
		return nil
	}
	return fmt.Errorf("report: check output format %q: want one of %s", format, strings.Join(CheckFormats, ", "))
}

func writeCheckText(w io.Writer, results []robots.Decision) error {
	// Columns are aligned up to a limit, so one long path does not push
	// every other line to the right.
	const maxPad = 48
	pathW, groupW := 0, 0
	rows := make([][3]string, len(results))
	for i, d := range results {
		verdict := "allowed"
		if !d.Allowed {
			verdict = "disallowed"
		}
		path := Escape(d.Path)
		group := "no group applies"
		if d.Group != "" {
			group = "group " + Escape(d.Group)
		}
		rows[i] = [3]string{verdict, path, group}
		pathW = max(pathW, min(runewidth.StringWidth(path), maxPad))
		groupW = max(groupW, min(runewidth.StringWidth(group), maxPad))
	}
	var b strings.Builder
	for i, d := range results {
		r := rows[i]
		fmt.Fprintf(&b, "%-10s  %s  %s  ", r[0], pad(r[1], pathW), pad(r[2], groupW))
		switch {
		case d.Rule == nil && d.Group == "":
			b.WriteString("(everything allowed)")
		case d.Rule == nil:
			b.WriteString("(no rule matches)")
		case d.Rule.Line == 0:
			b.WriteString(Cut(d.Rule.Text, ruleWidth))
		default:
			fmt.Fprintf(&b, "line %d: %s", d.Rule.Line, Cut(d.Rule.Text, ruleWidth))
		}
		b.WriteString("\n")
	}
	_, err := io.WriteString(w, b.String())
	if err != nil {
		return fmt.Errorf("report: writing check results: %w", err)
	}
	return nil
}

// WriteLint renders what `robowatch check --lint` found in the robots.txt
// named source: as text, one "source:line: severity: message (code)" line
// per problem with its suggestion below and a count at the end; as a JSON
// array of {"line", "severity", "code", "message", "suggestion"}; or as CSV.
func WriteLint(w io.Writer, format, source string, problems []robots.Problem) error {
	switch format {
	case "", "text", "table":
		return writeLintText(w, source, problems)
	case "json":
		rows := make([]jsonProblem, 0, len(problems))
		for _, p := range problems {
			rows = append(rows, jsonProblem{p.Line, p.Severity.String(), p.Code, p.Message, p.Suggestion})
		}
		return encodeJSON(w, rows)
	case "csv":
		cw := newCSVWriter(w)
		cw.Write([]string{"line", "severity", "code", "message", "suggestion"})
		for _, p := range problems {
			// Messages and suggestions quote the robots.txt (see WriteCheck).
			cw.Write([]string{csvCell(p.Line), csvCell(p.Severity.String()), csvCell(p.Code), csvCell(p.Message), csvCell(p.Suggestion)})
		}
		cw.Flush()
		if err := cw.Error(); err != nil {
			return fmt.Errorf("report: writing lint results: %w", err)
		}
		return nil
	}
	return fmt.Errorf("report: lint output format %q: want one of %s", format, strings.Join(CheckFormats, ", "))
}

func writeLintText(w io.Writer, source string, problems []robots.Problem) error {
	var b strings.Builder
	src := Escape(source)
	counts := map[robots.Severity]int{}
	for _, p := range problems {
		counts[p.Severity]++
		if p.Line > 0 {
			fmt.Fprintf(&b, "%s:%d: %s: %s (%s)\n", src, p.Line, p.Severity, Escape(p.Message), p.Code)
		} else {
			fmt.Fprintf(&b, "%s: %s: %s (%s)\n", src, p.Severity, Escape(p.Message), p.Code)
		}
		if p.Suggestion != "" {
			fmt.Fprintf(&b, "    suggestion: %s\n", Escape(p.Suggestion))
		}
	}
	if len(problems) == 0 {
		fmt.Fprintf(&b, "%s: no problems found\n", src)
	} else {
		var parts []string
		for _, s := range []robots.Severity{robots.Error, robots.Warning, robots.Notice} {
			if n := counts[s]; n > 0 {
				parts = append(parts, plural(n, s.String()))
			}
		}
		fmt.Fprintf(&b, "%s: %s\n", src, strings.Join(parts, ", "))
	}
	if _, err := io.WriteString(w, b.String()); err != nil {
		return fmt.Errorf("report: writing lint results: %w", err)
	}
	return nil
}

// pad fills s with spaces to width terminal columns.
func pad(s string, width int) string {
	if n := width - runewidth.StringWidth(s); n > 0 {
		return s + strings.Repeat(" ", n)
	}
	return s
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return strconv.Itoa(n) + " " + what + "s"
}

func encodeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return fmt.Errorf("report: writing JSON: %w", err)
	}
	return nil
}
