package pass

import (
	"slices"
	"strings"
	"testing"
)

// TestFollowed: -F follows the live logs and reads their rotated
// siblings, compressed files, standard input and what is no regular
// file once.
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
	// A directory, like a FIFO or a device, is there but is no log that
	// grows: it is read once (and its read says what is wrong with it).
	dir := t.TempDir()
	tests = append(tests, struct {
		names        []string
		once, follow []string
	}{[]string{dir, "access.log"}, []string{dir}, []string{"access.log"}})
	for _, tt := range tests {
		once, follow := followed(tt.names, compressed)
		if !slices.Equal(once, tt.once) || !slices.Equal(follow, tt.follow) {
			t.Errorf("followed(%q) = %q, %q; want %q, %q", tt.names, once, follow, tt.once, tt.follow)
		}
	}
}
