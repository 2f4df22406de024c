package glrender

import (
	"math"
	"unsafe"

	"github.com/go-gl/gl/v4.1-core/gl"
	"github.com/go-gl/mathgl/mgl32"
	"github.com/voltex-editor/voltex/viewport"
)

// Copies: instances with the same world matrix as one drawn before them in a picture. A copy of a box drawn as a
// point covers the same pixels at the same depth as its original and loses each to it (depth test LESS), so it
// need not be drawn. A field set on a whole grid stacks its cubes so: X set on 100×100×100 cubes leaves 100 on
// each of 10,000 places, spread over the chunks of a row of cells.
//
// Each chunk's upload finds its own copies (noteCopies: a quarter or more, and the chunk keeps an index list of the
// others). A whole chunk with copies drawn as points in a picture is then drawn from a list made for that picture
// (pictureCopies.indices): without the instances whose matrix an instance already drawn in the picture has, from
// this chunk or one drawn before it. The picture is the one every instance would draw. An instance left out has
// its original drawn earlier into the same target: not drawn only when its chunk was hidden by its occlusion query,
// and then so is everything in the chunk's box, the copy too.

// noteCopies sets b.n and, when at least a quarter of inst are copies of an instance before them (the same world
// matrix), the indices of the others in b.ebo and b.keptIdx (nil otherwise). A copy drawn after its original, with the
// same mesh, covers the same pixels at the same depth and loses each to it (depth test LESS): drawing only the
// others draws the same picture. A chunk's instances are in no particular order, so the copies are found by a
// table of the instances by their translation.
func (d *drawer) noteCopies(b *instanceBuffer, inst []viewport.Instance) {
	b.n = len(inst)
	sc := &d.copies
	if copies := sc.scan(inst); len(inst) == 0 || 4*copies < len(inst) {
		b.keptIdx = nil
		return
	}
	idx := b.keptIdx[:0]
	for i := range inst {
		if sc.isCopy[i/64]&(1<<(i%64)) == 0 {
			idx = append(idx, uint32(i))
		}
	}
	b.keptIdx = idx
	uploadIndices(&b.ebo, idx, gl.DYNAMIC_DRAW)
}

// copyScan finds the instances that are copies of one before them (noteCopies): an open-addressed table of
// instance indices (+1) by the hash of their translation, and a bit an instance.
type copyScan struct {
	slots  []uint32
	isCopy []uint64
}

// scan marks in s.isCopy the instances of inst whose world matrix an instance before them has, and counts them.
func (s *copyScan) scan(inst []viewport.Instance) int {
	size := 64
	for size < 2*len(inst) {
		size *= 2
	}
	if len(s.slots) < size {
		s.slots = make([]uint32, size)
	}
	slots := s.slots[:size]
	clear(slots)
	words := (len(inst) + 63) / 64
	if cap(s.isCopy) < words {
		s.isCopy = make([]uint64, words)
	}
	s.isCopy = s.isCopy[:words]
	clear(s.isCopy)
	mask := uint32(size - 1)
	copies := 0
	for i := range inst {
		m := &inst[i].World
		h := copyHash(m)
		for j := uint32(h) & mask; ; j = (j + 1) & mask {
			at := slots[j]
			if at == 0 {
				slots[j] = uint32(i + 1)
				break
			}
			if o := &inst[at-1].World; o[12] == m[12] && o[13] == m[13] && o[14] == m[14] && sameBits(o, m) {
				s.isCopy[i/64] |= 1 << (i % 64)
				copies++
				break
			}
		}
	}
	return copies
}

// sameBits reports whether a and b are the same bits, and so drawn alike: compared as 64 bytes, three times faster
// than as 16 floats (a million instances are compared in a picture of a stacked grid).
func sameBits(a, b *mgl32.Mat4) bool {
	return *(*[64]byte)(unsafe.Pointer(a)) == *(*[64]byte)(unsafe.Pointer(b))
}

// copyHash hashes m's translation (stacked copies differ in nothing; distinct instances nearly always in it).
func copyHash(m *mgl32.Mat4) uint64 {
	h := uint64(math.Float32bits(m[12]))*0x9E3779B97F4A7C15 ^ uint64(math.Float32bits(m[13]))*0xC2B2AE3D27D4EB4F ^
		uint64(math.Float32bits(m[14]))*0x165667B19E3779F9
	h ^= h >> 32
	h *= 0xFF51AFD7ED558CCD
	return h ^ h>>29
}

// pictureCopies is the set of the instances drawn as points from index lists in one picture (serial): an
// open-addressed table of entries hash<<32 | ref+1 (ref = chunk<<11 | instance, chunk an index into chunks),
// probed from the hash's high half, which the entry keeps.
type pictureCopies struct {
	serial uint64
	slots  []uint64
	n      int
	chunks []*viewport.Chunk
	idx    []uint32 // the list being made
}

const copyRefBits = 11 // instances of a chunk: viewport.MaxChunk = 1<<copyRefBits

// indices fills buf's picture index list (buf.pebo, buf.pkept) with the instances of chunk ch, whole in buf, that
// no instance drawn so far in picture serial has the matrix of, and adds them to the set. Only the chunk's kept
// instances (buf.keptIdx, which noteCopies found when ch was uploaded) are looked at: a copy of one before it in
// the chunk is drawn only if that one is, which is never. It reports false (and does nothing) when it cannot: a
// chunk bigger than viewport.MaxChunk, or too many chunks for a reference.
func (s *pictureCopies) indices(serial uint64, buf *instanceBuffer, ch *viewport.Chunk) bool {
	if s.serial != serial {
		s.serial, s.n = serial, 0
		clear(s.slots)
		clear(s.chunks)
		s.chunks = s.chunks[:0]
	}
	inst := ch.Instances
	if len(inst) > 1<<copyRefBits || len(s.chunks) >= 1<<(32-copyRefBits)-1 {
		return false
	}
	if need := 2 * (s.n + len(buf.keptIdx)); need > len(s.slots) {
		s.grow(need)
	}
	slot := uint32(len(s.chunks))
	s.chunks = append(s.chunks, ch)
	mask := uint64(len(s.slots) - 1)
	idx := s.idx[:0]
	for _, i := range buf.keptIdx {
		m := &inst[i].World
		h := copyHash(m)
		tag := h >> 32 << 32
		for j := (h >> 32) & mask; ; j = (j + 1) & mask {
			e := s.slots[j]
			if e == 0 {
				s.slots[j] = tag | uint64(slot<<copyRefBits|i+1)
				s.n++
				idx = append(idx, i)
				break
			}
			if e&^(1<<32-1) == tag {
				ref := uint32(e) - 1
				if o := &s.chunks[ref>>copyRefBits].Instances[ref&(1<<copyRefBits-1)].World; sameBits(o, m) {
					break // a copy
				}
			}
		}
	}
	s.idx = idx
	buf.pkept = len(idx)
	if len(idx) > 0 {
		uploadIndices(&buf.pebo, idx, gl.STREAM_DRAW)
		gl.BindBuffer(gl.ARRAY_BUFFER, 0)
	}
	return true
}

// uploadIndices fills buffer *id (made if 0) with idx, bound as the array buffer (no vertex array need be bound),
// which it leaves bound.
func uploadIndices(id *uint32, idx []uint32, usage uint32) {
	if *id == 0 {
		gl.GenBuffers(1, id)
	}
	gl.BindBuffer(gl.ARRAY_BUFFER, *id)
	gl.BufferData(gl.ARRAY_BUFFER, 4*len(idx), unsafe.Pointer(&idx[0]), usage)
}

// grow makes the table at least n slots (a power of two), its entries placed again by their hashes.
func (s *pictureCopies) grow(n int) {
	size := 1024
	for size < n {
		size *= 2
	}
	old := s.slots
	s.slots = make([]uint64, size)
	mask := uint64(size - 1)
	for _, e := range old {
		if e == 0 {
			continue
		}
		for j := (e >> 32) & mask; ; j = (j + 1) & mask {
			if s.slots[j] == 0 {
				s.slots[j] = e
				break
			}
		}
	}
}

// done ends the picture's set: its chunks are let go, and a big table too (a picture of many instances with copies
// held 16 MB for a million).
func (s *pictureCopies) done() {
	s.serial = 0
	clear(s.chunks)
	s.chunks = s.chunks[:0]
	if len(s.slots) > 1<<16 {
		s.slots = nil
	}
}

// free drops the table's memory.
func (s *pictureCopies) free() { *s = pictureCopies{} }
