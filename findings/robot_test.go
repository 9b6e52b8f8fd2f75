package findings

import "testing"

// TestJoinIdentity: a row is verified only when all its clients are, and
// then says every way they were.
func TestJoinIdentity(t *testing.T) {
	tests := []struct {
		a, byA, b, byB string
		want, wantBy   string
	}{
		{"verified", "ip-range", "verified", "ip-range", "verified", "ip-range"},
		{"verified", "ip-range", "verified", "dns", "verified", "dns,ip-range"},
		{"verified", "dns,ip-range", "verified", "signature", "verified", "dns,ip-range,signature"},
		{"verified", "dns", "verified", "dns,ip-range", "verified", "dns,ip-range"},
		{"verified", "ip-range", "unverified", "", "unverified", ""},
		{"unverified", "", "verified", "dns", "unverified", ""},
		{"impostor", "", "impostor", "", "impostor", ""},
		{"", "", "", "", "", ""},
	}
	for _, tt := range tests {
		id, by := joinIdentities(tt.a, tt.byA, tt.b, tt.byB)
		if id != tt.want || by != tt.wantBy {
			t.Errorf("joinIdentities(%q, %q, %q, %q) = %q, %q; want %q, %q", tt.a, tt.byA, tt.b, tt.byB, id, by, tt.want, tt.wantBy)
		}
	}
}
