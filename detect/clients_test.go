package detect

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"
	"time"
	"unsafe"

	"github.com/robowatch/robowatch/findings"
	"github.com/robowatch/robowatch/logparse"
)

// TestClientList reads the sample log and checks what the report relies
// on: reading a verdict twice gives the same one, Find finds each client
// (with its index and in the zero-value way), and the list marshals as an
// array whether the Result is marshalled by pointer or copied.
func TestClientList(t *testing.T) {
	d := New(Config{})
	recs := readSample(t)
	for i := range recs {
		d.Add(&recs[i])
	}
	res := d.Result()
	l := res.Clients
	if l.Len() < 10 {
		t.Fatalf("%d clients", l.Len())
	}
	flat := findings.ClientListOf(l.Head(-1)) // a list of verdicts, as merge reads back
	for i := range l.Len() {
		v := l.At(i)
		if again := l.At(i); !reflect.DeepEqual(v, again) {
			t.Fatalf("client %d: a second reading differs:\n%+v\n%+v", i, v, again)
		}
		for _, list := range []findings.ClientList{l, flat} {
			if got, ok := list.Find(v.IP, v.UserAgent); !ok || !reflect.DeepEqual(got, v) {
				t.Fatalf("Find(%s, %q) = %v, %+v", v.IP, v.UserAgent, ok, got)
			}
		}
	}
	if _, ok := l.Find("203.0.113.255", "nobody"); ok {
		t.Error("Find found a client the log does not have")
	}
	byPointer, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	byValue, err := json.Marshal(*res)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(byPointer, byValue) || !bytes.Contains(byValue, []byte(`"clients":[{"ip":`)) {
		t.Errorf("Result marshals differently by value:\n%.300s\n%.300s", byPointer, byValue)
	}
	var heads []findings.Verdict
	for v := range l.All() {
		heads = append(heads, v)
	}
	if !reflect.DeepEqual(heads, l.Head(-1)) || !reflect.DeepEqual(l.Head(3), heads[:3]) {
		t.Error("All and Head disagree")
	}
}

// TestClientRecordSize pins the client record's size: a log where every
// line is a new client is made of these records, which sit side by side
// in clientTable's chunks (241 bytes would take 248, 2 MB more on the
// 300,000-line churn log's 250,000 clients). A change that shrinks the
// record lowers the pin; one that grows it must say why.
func TestClientRecordSize(t *testing.T) {
	if got, want := unsafe.Sizeof(client{}), uintptr(240); got != want {
		t.Errorf("client record of %d bytes, want %d", got, want)
	}
	// A chunk of records fills the 32 KiB size class it is allocated in:
	// a size that changes the record changes clientChunk too.
	if n := unsafe.Sizeof(client{}); n*clientChunk > 32<<10 || n*(clientChunk+1) <= 32<<10 {
		t.Errorf("%d records of %d bytes do not fill 32 KiB", clientChunk, n)
	}
	if got, want := unsafe.Sizeof(clientPanel{}), uintptr(56); got != want {
		t.Errorf("clientPanel of %d bytes, want %d (a size class of 64)", got, want)
	}
	if got, want := unsafe.Sizeof(agentInfo{}), uintptr(40); got != want {
		t.Errorf("agentInfo of %d bytes, want %d", got, want)
	}
	if n := unsafe.Sizeof(agentInfo{}); n*tableChunk > 4<<10 || n*(tableChunk+1) <= 4<<10 {
		t.Errorf("%d User-agent records of %d bytes do not fill 4 KiB", tableChunk, n)
	}
}

// TestVerdictNetworkAsString: a verdict's network is written with
// Prefix.AppendTo; it must be what Prefix.String says, for IPv4, IPv6 and
// mapped IPv4 addresses, and empty for a host name.
func TestVerdictNetworkAsString(t *testing.T) {
	d := New(Config{})
	ips := []string{"192.0.2.7", "::1", "2001:db8:ffff:1::9", "::ffff:198.51.100.4", "fe80::1", "crawl.example.net"}
	for i, ip := range ips {
		d.Add(&logparse.Record{Client: ip, UserAgent: "curl/8.0", Method: "GET", Target: "/", Status: 200, Time: t0.Add(time.Duration(i) * time.Second)})
	}
	res := d.Result()
	if res.Clients.Len() != len(ips) {
		t.Fatalf("%d clients, want %d", res.Clients.Len(), len(ips))
	}
	for v := range res.Clients.All() {
		want := ""
		if p, ok := findings.NetworkOf(v.IP); ok {
			want = p.String()
		}
		if v.Network != want {
			t.Errorf("%s: network %q, want %q", v.IP, v.Network, want)
		}
	}
}
