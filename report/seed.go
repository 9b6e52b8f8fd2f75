package report

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"

	"github.com/robowatch/robowatch/findings"
)

// ReadSeed reads the JSON report of the day before, for a run that starts
// from its robots' edges (--state-from): the edges and the SHA-256 of the
// file, which the run's report names so that merge knows the days were
// joined.
func ReadSeed(name string, r io.Reader) ([]findings.ClientEdge, string, error) {
	var p struct {
		Version int `json:"version"`
		Summary *struct {
			Records int64 `json:"records"`
		} `json:"summary"`
		State *struct {
			Version int                   `json:"version"`
			Edges   []findings.ClientEdge `json:"edges"`
		} `json:"state"`
	}
	h := sha256.New()
	if err := json.NewDecoder(io.TeeReader(r, h)).Decode(&p); err != nil {
		return nil, "", fmt.Errorf("%s: not a robowatch JSON report: %w", name, err)
	}
	if _, err := io.Copy(h, r); err != nil { // the digest is of the whole file, as merge takes it
		return nil, "", fmt.Errorf("%s: %w", name, err)
	}
	switch {
	case p.Version != Version:
		return nil, "", fmt.Errorf("%s: JSON report version %d; this robowatch reads version %d", name, p.Version, Version)
	case p.State == nil || p.State.Version != StateVersion || p.State.Edges == nil:
		return nil, "", fmt.Errorf("%s: no state.edges to start from: write the report of the day before with this robowatch's -o json", name)
	}
	var records int64
	if p.Summary != nil {
		records = p.Summary.Records
	}
	// A run adds the edges' counts to its own (error_before, conduct): an
	// edited report's, as merge refuses them, are refused here.
	for i := range p.State.Edges {
		e := &p.State.Edges[i]
		if err := e.Check(records); err != nil {
			return nil, "", fmt.Errorf("%s: state.edges: client %s %q: %w", name, e.IP, e.UserAgent, err)
		}
	}
	return p.State.Edges, hex.EncodeToString(h.Sum(nil)), nil
}
