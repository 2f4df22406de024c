package doc

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io"
	"os"
)

// JournalScene returns the scene file the session journal at path belongs to, as its first (base)
// record names it; it reads that record alone.
func JournalScene(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer func() { _ = f.Close() }() // read only
	var hdr [recHeader]byte
	if _, err := io.ReadFull(f, hdr[:]); err != nil {
		return "", fmt.Errorf("%s: not a session journal (no base record)", path)
	}
	n := binary.LittleEndian.Uint32(hdr[:])
	st, err := f.Stat()
	if err != nil {
		return "", err
	}
	if n == 0 || n >= maxRecord || int64(n) > st.Size()-recHeader { // a torn or foreign file: no big allocation
		return "", fmt.Errorf("%s: not a session journal (a base record of %d bytes)", path, n)
	}
	p := make([]byte, n)
	if _, err := io.ReadFull(f, p); err != nil || crc32.Checksum(p, crcTable) != binary.LittleEndian.Uint32(hdr[4:]) || p[0] != recBase {
		return "", fmt.Errorf("%s: not a session journal (no whole base record)", path)
	}
	r := &dec{b: p[1:]}
	file := r.s()
	if r.err != nil {
		return "", fmt.Errorf("%s: record 1: %w", path, r.err)
	}
	return file, nil
}
