package logparse

import (
	"bufio"
	"bytes"
	"compress/bzip2"
	"compress/gzip"
	"fmt"
	"io"
	"os"
)

// Open opens a log for reading: "-" is standard input, anything else a file.
// Compressed input is recognised by its first bytes, not its name (see
// Decompress). Errors name the file.
func Open(name string) (io.ReadCloser, error) {
	var f io.ReadCloser
	if name == "-" {
		f = io.NopCloser(os.Stdin)
	} else {
		file, err := os.Open(name)
		if err != nil {
			return nil, err // *PathError names the file
		}
		f = file
	}
	r, err := Decompress(f, name)
	if err != nil {
		f.Close()
		return nil, err
	}
	return &decompressed{Reader: r, under: f}, nil
}

type decompressed struct {
	io.Reader
	under io.Closer
}

func (d *decompressed) Close() error { return d.under.Close() }

var (
	magicGzip  = []byte{0x1f, 0x8b}
	magicBzip2 = []byte("BZh")
	magicZstd  = []byte{0x28, 0xb5, 0x2f, 0xfd}
	magicXz    = []byte{0xfd, '7', 'z', 'X', 'Z', 0}
)

// Decompress returns the content of r: gzip (also several members one after
// another, as cat a.gz b.gz makes) and bzip2 streams are decompressed as
// they are read, anything else passes through. zstd and xz input, which the
// standard library cannot read, is an error saying so. Errors name the file.
func Decompress(r io.Reader, name string) (io.Reader, error) {
	br := bufio.NewReaderSize(r, readBufferSize)
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
		return zr, nil
	case bytes.HasPrefix(magic, magicBzip2) && len(magic) >= 4 && magic[3] >= '1' && magic[3] <= '9':
		return bzip2.NewReader(br), nil
	case bytes.HasPrefix(magic, magicZstd):
		return nil, fmt.Errorf("%s: zstd-compressed input is not supported; decompress it first (zstd -dc %s | robowatch)", name, name)
	case bytes.HasPrefix(magic, magicXz):
		return nil, fmt.Errorf("%s: xz-compressed input is not supported; decompress it first (xz -dc %s | robowatch)", name, name)
	}
	return br, nil
}
