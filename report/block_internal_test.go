package report

import (
	"strings"
	"testing"
)

// TestCommentText: what may reach a block list's comment, byte by byte.
func TestCommentText(t *testing.T) {
	tests := []struct{ in, want string }{
		{"Scrapy: 3 robots.txt violations; 9 requests", "Scrapy: 3 robots.txt violations; 9 requests"},
		{"evil\ndeny all;", "evil?deny all;"},
		{"a\r\nb", "a??b"},
		{`q"uote\`, "q?uote?"},
		{"$(reboot) `id`", "?(reboot) ?id?"},
		{"\u202eeliforp", "?eliforp"},
		{"Scrapy, …", "Scrapy, ..."},
		{strings.Repeat("x", 20), "xxxxxxxxxx..."},
	}
	for _, tt := range tests {
		max := 300
		if len(tt.in) == 20 {
			max = 10
		}
		if got := commentText(tt.in, max); got != tt.want {
			t.Errorf("commentText(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
