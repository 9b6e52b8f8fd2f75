package detect

// What the cross-site ledger (report/ledger.go) needs of a robots row.

// RobotRowName is the name of the robots row a robot client of name and
// identity counts in: "Name (impostor)" for an impostor.
func RobotRowName(name, identity string) string { return robotRowName(name, identity) }

// SumConduct is the conduct of parts together (the sites of a ledger):
// the counts added, the shares worked out again from the sums, never
// averaged, so that a site of ten sessions weighs as ten.
func SumConduct(parts []Conduct) Conduct {
	var k Conduct
	for i := range parts {
		k.add(&parts[i])
	}
	if k.Methods == nil {
		k.Methods = map[string]int64{}
	}
	k.finish()
	return k
}

// JoinIdentity is the identity of a row whose parts say a and b: one of
// them when they agree, unverified when they do not.
func JoinIdentity(a, b string) string {
	id, _ := joinIdentity(a, "", b, "")
	return id
}
