package findings

// What the cross-site ledger (report/ledger.go) needs of a robots row.

// SumConduct is the conduct of parts together (the sites of a ledger):
// the counts added, the shares worked out again from the sums, never
// averaged, so that a site of ten sessions weighs as ten.
func SumConduct(parts []Conduct) Conduct {
	var k Conduct
	for i := range parts {
		k.Add(&parts[i])
	}
	if k.Methods == nil {
		k.Methods = map[string]int64{}
	}
	k.Finish()
	return k
}

// JoinIdentity is the identity of a row whose parts say a and b: one of
// them when they agree, unverified when they do not.
func JoinIdentity(a, b string) string {
	id, _ := joinIdentities(a, "", b, "")
	return id
}
