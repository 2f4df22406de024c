package doc

import (
	"encoding/binary"
	"errors"
	"hash/crc32"
	"math"
	"slices"
)

// The journal file is a sequence of records, each its payload's length (4 bytes, little endian),
// the payload's CRC-32 (Castagnoli, 4 bytes) and the payload. A record cut short by a crash or a
// full disk, or one whose checksum does not match, ends the readable journal: it and whatever
// follows are dropped, never applied in part.

const recHeader = 8

// maxRecord bounds a record's payload: a length past it is a torn or foreign header.
const maxRecord = 1 << 31

var crcTable = crc32.MakeTable(crc32.Castagnoli)

// frameRecord writes the header of rec, a record whose payload follows recHeader bytes left for it.
func frameRecord(rec []byte) {
	p := rec[recHeader:]
	binary.LittleEndian.PutUint32(rec, uint32(len(p)))
	binary.LittleEndian.PutUint32(rec[4:], crc32.Checksum(p, crcTable))
}

// splitRecords returns the whole records of data and the offset where the readable journal ends
// (len(data) when no torn tail follows).
func splitRecords(data []byte) (recs [][]byte, end int) {
	for end+recHeader <= len(data) {
		n := int(binary.LittleEndian.Uint32(data[end:]))
		sum := binary.LittleEndian.Uint32(data[end+4:])
		if n >= maxRecord || end+recHeader+n > len(data) {
			break
		}
		p := data[end+recHeader : end+recHeader+n]
		if crc32.Checksum(p, crcTable) != sum {
			break
		}
		recs = append(recs, p)
		end += recHeader + n
	}
	return recs, end
}

// enc builds a record's payload in b[:n]. It writes into b's spare room and stores b again only
// to grow it: an append stores the slice through the pointer each time, which costs a write
// barrier per field while a collection runs (the editor's allocations keep one running often).
type enc struct {
	b []byte
	n int
}

// room returns b past n with room for k bytes at least.
func (e *enc) room(k int) []byte {
	if len(e.b)-e.n < k {
		e.grow(k)
	}
	return e.b[e.n:]
}

func (e *enc) grow(k int) {
	nb := make([]byte, max(2*len(e.b), e.n+k, 512))
	copy(nb, e.b[:e.n])
	e.b = nb
}

// bytes returns what was written.
func (e *enc) bytes() []byte { return e.b[:e.n] }

func (e *enc) c(v byte)     { e.room(1)[0] = v; e.n++ }
func (e *enc) u(v uint64)   { e.n += binary.PutUvarint(e.room(binary.MaxVarintLen64), v) }
func (e *enc) raw(v []byte) { e.n += copy(e.room(len(v)), v) }
func (e *enc) s(v string)   { e.u(uint64(len(v))); e.n += copy(e.room(len(v)), v) }
func (e *enc) by(v []byte)  { e.u(uint64(len(v))); e.raw(v) }
func (e *enc) f(v float64)  { e.u(math.Float64bits(v)) }
func (e *enc) bo(v bool)    { e.c(byte(btoi(v))) }
func (e *enc) ids(v []uint64) {
	e.u(uint64(len(v)))
	for _, x := range v {
		e.u(x)
	}
}

// dec reads a payload; the first error sticks and every read after it returns zero values.
type dec struct {
	b   []byte
	err error
	// st is what the file's records defined so far, shared by the decoders of its records.
	st *recState
}

// recState is what a journal file's records define for the ones after them: the strings
// (valueCodec.str) and the last plain value of each entity's component edits (valDelta).
type recState struct {
	strs []string
	vals map[valKey][]byte
}

// valKey names an entity's component (by the component's name) in dec.vals.
type valKey struct {
	name string
	id   uint64
}

var errNoDelta = errors.New("journal record holds a change of a value it never held")

// delta reads a valDelta's bytes and returns the value they make of the last one of the
// component name of entity id.
func (d *dec) delta(name string, id uint64) []byte {
	off, b := d.u(), d.by()
	if d.err != nil {
		return nil
	}
	var last []byte
	ok := false
	if d.st != nil {
		last, ok = d.st.vals[valKey{name, id}]
	}
	if id == 0 || !ok || off+uint64(len(b)) > uint64(len(last)) {
		d.err = errNoDelta
		return nil
	}
	v := slices.Clone(last)
	copy(v[off:], b)
	return v
}

// keep notes b as the last value of the component name of entity id (0: not an edit's).
func (d *dec) keep(name string, id uint64, b []byte) {
	if id != 0 && d.st != nil {
		if d.st.vals == nil {
			d.st.vals = map[valKey][]byte{}
		}
		d.st.vals[valKey{name, id}] = b
	}
}

var errNoString = errors.New("journal record names a string it never defined")

// str reads a string valueCodec.str wrote.
func (d *dec) str() string {
	n := d.u()
	if d.err != nil || d.st == nil {
		if d.err == nil {
			d.err = errNoString
		}
		return ""
	}
	if n == 0 {
		s := d.s()
		if d.err == nil {
			d.st.strs = append(d.st.strs, s)
		}
		return s
	}
	if n > uint64(len(d.st.strs)) {
		d.err = errNoString
		return ""
	}
	return d.st.strs[n-1]
}

var errShortRecord = errors.New("journal record ends early")

func (d *dec) u() uint64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.err = errShortRecord
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *dec) by() []byte {
	n := d.u()
	if d.err != nil || n > uint64(len(d.b)) {
		d.err = errShortRecord
		return nil
	}
	v := d.b[:n:n]
	d.b = d.b[n:]
	return v
}

// count reads a number of items that each take a byte at least (a larger one is an error, read
// as zero).
func (d *dec) count() uint64 {
	n := d.u()
	if n > uint64(len(d.b)) {
		d.err = errShortRecord
		return 0
	}
	return n
}

func (d *dec) s() string  { return string(d.by()) }
func (d *dec) f() float64 { return math.Float64frombits(d.u()) }
func (d *dec) bo() bool   { return d.u() != 0 }
func (d *dec) ids() []uint64 {
	v := make([]uint64, d.count())
	for i := range v {
		v[i] = d.u()
	}
	return v
}

// recordHeader returns the header of a record of payload.
func recordHeader(payload []byte) [recHeader]byte {
	var h [recHeader]byte
	binary.LittleEndian.PutUint32(h[:], uint32(len(payload)))
	binary.LittleEndian.PutUint32(h[4:], crc32.Checksum(payload, crcTable))
	return h
}
