package input

import (
	"bufio"
	"bytes"
	"compress/bzip2"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
)

// peekSize is the buffer in front of a compressed stream: the magic bytes
// are peeked through it, and the zero padding after gzip members is skipped
// in steps of it.
const peekSize = 64 << 10

var (
	magicGzip  = []byte{0x1f, 0x8b}
	magicBzip2 = []byte("BZh")
	magicZstd  = []byte{0x28, 0xb5, 0x2f, 0xfd}
	magicXz    = []byte{0xfd, '7', 'z', 'X', 'Z', 0}
)

// Decompress returns the content of r: gzip (also several members one after
// another, as cat a.gz b.gz makes, and zero bytes padding the end, as tape
// and some copying tools leave; GNU gzip ignores them too) and bzip2 streams are decompressed as
// they are read, anything else passes through. zstd and xz input, which the
// standard library cannot read, is an error saying so. Errors name the file.
func Decompress(r io.Reader, name string) (io.Reader, error) {
	br := bufio.NewReaderSize(r, peekSize)
	magic, err := br.Peek(6)
	if err != nil && err != io.EOF && err != bufio.ErrBufferFull {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	switch {
	case bytes.HasPrefix(magic, magicGzip):
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, fmt.Errorf("%s: gzip: %w", name, err)
		}
		zr.Multistream(false)
		return &gzipMembers{br: br, zr: zr}, nil
	case bytes.HasPrefix(magic, magicBzip2) && len(magic) >= 4 && magic[3] >= '1' && magic[3] <= '9':
		return bzip2.NewReader(br), nil
	case bytes.HasPrefix(magic, magicZstd):
		return nil, fmt.Errorf("%s: zstd-compressed input is not supported; decompress it first (zstd -dc %s | robowatch)", name, name)
	case bytes.HasPrefix(magic, magicXz):
		return nil, fmt.Errorf("%s: xz-compressed input is not supported; decompress it first (xz -dc %s | robowatch)", name, name)
	}
	return br, nil
}

// gzipMembers reads the members of a gzip file one after another. It does
// what gzip.Reader's multistream mode does, and also takes zero bytes after
// the last member as the end: other bytes there are an error, as they are
// to gzip.Reader.
type gzipMembers struct {
	br  *bufio.Reader // gzip.Reader reads no further than a member's end from a ByteReader
	zr  *gzip.Reader
	err error // sticky: io.EOF or the error that ended the stream
}

func (g *gzipMembers) Read(p []byte) (int, error) {
	for g.err == nil {
		n, err := g.zr.Read(p)
		if err == io.EOF {
			err = g.next()
		}
		g.err = err
		if n > 0 || err != nil {
			return n, err
		}
	}
	return 0, g.err
}

// next starts the member after the one that ended; io.EOF at the end of
// the input or of its zero padding.
func (g *gzipMembers) next() error {
	b, err := g.br.Peek(1)
	switch {
	case err == io.EOF:
		return io.EOF
	case err != nil:
		return err
	case b[0] == 0:
		return g.skipZeros()
	}
	if b, _ := g.br.Peek(2); !bytes.HasPrefix(magicGzip, b) {
		return gzip.ErrHeader // "gzip: invalid header", however short the garbage
	}
	if err := g.zr.Reset(g.br); err != nil {
		if errors.Is(err, gzip.ErrHeader) {
			return err // "gzip: invalid header"
		}
		return fmt.Errorf("gzip: next member: %w", err)
	}
	g.zr.Multistream(false)
	return nil
}

// skipZeros reads to the end of the input, which must be zero bytes only.
func (g *gzipMembers) skipZeros() error {
	for {
		b, err := g.br.Peek(peekSize)
		for _, c := range b {
			if c != 0 {
				return errors.New("gzip: trailing garbage after the zero padding at the end of the compressed data")
			}
		}
		g.br.Discard(len(b))
		if err == io.EOF {
			return io.EOF
		}
		if err != nil && err != bufio.ErrBufferFull {
			return err
		}
	}
}

// Compressed reports whether the file name starts as a compressed stream
// does (gzip, bzip2, zstd, xz): such a file is written whole, never line by
// line, so -F reads it once instead of following it. A file that cannot be
// read is not compressed (opening it will say why).
func Compressed(name string) bool {
	f, err := os.Open(name)
	if err != nil {
		return false
	}
	defer f.Close()
	var magic [6]byte
	n, _ := io.ReadFull(f, magic[:])
	return compressedStart(magic[:n])
}

// compressedStart reports whether b, a stream's first bytes, are those of
// a compressed one.
func compressedStart(b []byte) bool {
	for _, m := range [][]byte{magicGzip, magicBzip2, magicZstd, magicXz} {
		if bytes.HasPrefix(b, m) {
			return true
		}
	}
	return false
}
