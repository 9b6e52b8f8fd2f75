package botauth

import (
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"slices"
	"strings"
	"time"
)

// Directory is the key directories of the signature agents robowatch
// trusts, each as its origin serves it at
// /.well-known/http-message-signatures-directory: a key is looked up by
// the origin a signature names and the key's thumbprint together, never by
// the thumbprint alone, or a key learnt from one origin would verify
// requests that name another.
type Directory struct {
	Files []File
	keys  map[keyRef]key
}

// File is one key directory file read, as the report may list it.
type File struct {
	Name   string // the file's name: HOST.json
	Origin string // https://HOST, the Signature-Agent it holds the keys of
	Keys   int    // its Ed25519 keys
}

type keyRef struct {
	host, id string
}

type key struct {
	pub      ed25519.PublicKey
	id       string    // its thumbprint
	origin   string    // the File's Origin, shared by its keys
	nbf, exp time.Time // the key's own validity, when the directory gives one
}

// Bounds on a key directory file: real ones hold a few keys.
const (
	maxFileBytes = 1 << 20
	maxFileKeys  = 1000
)

// LoadDir reads the key directories in fsys, one a file named after the
// host of the origin that serves it: chatgpt.com.json holds the JSON Web
// Key Set of https://chatgpt.com/.well-known/http-message-signatures-directory.
// Files not ending in .json, and hidden ones, are skipped. A .json file
// whose name is no host name, that is no JWK Set, holds a key that does
// not parse or no Ed25519 key at all is an error naming it and why. Keys
// of other types (RSA, EC) are skipped: robowatch verifies Ed25519 only.
func LoadDir(fsys fs.FS) (*Directory, error) {
	entries, err := fs.ReadDir(fsys, ".")
	if err != nil {
		return nil, err
	}
	d := &Directory{keys: map[keyRef]key{}}
	for _, e := range entries {
		name := e.Name()
		host, ok := strings.CutSuffix(name, ".json")
		if !ok || strings.HasPrefix(name, ".") || e.IsDir() {
			continue
		}
		if !validHost(host) {
			return nil, fmt.Errorf("key file %s: %q is no host name (name each file HOST.json after the origin that serves it)", name, host)
		}
		f, err := d.load(fsys, name, host)
		if err != nil {
			return nil, fmt.Errorf("key file %s: %w", name, err)
		}
		d.Files = append(d.Files, f)
	}
	return d, nil
}

func (d *Directory) load(fsys fs.FS, name, host string) (File, error) {
	fh, err := fsys.Open(name)
	if err != nil {
		return File{}, err
	}
	defer fh.Close()
	b, err := io.ReadAll(io.LimitReader(fh, maxFileBytes+1))
	if err != nil {
		return File{}, err
	}
	if len(b) > maxFileBytes {
		return File{}, fmt.Errorf("over %d bytes: no key directory is so large", maxFileBytes)
	}
	var doc struct {
		Keys []struct {
			Kty string `json:"kty"`
			Crv string `json:"crv"`
			X   string `json:"x"`
			Nbf *int64 `json:"nbf"`
			Exp *int64 `json:"exp"`
		} `json:"keys"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		return File{}, fmt.Errorf("not a JSON Web Key Set: %w", err)
	}
	switch {
	case doc.Keys == nil:
		return File{}, errors.New(`not a JSON Web Key Set: no "keys"`)
	case len(doc.Keys) > maxFileKeys:
		return File{}, fmt.Errorf("%d keys, want at most %d", len(doc.Keys), maxFileKeys)
	}
	f := File{Name: name, Origin: "https://" + host}
	for i, k := range doc.Keys {
		if k.Kty != "OKP" || k.Crv != "Ed25519" {
			continue
		}
		raw, err := base64.RawURLEncoding.DecodeString(k.X)
		if err != nil || len(raw) != ed25519.PublicKeySize {
			return File{}, fmt.Errorf("key %d: \"x\" is not a %d-byte Ed25519 public key in base64url", i+1, ed25519.PublicKeySize)
		}
		kk := key{pub: ed25519.PublicKey(raw), origin: f.Origin}
		if k.Nbf != nil {
			kk.nbf = time.Unix(*k.Nbf, 0)
		}
		if k.Exp != nil {
			kk.exp = time.Unix(*k.Exp, 0)
		}
		kk.id = Thumbprint(kk.pub)
		d.keys[keyRef{host, kk.id}] = kk
		f.Keys++
	}
	if f.Keys == 0 {
		return File{}, fmt.Errorf("no Ed25519 key among its %d (robowatch verifies Ed25519 signatures only)", len(doc.Keys))
	}
	return f, nil
}

// Thumbprint is the JWK SHA-256 thumbprint of an Ed25519 public key (RFC
// 7638, with RFC 8037's members for an OKP key), in base64url without
// padding: the keyid a Web Bot Auth signature names its key by.
func Thumbprint(pub ed25519.PublicKey) string {
	// The canonical JWK: its required members only, in lexical order,
	// with no white space.
	canon := `{"crv":"Ed25519","kty":"OKP","x":"` + base64.RawURLEncoding.EncodeToString(pub) + `"}`
	sum := sha256.Sum256([]byte(canon))
	return base64.RawURLEncoding.EncodeToString(sum[:])
}

// Origins returns the origins whose keys d holds, sorted.
func (d *Directory) Origins() []string {
	var o []string
	for _, f := range d.Files {
		o = append(o, f.Origin)
	}
	slices.Sort(o)
	return o
}

// validHost reports whether h is a lower-case DNS host name: labels of
// letters, digits and '-', not starting or ending with '-'.
func validHost(h string) bool {
	if h == "" || len(h) > 253 {
		return false
	}
	for label := range strings.SplitSeq(h, ".") {
		if label == "" || len(label) > 63 || label[0] == '-' || label[len(label)-1] == '-' {
			return false
		}
		for i := 0; i < len(label); i++ {
			if c := label[i]; !isLower(c) && !isDigit(c) && c != '-' {
				return false
			}
		}
	}
	return true
}
