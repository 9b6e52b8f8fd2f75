package cli

import (
	"fmt"
	"io"
	"iter"
	"strings"
	"unicode/utf8"

	"github.com/spf13/pflag"
)

// Help texts are written in a small markup, so that they can be wrapped to
// any width without breaking a command in the middle of a word:
//
//   - a line of text, and the lines after it up to a blank line, is a
//     paragraph, filled to the width;
//   - a line with no indent ending in ":" is a heading;
//   - a line indented by two spaces is a command line (a synopsis, or an
//     example under "Examples:"), broken between its shell words: an
//     example's continuation lines end in " \" so that it still pastes;
//   - "  # text" is a comment on the example below it, filled after "# ";
//   - a line starting with a tab says what the command line above it does,
//     filled under it.

// Indents of the help layout.
const (
	helpIndent     = "  "     // commands, flags
	helpContIndent = "    "   // continuation lines of a command
	helpMoreIndent = "      " // what a command or flag does
	helpMinWidth   = 40       // below it, nothing is readable: wrap as if 40
	helpWidth      = 80       // not a terminal and no $COLUMNS
)

// helpColumns is the width to wrap help to: the terminal's that stdout is,
// else $COLUMNS, else 80.
func helpColumns(stdout io.Writer) int {
	w := width(stdout, 0, false)
	if w == 0 {
		w = helpWidth
	}
	return max(w, helpMinWidth)
}

// writeHelp writes the usage text (in the markup above) and then the flags
// of fs, wrapped to cols columns.
func writeHelp(w io.Writer, usage string, fs *pflag.FlagSet, cols int) {
	var b strings.Builder
	var para []string
	flush := func() {
		if len(para) > 0 {
			fill(&b, strings.Join(para, " "), "", "", cols)
			para = nil
		}
	}
	examples := false
	for line := range strings.Lines(usage) {
		line = strings.TrimRight(line, "\n")
		switch {
		case line == "":
			flush()
			b.WriteString("\n")
		case strings.HasPrefix(line, "\t"):
			flush()
			fill(&b, strings.TrimSpace(line), helpMoreIndent, helpMoreIndent, cols)
		case strings.HasPrefix(line, helpIndent+"# "):
			flush()
			fill(&b, strings.TrimPrefix(line, helpIndent+"# "), helpIndent+"# ", helpIndent+"# ", cols)
		case strings.HasPrefix(line, helpIndent):
			flush()
			command(&b, strings.TrimSpace(line), examples, cols)
		case !strings.HasPrefix(line, " ") && strings.HasSuffix(line, ":"):
			flush()
			examples = line == "Examples:"
			b.WriteString(line + "\n")
		default:
			para = append(para, strings.TrimSpace(line))
		}
	}
	flush()
	io.WriteString(w, b.String())
	writeFlags(w, fs, cols)
}

// fill writes text filled to cols columns, its first line after first and
// the others after rest. A word longer than the line gets a line of its own.
func fill(b *strings.Builder, text, first, rest string, cols int) {
	line, n := first, utf8.RuneCountInString(first)
	start := n // where the line's text starts: no word yet when n == start
	for word := range words(text, cols-utf8.RuneCountInString(rest)) {
		wn := utf8.RuneCountInString(word)
		if n > start && n+1+wn > cols {
			b.WriteString(line + "\n")
			line, n = rest, utf8.RuneCountInString(rest)
			start = n
		}
		if n > start {
			line, n = line+" ", n+1
		}
		line, n = line+word, n+wn
	}
	b.WriteString(line + "\n")
}

// words are the words of text, a word wider than cols split after its
// commas (a list such as headline,summary,robots) where it can be.
func words(text string, cols int) iter.Seq[string] {
	return func(yield func(string) bool) {
		for word := range strings.FieldsSeq(text) {
			for utf8.RuneCountInString(word) > cols {
				i := strings.LastIndex(word[:min(len(word), cols)], ",")
				if i < 0 {
					break
				}
				if !yield(word[:i+1]) {
					return
				}
				word = word[i+1:]
			}
			if !yield(word) {
				return
			}
		}
	}
}

// command writes a command line broken between its shell words to fit
// cols: the continuation lines indented further, and, for an example,
// ended in " \" so that a paste runs it.
func command(b *strings.Builder, cmd string, example bool, cols int) {
	cont := ""
	if example {
		cont = " \\"
	}
	line, n := helpIndent, len(helpIndent)
	start := n
	for _, word := range shellWords(cmd) {
		wn := utf8.RuneCountInString(word)
		if n > start && n+1+wn+len(cont) > cols {
			b.WriteString(line + cont + "\n")
			line, n = helpContIndent, len(helpContIndent)
			start = n
		}
		if n > start {
			line, n = line+" ", n+1
		}
		line, n = line+word, n+wn
	}
	b.WriteString(line + "\n")
}

// shellWords splits a command line at the spaces outside quotes, as a shell
// would, keeping the quotes: the words can be put back together with
// spaces or with " \" and a newline.
func shellWords(cmd string) []string {
	var words []string
	var quote rune
	start := -1
	for i, r := range cmd {
		switch {
		case quote != 0:
			if r == quote {
				quote = 0
			}
		case r == '\'' || r == '"':
			quote = r
		case r == ' ':
			if start >= 0 {
				words = append(words, cmd[start:i])
				start = -1
			}
			continue
		}
		if start < 0 {
			start = i
		}
	}
	if start >= 0 {
		words = append(words, cmd[start:])
	}
	return words
}

// writeFlags lists the flags of fs (not the hidden ones) as the flag
// package does, the name on one line and what it does filled under it: at
// 80 columns, a second column would leave the descriptions 45 of them.
func writeFlags(w io.Writer, fs *pflag.FlagSet, cols int) {
	var b strings.Builder
	fs.VisitAll(func(f *pflag.Flag) {
		if f.Hidden {
			return
		}
		name := "--" + f.Name
		if f.Shorthand != "" {
			name = "-" + f.Shorthand + ", --" + f.Name
		}
		varname, usage := pflag.UnquoteUsage(f)
		if varname != "" {
			name += " " + varname
		}
		b.WriteString(helpIndent + name + "\n")
		if def := shownDefault(f); def != "" {
			usage += " (default " + def + ")"
		}
		fill(&b, usage, helpMoreIndent, helpMoreIndent, cols)
	})
	io.WriteString(w, b.String())
}

// shownDefault is f's default as the help shows it, "" for a zero value,
// which goes without saying.
func shownDefault(f *pflag.Flag) string {
	switch f.DefValue {
	case "", "0", "false", "[]", "0s":
		return ""
	}
	if f.Value.Type() == "string" {
		return fmt.Sprintf("%q", f.DefValue)
	}
	return f.DefValue
}
