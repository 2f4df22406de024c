package glrender

import (
	"unsafe"

	"github.com/go-gl/gl/v4.1-core/gl"
	"github.com/voltex-editor/voltex/viewport"
)

// Pictures the picture cache shows again without drawing them (software renderer's paths, software.go): a picture
// a big change replaced is kept, one for each list drawn, and shown again when its list comes back to what it drew
// (the undo of a delete, its redo); and a preview's picture is adopted as the scene's once the grid it previewed
// is spawned.

// keptPicture is the complete picture of a list that a later picture replaced, kept (in its kept target) for when
// the list comes back to what it drew: the undo of a delete of everything shows the picture from before the delete
// at once instead of drawing 100,000 cubes again, and so do its redo, and the undo and redo of a spawn.
type keptPicture struct {
	valid   bool
	key     pictureKey // its version is not compared: content is
	content uint64     // the list's ContentHash when it was drawn
	f       frame
	stats   Stats
}

// keptPictures are the kept pictures, one slot for each list whose GPU state the renderer keeps.
type keptPictures struct {
	pics     [maxLists]keptPicture
	restores int // kept pictures shown again (tests)
}

// keptFrom is the kept picture of p.
func keptFrom(p *picture) keptPicture {
	return keptPicture{valid: true, key: p.key, content: p.content, f: p.f, stats: p.stats}
}

// adopt makes the picture on screen, of from, the picture of to (Renderer.Adopt) and reports whether it did.
func (c *pictureCache) adopt(from, to *viewport.DrawList, rename func(id uint32) uint32, renamed []uint32) bool {
	s := &c.shown
	if !c.software || from == nil || to == nil || from == to || c.job != nil || !c.have || s.coarse || s.key.dl != from ||
		s.key.version != from.Version() || s.key.w != c.t.w || s.key.h != c.t.h || s.key.settings != *c.set {
		return false
	}
	if !to.DrawsAs(from, rename, renamed) {
		return false
	}
	c.renameIDs(to, rename)
	key := s.key
	key.dl, key.version = to, to.Version()
	c.takeAsShown(key, s.f, s.stats)
	return true
}

// takeAsShown makes the picture in the front target, seen through f, the complete picture of key (as if just
// drawn whole from key.dl: the chunks in view are what it shows) and composes it. Its stats count nothing drawn.
func (c *pictureCache) takeAsShown(key pictureKey, f frame, st Stats) {
	c.serial++
	p := &picture{key: key, f: f, stride: 1, serial: c.serial, content: key.dl.ContentHash()}
	p.stats = Stats{CulledBatches: st.CulledBatches, CulledChunks: st.CulledChunks, Total: key.dl.Len(), Stride: 1}
	c.lists.sync(key.dl, c.d, c.serial, nil, c.forgetKept)
	c.items = key.dl.Visible(&p.f.frustum, p.f.eye, c.items[:0])
	p.items = c.items
	c.commitShown(p)
	c.shown, c.have, c.job = *p, true, nil
	c.shown.items, c.shown.sub = nil, nil
	c.renders++
	c.compose(key.dl)
}

// keptOf returns the kept picture slot for the list of the picture old: the one kept of that list, else a free
// one, else one of a list other than the one shown.
func (c *pictureCache) keptOf(old *picture) int {
	free := -1
	for i := range c.kept.pics {
		k := &c.kept.pics[i]
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
	for i := range c.kept.pics {
		if c.kept.pics[i].key.dl != c.shown.key.dl {
			return i
		}
	}
	return 0
}

// keepable reports whether the picture shown is one to keep: complete, not thinned, of a list the renderer keeps
// the state of (not one forgotten: a replaced preview will not be drawn again).
func (c *pictureCache) keepable() bool {
	if !c.have || c.shown.coarse || c.shown.key.dl == nil {
		return false
	}
	for _, ls := range c.lists.all {
		if ls.dl == c.shown.key.dl && !ls.forgotten {
			return true
		}
	}
	return false
}

// keep keeps the picture just replaced by p (c.shown, in the back target since the front one flipped), if it is
// a complete one of an undo step's state (not DrawOptions.Between: the kept one stays that from before the edit),
// swapping its target with the kept one's (nothing is copied). A thinned p (the view moving) does not make a kept
// picture's target: a new texture costs a frame on llvmpipe (it zeroes it), which an orbit's first frame cannot
// spare.
func (c *pictureCache) keep(p *picture) {
	if !c.keepable() || c.shown.between {
		return
	}
	old := &c.shown
	i := c.keptOf(old)
	if p.coarse && c.t.kept(i).fbo == 0 || !c.t.makeKept(i, c.set.Background) {
		return
	}
	*c.t.back(), *c.t.kept(i) = *c.t.kept(i), *c.t.back()
	c.kept.pics[i] = keptFrom(old)
}

// keepCopy keeps a copy of the picture on screen (a patch is about to be drawn into it in place).
func (c *pictureCache) keepCopy() {
	if !c.keepable() || c.shown.between {
		return
	}
	old := &c.shown
	i := c.keptOf(old)
	if !c.t.makeKept(i, c.set.Background) {
		return
	}
	c.t.copy(c.t.front(), c.t.kept(i))
	gl.BindFramebuffer(gl.FRAMEBUFFER, 0)
	c.kept.pics[i] = keptFrom(old)
}

// bigPatch reports whether patch p changes so much of the picture that the picture before it is worth keeping
// (keepCopy) when p is drawn into it in place: an additive one of keepInstances or more, another of a rectangle of
// keepShare of the picture or more.
func (c *pictureCache) bigPatch(p *picture) bool {
	if p.additive {
		n := 0
		for _, it := range p.items {
			n += int(it.Instances)
		}
		return n >= keepInstances
	}
	return float64(p.rect[2])*float64(p.rect[3]) >= keepShare*float64(c.t.w)*float64(c.t.h)
}

// The sizes of a patch drawn in place from which the picture it changes is kept (bigPatch).
const (
	keepInstances = 4096
	keepShare     = 0.25
)

// restore shows the kept picture of key's list when it is a picture of key (the list with the same content, the
// same camera, size and settings) and reports whether it did; the picture it replaces is kept in its place (when
// it is of the same list; one of another list is dropped).
func (c *pictureCache) restore(key pictureKey) bool {
	i := -1
	for j := range c.kept.pics {
		k := &c.kept.pics[j]
		if k.valid && k.key.dl == key.dl && k.key.cam == key.cam && k.key.w == key.w && k.key.h == key.h &&
			k.key.settings == key.settings && k.content == key.dl.ContentHash() {
			i = j
		}
	}
	if i < 0 {
		return false
	}
	k := c.kept.pics[i]
	old := c.shown
	*c.t.front(), *c.t.kept(i) = *c.t.kept(i), *c.t.front()
	c.kept.pics[i] = keptPicture{}
	if c.keepable() && old.key.dl == key.dl {
		c.kept.pics[i] = keptFrom(&old)
	}
	c.takeAsShown(key, k.f, k.stats)
	c.kept.restores++
	return true
}

// forgetKept drops the kept picture of dl (a list deleted or forgotten: the renderer holds no reference to it),
// and its target: the grid dialog's preview, closed, keeps no picture's memory (a target is 12 bytes a pixel).
func (c *pictureCache) forgetKept(dl *viewport.DrawList) {
	for i := range c.kept.pics {
		if c.kept.pics[i].key.dl == dl {
			c.kept.pics[i] = keptPicture{}
			deleteTarget(c.t.kept(i))
		}
	}
}

// renameIDs renames the ids of the front target's id attachment (see Renderer.Adopt), with the selected bit of
// to's instances. Neighbouring pixels are mostly of one instance: a run of one id is looked up once.
func (c *pictureCache) renameIDs(to *viewport.DrawList, rename func(id uint32) uint32) {
	ids := make([]uint32, c.t.w*c.t.h) // once a spawn: not kept
	c.t.readIDs(0, 0, c.t.w, c.t.h, unsafe.Pointer(&ids[0]))
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
	c.t.writeIDs(ids)
}
