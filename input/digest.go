package input

import (
	"fmt"
	"hash/crc32"
	"io"
	"sync"
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// Digest is a reader that fingerprints the bytes read through it, for
// robowatch merge to tell the parts of one input from those of another.
// The fingerprint is of the bytes as the parser gets them, after
// decompression, so access.log and a gzipped copy of it elsewhere are one
// input; of content only, not of names or places. It is the CRC-32C and the
// CRC-32 (IEEE) of the bytes, 16 hex digits in all: both run at tens of
// GB/s in hardware, where SHA-256 without the CPU's SHA instructions
// (about 0.4 GB/s) would slow the one goroutine that cuts the input into
// blocks for the parsers. Two different logs do not share it by accident;
// a forged part, which can claim anything, is no concern of it.
//
// A ParallelReader reads it from one goroutine at a time, handed over by
// channels, but may still be reading when the run is interrupted: Sum
// takes a lock.
type Digest struct {
	r io.Reader

	mu      sync.Mutex
	c, ieee uint32
	n       int64
	ended   bool // the reader returned io.EOF, or an error: all that can be read was
}

// NewDigest returns a Digest reading from r.
func NewDigest(r io.Reader) *Digest { return &Digest{r: r} }

func (d *Digest) Read(p []byte) (int, error) {
	n, err := d.r.Read(p)
	d.mu.Lock()
	d.c = crc32.Update(d.c, castagnoli, p[:n])
	d.ieee = crc32.Update(d.ieee, crc32.IEEETable, p[:n])
	d.n += int64(n)
	if err != nil {
		d.ended = true
	}
	d.mu.Unlock()
	return n, err
}

// Sum is the fingerprint of everything read, and the bytes read. ok is
// false until the reader has returned io.EOF or another error (a corrupt
// gzip member: the input is then what could be read of it, alike for every
// shard): what was read so far is not the input.
func (d *Digest) Sum() (sum string, n int64, ok bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	return fmt.Sprintf("%08x%08x", d.c, d.ieee), d.n, d.ended
}
