package cli

import (
	"slices"
	"strings"
	"testing"
)

// TestFollowed: -F follows the live logs and reads their rotated
// siblings, compressed files and standard input once.
func TestFollowed(t *testing.T) {
	compressed := func(n string) bool { return strings.HasSuffix(n, ".gz") }
	tests := []struct {
		names        []string
		once, follow []string
	}{
		{[]string{"access.log"}, nil, []string{"access.log"}},
		{[]string{"access.log.2.gz", "access.log.1", "access.log"}, []string{"access.log.2.gz", "access.log.1"}, []string{"access.log"}},
		{[]string{"access.log-20261123", "access.log"}, []string{"access.log-20261123"}, []string{"access.log"}},
		{[]string{"a.example.log", "b.example.log"}, nil, []string{"a.example.log", "b.example.log"}},
		{[]string{"-"}, []string{"-"}, nil},
		{[]string{"old.gz"}, []string{"old.gz"}, nil},
		// access.logger is another log, not a rotation of access.log.
		{[]string{"access.log", "access.logger"}, nil, []string{"access.log", "access.logger"}},
	}
	for _, tt := range tests {
		once, follow := Followed(tt.names, compressed)
		if !slices.Equal(once, tt.once) || !slices.Equal(follow, tt.follow) {
			t.Errorf("Followed(%q) = %q, %q; want %q, %q", tt.names, once, follow, tt.once, tt.follow)
		}
	}
}
