package glrender

import (
	"github.com/voltex-editor/voltex/assets"
	"github.com/voltex-editor/voltex/viewport"
)

// The GPU state of the draw lists drawn last: each batch's mesh and each chunk's instance buffer, and what the
// front picture shows of each chunk (for patches, picture_patch.go).

// chunkState is the GPU side of one viewport.Chunk: its instance buffer, and what the front picture shows of it.
type chunkState struct {
	buf instanceBuffer
	// What the front picture shows of the chunk (picture_patch.go): the chunk and its Changes when it was drawn,
	// and its box then; shown is nil when the front picture shows nothing of it.
	shown        *viewport.Chunk
	shownChanges uint64
	shownBox     viewport.AABB
	// Its Edits and length then: while Edits stays, the instances after shownLen were appended since.
	shownEdits uint64
	shownLen   int
	// Whether an instance is mirrored (scanMirrored), as of the chunk's Changes = mirrorAt-1.
	mirrored bool
	mirrorAt uint64
	// Whether the picture of serial pointsAt draws the chunk as points (pointChunk), and the radius of its
	// instances' box radiusOf as of its Changes = radiusAt-1 (boxRadius).
	points   bool
	pointsAt uint64
	radius   float32
	radiusAt uint64
	radiusOf meshBox
	// The chunk's box when the picture of serial boxAt uploaded it (uploadItems; occlude.go).
	box   viewport.AABB
	boxAt uint64
}

// appended reports whether c changed since the front picture showed it only by instances appended at its end.
func (cs *chunkState) appended(c *viewport.Chunk) bool {
	return cs.shown == c && cs.shownEdits == c.Edits() && c.Len() >= cs.shownLen
}

// scanMirrored brings cs.mirrored up to date with chunk c: whether one of its instances is mirrored (a negative
// determinant turns its triangles' winding around). The chunk's state caches the scan.
func (cs *chunkState) scanMirrored(c *viewport.Chunk) {
	if cs.mirrorAt == c.Changes()+1 {
		return
	}
	cs.mirrored = false
	for i := range c.Instances {
		if i > 0 && sameLinear(&c.Instances[i].World, &c.Instances[i-1].World) {
			continue
		}
		if c.Instances[i].World.Mat3().Det() < 0 {
			cs.mirrored = true
			break
		}
	}
	cs.mirrorAt = c.Changes() + 1
}

// batchState is the GPU side of one viewport.Batch (same index).
type batchState struct {
	mesh   *gpuMesh
	mat    *gpuMaterial // nil: the instances' colours
	chunks []chunkState
}

// listState is the GPU side of one DrawList: its batches' chunk buffers.
type listState struct {
	dl      *viewport.DrawList
	batches []batchState
	used    uint64 // the picture serial it was last drawn in
	// lost is true when a chunk the front picture shows lost its state (its mesh changed, or the list dropped
	// it): the next picture cannot be a patch (picture_patch.go).
	lost bool
	// forgotten: Forget was called for dl; its state is freed at the next picture of another list.
	forgotten bool
}

// maxLists is how many draw lists keep their GPU buffers (the scene's and the grid dialog's preview): switching
// between them uploads only what changed.
const maxLists = 2

func (ls *listState) delete() {
	for i := range ls.batches {
		for j := range ls.batches[i].chunks {
			ls.batches[i].chunks[j].buf.delete()
		}
	}
	ls.batches = nil
}

// listSet is the GPU state of the maxLists lists drawn last.
type listSet struct {
	all []*listState
	cur *listState // of the list being drawn
	// usedMeshes and usedMats are sync's: the meshes and materials the lists draw (kept, not made per picture).
	usedMeshes map[*assets.Mesh]bool
	usedMats   map[*viewport.Material]bool
}

// forget marks dl's state to be freed when another list is drawn (Renderer.Forget).
func (s *listSet) forget(dl *viewport.DrawList) {
	for _, ls := range s.all {
		if ls.dl == dl {
			ls.forgotten = true
		}
	}
}

// free frees the GPU state of every list.
func (s *listSet) free() {
	for _, ls := range s.all {
		ls.delete()
	}
	s.all, s.cur = nil, nil
}

// sync makes s.cur the GPU state of dl (keeping the states of the maxLists lists drawn last; a list seen for the
// first time, or again after its state was dropped, is uploaded whole) and brings its batch-level state up to
// date: meshes are uploaded once per *assets.Mesh by d (and freed when no list uses them any more), every batch
// and chunk has its state (the buffers of chunks a list dropped are freed). Instance data is uploaded later, chunk
// by chunk, when a chunk is drawn. serial is the picture's; dropped is told each list whose state is freed.
func (s *listSet) sync(dl *viewport.DrawList, d *drawer, serial uint64, st *Stats, dropped func(*viewport.DrawList)) {
	// The forgotten lists go first (dl, if it is one, is drawn again): a list drawn after a replaced preview does
	// not push out the scene's, which the least recently used rule below would.
	kept := s.all[:0]
	for _, ls := range s.all {
		if ls.forgotten && ls.dl != dl {
			dropped(ls.dl)
			ls.delete()
			continue
		}
		kept = append(kept, ls)
	}
	clear(s.all[len(kept):])
	s.all = kept
	s.cur = nil
	for _, ls := range s.all {
		if ls.dl == dl {
			s.cur = ls
		}
	}
	if s.cur == nil {
		if len(s.all) == maxLists { // drop the one drawn least recently
			old := 0
			for i, ls := range s.all {
				if ls.used < s.all[old].used {
					old = i
				}
			}
			dropped(s.all[old].dl)
			s.all[old].delete()
			s.all = append(s.all[:old], s.all[old+1:]...)
		}
		s.cur = &listState{dl: dl}
		s.all = append(s.all, s.cur)
		for _, b := range dl.Batches() {
			b.MarkAllDirty() // new to this renderer: everything is uploaded
		}
	}
	ls := s.cur
	if d.setLights(dl.Lights()) {
		ls.lost = true // every pixel's light may change
	}
	ls.forgotten = false // drawn again
	ls.used = serial
	if s.usedMeshes == nil {
		s.usedMeshes, s.usedMats = map[*assets.Mesh]bool{}, map[*viewport.Material]bool{}
	}
	used, usedMats := s.usedMeshes, s.usedMats
	clear(used)
	clear(usedMats)
	for _, o := range s.all {
		for i, b := range o.dl.Batches() {
			if b.Mesh != nil && (i < len(o.batches) || o == ls) {
				used[b.Mesh] = true
				if b.Len() > 0 { // an emptied batch (a material edited away, as while a colour is dragged) frees its textures
					usedMats[b.Material] = true
				}
			}
		}
	}
	for i, b := range dl.Batches() {
		if i == len(ls.batches) {
			ls.batches = append(ls.batches, batchState{})
		}
		bs := &ls.batches[i]
		old, oldMat := bs.mesh, bs.mat
		bs.mesh, bs.mat = nil, nil
		if b.Len() > 0 {
			bs.mat = d.material(b.Material)
		}
		if b.Mesh != nil {
			bs.mesh = d.mesh(b.Mesh, bs.mat.textured(), st)
		}
		if old != bs.mesh || oldMat != bs.mat {
			ls.lost = true
		}
		n := len(b.Chunks())
		for j := n; j < len(bs.chunks); j++ {
			if bs.chunks[j].shown != nil {
				ls.lost = true
			}
			bs.chunks[j].buf.delete()
		}
		if n < len(bs.chunks) {
			bs.chunks = bs.chunks[:n]
		}
		for len(bs.chunks) < n {
			bs.chunks = append(bs.chunks, chunkState{})
		}
	}
	d.keepMeshes(func(m *assets.Mesh) bool { return used[m] })
	d.keepMaterials(func(m *viewport.Material) bool { return usedMats[m] })
}
