package viewport

// DrawsAs reports whether d draws what from draws once from's ids are renamed by rename: the same number of
// instances, and for each instance of from one of d with id rename(id), of a batch with the same mesh reference and
// mesh, with the same World and Color, and the same Flags but for FlagSelected (which only marks the instance's id
// pixels selected; the picture's colours do not depend on it). rename returns an id it does not rename unchanged.
//
// It is the check that lets a renderer take a picture of from as the picture of d (glrender's
// Renderer.Adopt): the grid dialog's preview — the scene's instances and the grid's cubes under preview ids —
// is, once the grid is spawned, the scene's own picture but for the cubes' ids. It costs a lookup an instance.
//
// renamed, if not nil, lists the ids of from that rename changes (the preview's cubes): the instances it names are
// compared one by one, and the others, which keep their ids, as a whole by the lists' content hashes (the same
// instances in the same batches: see ContentHash), so that a spawn beside a million instances costs a lookup an
// instance spawned. Should the hashes differ (a difference only in FlagSelected does it), every instance is
// compared.
func (d *DrawList) DrawsAs(from *DrawList, rename func(id uint32) uint32, renamed []uint32) bool {
	if d == nil || from == nil || d.n != from.n {
		return false
	}
	if renamed != nil {
		if same, sure := d.drawsAsRenamed(from, rename, renamed); sure {
			return same
		}
	}
	for _, fb := range from.batches {
		if fb.n == 0 {
			continue
		}
		bi, ok := d.byMesh[fb.Ref]
		if !ok || d.batches[bi].Mesh != fb.Mesh {
			return false
		}
		db := d.batches[bi]
		for _, c := range fb.chunks {
			for i := range c.Instances {
				in := &c.Instances[i]
				at, ok := d.slot(rename(in.ID))
				if !ok {
					return false
				}
				dc, s := d.at(at)
				got := &dc.Instances[s]
				if dc.batch != db || got.World != in.World || got.Color != in.Color ||
					got.Flags&^FlagSelected != in.Flags&^FlagSelected {
					return false
				}
			}
		}
	}
	return true
}

// drawsAsRenamed is DrawsAs for the instances of from named in renamed, and the others' instances by their hashes:
// sure is false when that cannot tell (the lists' batches are in other places, or the other instances' hashes
// differ).
func (d *DrawList) drawsAsRenamed(from *DrawList, rename func(id uint32) uint32, renamed []uint32) (same, sure bool) {
	for bi, fb := range from.batches {
		if fb.n == 0 {
			continue
		}
		if at, ok := d.byMesh[fb.Ref]; !ok || d.batches[at].Mesh != fb.Mesh {
			return false, true
		} else if int(at) != bi {
			return false, false // the instances' hashes differ by their batches' places
		}
	}
	for bi, db := range d.batches {
		if db.n > 0 && (bi >= len(from.batches) || from.batches[bi].Ref != db.Ref) {
			return false, false
		}
	}
	rest, restTo := from.content, d.content
	for _, id := range renamed {
		fat, ok := from.slot(id)
		if !ok {
			continue
		}
		fc, fs := from.at(fat)
		in := &fc.Instances[fs]
		at, ok := d.slot(rename(id))
		if !ok {
			return false, true
		}
		dc, s := d.at(at)
		got := &dc.Instances[s]
		if dc.batch.Ref != fc.batch.Ref || got.World != in.World || got.Color != in.Color ||
			got.Flags&^FlagSelected != in.Flags&^FlagSelected {
			return false, true
		}
		rest -= instanceHash(fat.batch-1, in)
		restTo -= instanceHash(at.batch-1, got)
	}
	return true, rest == restTo
}
