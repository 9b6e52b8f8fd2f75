package report

import "testing"

// TestMdCell: what a log says is shown as it is in rendered Markdown, with
// no part of it read as a table's pipe, emphasis, a link, HTML or a
// character reference (an unescaped "&rlm;" rendered as U+200F, invisible).
func TestMdCell(t *testing.T) {
	tests := []struct{ in, want string }{
		{"Googlebot/2.1", "Googlebot/2.1"},
		{"a|b", `a\|b`},
		{"`code` **bold** _em_", "\\`code\\` \\*\\*bold\\*\\* \\_em\\_"},
		{"~~struck~~", `\~\~struck\~\~`},
		{"[link](http://x) #1", `\[link\](http\://x) \#1`},
		{"<script>alert(1)</script>", "&lt;script&gt;alert(1)&lt;/script&gt;"},
		{"Safe&rlm;Bot&zwj;", "Safe&amp;rlm;Bot&amp;zwj;"},
		{"&lt;b&gt; &amp; &#124;", `&amp;lt;b&amp;gt; &amp;amp; &amp;\#124;`},
		{`\x1b[31m`, `\\x1b\[31m`},
		// GitHub's autolinks: URLs, www. names, e-mail addresses.
		{"+https://evil.example/phish", `+https\://evil.example/phish`},
		{"(HTTP://EVIL.EXAMPLE)", `(HTTP\://EVIL.EXAMPLE)`},
		{"ftp://evil.example", `ftp\://evil.example`},
		{"www.evil.example WWW.EVIL.EXAMPLE", `www\.evil.example WWW\.EVIL.EXAMPLE`},
		{"bot@evil.example", "bot`@`evil.example"},
		{"mailto:a@@b.example", "mailto:a`@@`b.example"},
		{"`@`", "\\``@`\\`"},
		// Colons that begin no URL stay as they are.
		{"line 5: Disallow: /search", "line 5: Disallow: /search"},
		{"Mar 10 00:30:30", "Mar 10 00:30:30"},
		{`http\://x`, `http\\://x`},
	}
	for _, tt := range tests {
		if got := mdCell(tt.in); got != tt.want {
			t.Errorf("mdCell(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
