package viewport

// DrawsAs reports whether d draws what from draws once from's ids are renamed by rename: the same number of
// instances, and for each instance of from one of d with id rename(id), of a batch with the same mesh reference and
// mesh, with the same World and Color, and the same Flags but for FlagSelected (which only marks the instance's id
// pixels selected; the picture's colours do not depend on it). rename returns an id it does not rename unchanged.
//
// It is the check that lets a renderer take a picture of from as the picture of d (glrender's
// Renderer.Adopt): the grid dialog's preview — the scene's instances and the grid's cubes under preview ids —
// is, once the grid is spawned, the scene's own picture but for the cubes' ids. It costs a lookup an instance.
func (d *DrawList) DrawsAs(from *DrawList, rename func(id uint32) uint32) bool {
	if d == nil || from == nil || d.n != from.n {
		return false
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
