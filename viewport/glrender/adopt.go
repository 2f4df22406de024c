package glrender

import (
	"unsafe"

	"github.com/go-gl/gl/v4.1-core/gl"
	"github.com/voltex-editor/voltex/viewport"
)

// Adopt makes the complete picture on screen, of from, the picture of to, without drawing, when to draws what
// from draws once from's ids are renamed by rename ([viewport.DrawList.DrawsAs]): the id attachment's pixels are
// renamed (and marked selected as to's instances are flagged), and the picture is to's from then on — shown,
// picked from, and patched by to's later changes as if it had been drawn from to. It reports whether it did;
// when it did not (the picture on screen is not a complete one of from as it is now, a picture is being drawn,
// or the lists differ), nothing changed and the next Draw of to draws it.
//
// It is for the grid dialog's preview: once the grid previewed is spawned, the scene's list draws what the
// preview drew (the scene's instances and the grid's cubes), the cubes under their entities' ids instead of
// preview ids; a picture of 100,000 new cubes costs llvmpipe hundreds of milliseconds, the adoption one pass
// over the id attachment.
func (r *Renderer) Adopt(from, to *viewport.DrawList, rename func(id uint32) uint32) bool {
	r.check("Adopt")
	s := &r.shown
	if from == nil || to == nil || from == to || r.job != nil || !r.have || s.coarse || s.key.dl != from ||
		s.key.version != from.Version() || s.key.w != r.w || s.key.h != r.h || s.key.settings != r.Settings {
		return false
	}
	if !to.DrawsAs(from, rename) {
		return false
	}
	r.renameIDs(to, rename)

	key := s.key
	key.dl, key.version = to, to.Version()
	r.takeAsShown(key, s.f, s.stats)
	return glError("adopting a picture") == nil
}

// takeAsShown makes the picture in the front target, seen through f, the complete picture of key (as if just
// drawn whole from key.dl: the chunks in view are what it shows) and composes it. Its stats count nothing drawn.
func (r *Renderer) takeAsShown(key pictureKey, f frame, st Stats) {
	r.serial++
	p := &picture{key: key, f: f, stride: 1, serial: r.serial, content: key.dl.ContentHash()}
	p.stats = Stats{CulledBatches: st.CulledBatches, CulledChunks: st.CulledChunks, Total: key.dl.Len(), Stride: 1}
	r.syncBatches(key.dl)
	r.items = key.dl.Visible(&p.f.frustum, p.f.eye, r.items[:0])
	p.items = r.items
	r.commitShown(p)
	r.shown, r.have, r.job = *p, true, nil
	r.shown.items, r.shown.sub = nil, nil
	r.renders++
	r.compose(key.dl)
}

// keptTargets is the index in Renderer.targets of the first kept picture's attachments; there is one kept picture
// for each of the maxLists lists whose GPU state the renderer keeps (the scene's, the grid dialog's preview).
const keptTargets = 2

// keptPicture is the complete picture of a list that a later picture replaced, kept (in
// targets[keptTargets+slot]) for when the list comes back to what it drew: the undo of a delete of everything
// shows the picture from before the delete at once instead of drawing 100,000 cubes again, and so do its redo,
// and the undo and redo of a spawn.
type keptPicture struct {
	valid   bool
	key     pictureKey // its version is not compared: content is
	content uint64     // the list's ContentHash when it was drawn
	f       frame
	stats   Stats
}

// keptFrom is the kept picture of p.
func keptFrom(p *picture) keptPicture {
	return keptPicture{valid: true, key: p.key, content: p.content, f: p.f, stats: p.stats}
}

// keptOf returns the kept picture slot for the list of the picture old: the one kept of that list, else a free
// one, else one of a list other than the one shown.
func (r *Renderer) keptOf(old *picture) int {
	free := -1
	for i := range r.keptPics {
		k := &r.keptPics[i]
		if k.valid && k.key.dl == old.key.dl {
			return i
		}
		if !k.valid && free < 0 {
			free = i
		}
	}
	if free >= 0 {
		return free
	}
	for i := range r.keptPics {
		if r.keptPics[i].key.dl != r.shown.key.dl {
			return i
		}
	}
	return 0
}

// keepable reports whether the picture shown is one to keep: complete, not thinned, of a list the renderer keeps
// the state of (not one forgotten: a replaced preview will not be drawn again).
func (r *Renderer) keepable() bool {
	if !r.have || r.shown.coarse || r.shown.key.dl == nil {
		return false
	}
	for _, ls := range r.lists {
		if ls.dl == r.shown.key.dl && !ls.forgotten {
			return true
		}
	}
	return false
}

// keep keeps the picture just replaced by p (r.shown, in the back target since the front one flipped), if it is
// a complete one, swapping its target with the kept one's (nothing is copied). A thinned p (the view moving) does
// not make a kept picture's target: a new texture costs a frame on llvmpipe (it zeroes it), which an orbit's first
// frame cannot spare.
func (r *Renderer) keep(p *picture) {
	if !r.keepable() {
		return
	}
	old := &r.shown
	i, back := r.keptOf(old), 1-r.front
	if p.coarse && r.targets[keptTargets+i].fbo == 0 || !r.keepTarget(i) {
		return
	}
	r.targets[back], r.targets[keptTargets+i] = r.targets[keptTargets+i], r.targets[back]
	r.keptPics[i] = keptFrom(old)
}

// keepCopy keeps a copy of the picture on screen (a patch is about to be drawn into it in place).
func (r *Renderer) keepCopy() {
	if !r.keepable() {
		return
	}
	old := &r.shown
	i := r.keptOf(old)
	if !r.keepTarget(i) {
		return
	}
	r.copyTarget(&r.targets[r.front], &r.targets[keptTargets+i])
	gl.BindFramebuffer(gl.FRAMEBUFFER, 0)
	r.keptPics[i] = keptFrom(old)
}

// bigPatch reports whether patch p changes so much of the picture that the picture before it is worth keeping
// (keepCopy) when p is drawn into it in place: an additive one of keepInstances or more, another of a rectangle of
// keepShare of the picture or more.
func (r *Renderer) bigPatch(p *picture) bool {
	if p.additive {
		n := 0
		for _, it := range p.items {
			n += int(it.Instances)
		}
		return n >= keepInstances
	}
	return float64(p.rect[2])*float64(p.rect[3]) >= keepShare*float64(r.w)*float64(r.h)
}

// The sizes of a patch drawn in place from which the picture it changes is kept (bigPatch).
const (
	keepInstances = 4096
	keepShare     = 0.25
)

// restore shows the kept picture of key's list when it is a picture of key (the list with the same content, the
// same camera, size and settings) and reports whether it did; the picture it replaces is kept in its place (when
// it is of the same list; one of another list is dropped).
func (r *Renderer) restore(key pictureKey) bool {
	i := -1
	for j := range r.keptPics {
		k := &r.keptPics[j]
		if k.valid && k.key.dl == key.dl && k.key.cam == key.cam && k.key.w == key.w && k.key.h == key.h &&
			k.key.settings == key.settings && k.content == key.dl.ContentHash() {
			i = j
		}
	}
	if i < 0 {
		return false
	}
	k := r.keptPics[i]
	old := r.shown
	r.targets[r.front], r.targets[keptTargets+i] = r.targets[keptTargets+i], r.targets[r.front]
	r.keptPics[i] = keptPicture{}
	if r.keepable() && old.key.dl == key.dl {
		r.keptPics[i] = keptFrom(&old)
	}
	r.takeAsShown(key, k.f, k.stats)
	r.restores++
	return true
}

// keepTarget makes kept picture slot i's target if it has none yet, and reports whether it has one.
func (r *Renderer) keepTarget(i int) bool {
	t := &r.targets[keptTargets+i]
	if t.fbo != 0 {
		return true
	}
	if err := r.newTarget(t); err != nil || glError("allocating a kept picture") != nil {
		deleteTarget(t)
		return false
	}
	return true
}

// forgetKept drops the kept picture of dl (a list deleted or forgotten: the renderer holds no reference to it),
// and its target: the grid dialog's preview, closed, keeps no picture's memory (a target is 12 bytes a pixel).
func (r *Renderer) forgetKept(dl *viewport.DrawList) {
	for i := range r.keptPics {
		if r.keptPics[i].key.dl == dl {
			r.keptPics[i] = keptPicture{}
			deleteTarget(&r.targets[keptTargets+i])
		}
	}
}

// renameIDs renames the ids of the front target's id attachment (see Adopt), with the selected bit of to's
// instances. Neighbouring pixels are mostly of one instance: a run of one id is looked up once.
func (r *Renderer) renameIDs(to *viewport.DrawList, rename func(id uint32) uint32) {
	ids := make([]uint32, r.w*r.h) // once a spawn: not kept
	r.readIDs(0, 0, r.w, r.h, unsafe.Pointer(&ids[0]))
	var last, lastOut uint32
	for i, v := range ids {
		id := v &^ selectedBit
		if id == 0 {
			continue
		}
		if id != last {
			last, lastOut = id, rename(id)
			if in, _, ok := to.Get(lastOut); ok && in.Flags&viewport.FlagSelected != 0 {
				lastOut |= selectedBit
			}
		}
		ids[i] = lastOut
	}
	gl.BindTexture(gl.TEXTURE_2D, r.targets[r.front].ids)
	gl.PixelStorei(gl.UNPACK_ALIGNMENT, 4)
	gl.TexSubImage2D(gl.TEXTURE_2D, 0, 0, 0, int32(r.w), int32(r.h), gl.RED_INTEGER, gl.UNSIGNED_INT, unsafe.Pointer(&ids[0]))
	gl.BindTexture(gl.TEXTURE_2D, 0)
}
