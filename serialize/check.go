package serialize

import (
	"bytes"
	"context"
	"io"
	"math"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/internal/radix"
	"github.com/voltex-editor/voltex/serialize/internal/diag"
	"github.com/voltex-editor/voltex/serialize/internal/jsonpos"
)

// Validation of a big scene file (checkInPieces) reads its entities in pieces on every core and
// checks them as a load does, decoding every component, but keeps only a few numbers an entity
// instead of building a world: a million cubes are checked in a few MB besides the file's pages.
// It answers only "valid, without a single problem"; a file with any problem, or with anything it
// does not check itself (prefab instances, a layout it cannot split), is loaded as before, so the
// problems, their messages and positions are the load's.

// checkInPiecesMin is the size from which validation reads a scene in pieces (a variable for tests).
var checkInPiecesMin int64 = 4 << 20

// checkPieces is how many pieces the entities are read in (a variable for tests): one a core, at most
// maxCheckPieces, since each piece may hold an entity as big as the limits let one be.
var checkPieces = perCore

// perCore is one a core, at most maxCheckPieces.
func perCore() int { return min(runtime.GOMAXPROCS(0), maxCheckPieces) }

const maxCheckPieces = 8

// checkRecs is what a piece keeps of each entity it checked.
type checkRecs struct {
	ids     []int64   // in file order
	bounds  []float32 // a bound of each entity's Transform matrix (matrixBound; 0: no Transform)
	parents []checkParent
	bound   float32 // of the entity being checked
	bail    bool    // the piece met what only a load checks
}

// checkParent is an entity with a parent: its index in the piece and its parent's id.
type checkParent struct {
	i      int32
	parent int64
}

func (c *checkRecs) add(doc *entityDoc, hasTransform bool) {
	if doc.parent != 0 {
		c.parents = append(c.parents, checkParent{int32(len(c.ids)), doc.parent})
	}
	if !hasTransform {
		c.bound = 0
	}
	c.ids = append(c.ids, doc.id)
	c.bounds = append(c.bounds, c.bound)
	c.bound = 0
}

// reserve makes room for about as many more entities as the rest of the piece holds, at the bytes an
// entity took so far (the lists then grow once instead of doubling into fresh pages again and again).
func (c *checkRecs) reserve(pc *piece, off int64) {
	end := pc.end
	if end == 0 {
		end = pc.size
	}
	if n := len(c.ids); n > 0 && off > pc.start && end > off {
		more := int(float64(end-off) / float64(off-pc.start) * float64(n) * 1.05)
		c.ids = slices.Grow(c.ids, more)
		c.bounds = slices.Grow(c.bounds, more)
	}
}

// matrixBound bounds the entries of t's matrix (T·R·S: the row sums of T are at most 1+|t|, of a
// rotation at most 3 with rounding, of S at most max(1, |s|)); a product of matrices is bounded by
// the product of their bounds. Never 0.
func matrixBound(t *ecs.Transform) float32 {
	var tm, sm float64
	for i := range 3 {
		tm = max(tm, math.Abs(float64(t.Position[i])))
		sm = max(sm, math.Abs(float64(t.Scale[i])))
	}
	b := (1 + tm) * 3 * max(1, sm)
	if b > math.MaxFloat32 || math.IsNaN(b) {
		return math.MaxFloat32
	}
	return float32(b)
}

// worldBoundMax is the bound of a world matrix under which it is surely finite in float32
// (whose largest value is 3.4e38; float32 rounding adds far less than the margin).
const worldBoundMax = 1e36

// checkInPieces validates a scene like [Load] with opts would, without a world. ok reports that it
// could: the file has no problem at all, and name and n are the scene's name and entity count. If
// not ok, in is back at its start for a load to read it again. opts.CheckAsset is called from several
// goroutines at once (see askOnce).
func checkInPieces(ctx context.Context, in *Input, opts LoadOptions) (name string, n int, ok bool) {
	ra, isRA := in.seeker.(io.ReaderAt)
	if !isRA || in.size < checkInPiecesMin || opts.Lossy {
		return "", 0, false
	}
	defer func() {
		if !ok && in.rewind() != nil {
			ok = false
		}
	}()
	w := opts.world()()
	lim := opts.Limits.resolved()
	newChecker := func(r *sceneReader) *binder {
		b := newBinder(w)
		b.check = &checkRecs{}
		b.options(opts)
		b.probs, b.ds.probs, b.ds.path = r.probs, r.probs, &r.path
		return b
	}
	r := newSceneReader(ctx, in, opts.File, opts.Limits, nil, nil)
	head := newChecker(r)
	r.entity = func(*entityDoc) { head.check.bail = true } // entities before the version: the load reads them
	var p *pieces
	r.entities = func() error {
		p = &pieces{r: r, ra: ra, base: in.base, size: in.size, lim: lim, newChecker: newChecker}
		p.checkAsset = opts.CheckAsset
		return p.read()
	}
	h, err := r.read()
	if err != nil || h == nil || p == nil || !p.ok || head.check.bail || problems(r.probs) {
		return "", 0, false
	}
	var sel []int64
	if h.editor != nil {
		_, sel, _, _ = head.editorSection(h.editor)
	}
	// Migrations of the header, and the editor section, report into r.probs.
	if problems(r.probs) || p.data > lim.MaxWorldBytes && lim.MaxWorldBytes > 0 || lim.MaxEntities > 0 && p.n > lim.MaxEntities {
		return "", 0, false
	}
	if !p.links(sel, opts.CheckWorldMatrices) {
		return "", 0, false
	}
	return h.name, p.n, true
}

// askOnce returns check answering each reference from the first answer, safe for concurrent use: a
// check in pieces and a load after it ask about each reference once between them.
func askOnce(check func(ref string) error) func(ref string) error {
	var mu sync.Mutex
	asked := map[string]error{}
	return func(ref string) error {
		mu.Lock()
		defer mu.Unlock()
		err, seen := asked[ref]
		if !seen {
			err = check(ref)
			asked[ref] = err
		}
		return err
	}
}

// problems reports whether l holds any problem, an error or a warning.
func problems(l *diag.List) bool { return len(l.Problems) > 0 || l.Dropped > 0 }

// pieces reads the "entities" array of a file in pieces, one goroutine each.
type pieces struct {
	r          *sceneReader // of the whole file, at the array
	ra         io.ReaderAt
	base, size int64
	lim        Limits
	newChecker func(r *sceneReader) *binder
	checkAsset func(ref string) error

	parts []*piece
	ok    bool  // every piece was read and checked without a problem
	n     int   // entities
	data  int64 // world memory counted, as a load counts it
}

// piece is one piece of the entities array: from the item at start up to the one at end (or the array's end).
type piece struct {
	start, end int64 // offsets of the first item, and of the next piece's first item (0: the array's end)
	d          *jsonpos.Decoder
	r          *sceneReader
	b          *binder
	size       int64 // of the input
	ok         bool
	after      jsonpos.Pos // the last piece: where the array's ']' left the input
	afterOff   int64
}

// read reads the array, which starts at the top-level reader's next byte, and leaves that reader after it.
func (p *pieces) read() error {
	d := p.r.d
	kind, pos, err := d.Peek()
	if err != nil || kind != jsonpos.Array {
		return errStop
	}
	open := d.Offset()
	starts := p.split(open)
	for i, s := range starts {
		pc := &piece{start: s, size: p.size}
		if i+1 < len(starts) {
			pc.end = starts[i+1]
		}
		pc.r = &sceneReader{ctx: p.r.ctx, lim: p.r.lim, probs: &diag.List{File: p.r.probs.File, Max: p.r.probs.Max},
			version: p.r.version, versionKnown: true}
		pc.b = p.newChecker(pc.r)
		pc.b.ds.checkAsset = p.checkAsset
		pc.r.entity = pc.b.entity
		pc.r.path.Key("entities")
		pc.d = pieceDecoder(p.ra, p.base, p.size, s, i == 0, pos, p.r.lim)
		p.parts = append(p.parts, pc)
	}
	var stop atomic.Bool
	var wg sync.WaitGroup
	for i, pc := range p.parts {
		wg.Go(func() {
			pc.ok = pc.check(i == 0, &stop)
			if !pc.ok {
				stop.Store(true)
			}
		})
	}
	wg.Wait()
	for _, pc := range p.parts {
		if !pc.ok {
			return errStop
		}
		p.n += len(pc.b.check.ids)
		p.data += pc.b.ds.data
	}
	last := p.parts[len(p.parts)-1]
	d.Resume(io.NewSectionReader(p.ra, p.base+last.afterOff, p.size-last.afterOff), last.after, last.afterOff)
	p.ok = true
	return nil
}

// split returns the offsets the pieces start at: the array's '[' for the first, then items found near
// equal shares of the rest. An item is found by the layout the editor writes: a line that ends an object
// with "}," and a line that starts with the first item's indentation and its '{' (a raw line break cannot
// be inside a JSON string). That the piece before ends there is checked when it is read.
func (p *pieces) split(open int64) []int64 {
	return splitItems(p.ra, p.base, p.size, open, checkPieces())
}

// splitItems is pieces.split of the array at open of the input ra (from base, size bytes) into n pieces.
func splitItems(ra io.ReaderAt, base, size, open int64, n int) []int64 {
	starts := []int64{open}
	if n < 2 {
		return starts
	}
	head := make([]byte, 4096)
	k, _ := ra.ReadAt(head, base+open)
	head = head[:k]
	j := bytes.IndexFunc(head[min(1, len(head)):], func(c rune) bool { return c != ' ' && c != '\t' && c != '\r' && c != '\n' }) + 1
	nl := bytes.LastIndexByte(head[:max(j, 0)], '\n')
	if j < 1 || head[j] != '{' || nl < 0 {
		return starts
	}
	pattern := append([]byte("},"), head[nl:j+1]...) // "},", "\n", the indentation, "{"
	window := make([]byte, 64<<10)
	share := (size - open) / int64(n)
	for i := 1; i < n; i++ {
		at := open + int64(i)*share
		if at <= starts[len(starts)-1] {
			continue
		}
		k, _ := ra.ReadAt(window, base+at)
		if m := bytes.Index(window[:k], pattern); m >= 0 {
			starts = append(starts, at+int64(m)+int64(len(pattern))-1)
		}
	}
	return starts
}

// check reads and checks the piece's entities; it reports whether they were all read and checked
// without a problem, and the piece ends where the next one starts.
func (pc *piece) check(first bool, stop *atomic.Bool) bool {
	d, r, c := pc.d, pc.r, pc.b.check
	r.d = d
	if first {
		if _, err := d.EnterArray(); err != nil {
			return false
		}
	}
	for i := 0; ; i++ {
		item, ended := pieceItem(d, pc.end)
		if !item {
			pc.after, pc.afterOff = d.Pos(), d.Offset()
			return ended
		}
		if r.lim.MaxEntities > 0 && i >= r.lim.MaxEntities {
			return false
		}
		var err error
		r.cur, err = d.Value()
		if err != nil {
			return false
		}
		r.readEntity(&r.cur, i)
		d.ResetArena()
		if c.bail || problems(r.probs) {
			return false
		}
		if i == expectAfter {
			c.reserve(pc, d.Offset())
		}
		if i&255 == 255 && (stop.Load() || r.ctx.Err() != nil) {
			return false
		}
	}
}

// pieceDecoder reads the piece of the entities array that starts at offset start of the input ra (from base, size
// bytes): the first at the array's '[' (at pos), the others at an item, inside the array and the top-level object.
func pieceDecoder(ra io.ReaderAt, base, size, start int64, first bool, pos jsonpos.Pos, lim Limits) *jsonpos.Decoder {
	r := io.NewSectionReader(ra, base+start, size-start)
	if first {
		return jsonpos.NewDecoderAt(r, lim.json(), pos, start, "{")
	}
	// The line is not known here; it matters only for problems, and a piece with any is not used.
	return jsonpos.NewDecoderAt(r, lim.json(), jsonpos.Pos{Line: 1, Col: 1}, start, "{[")
}

// pieceItem moves d to the next item of a piece that ends at end (0: at the array's end). item reports that there
// is one to read; when not, ended reports whether the piece ended where it must: an earlier piece at the next
// one's start, the last at the array's end (d is after it then).
func pieceItem(d *jsonpos.Decoder, end int64) (item, ended bool) {
	more, err := d.NextItem()
	switch {
	case err != nil:
		return false, false
	case !more:
		return false, end == 0
	case end > 0:
		if _, _, err := d.Peek(); err != nil {
			return false, false
		}
		if at := d.Offset(); at >= end {
			return false, at == end
		}
	}
	return true, true
}

// links checks what needs every entity, as binder.finish does: unique ids, parents that exist, no
// cycles, references to entities that exist, the selection, and (if checkWorld) world matrices that are
// surely finite. It reports whether all hold.
func (p *pieces) links(selection []int64, checkWorld bool) bool {
	hier := len(selection) > 0
	for _, pc := range p.parts {
		if len(pc.b.unknownSeen) > 0 { // a warning each
			return false
		}
		if len(pc.b.check.parents) > 0 || len(pc.b.refs) > 0 {
			hier = true
		}
	}
	if !hier {
		if checkWorld {
			for _, pc := range p.parts {
				for _, b := range pc.b.check.bounds {
					if b >= worldBoundMax {
						return false
					}
				}
			}
		}
		return p.uniqueIDs()
	}
	ids := make([]int64, 0, p.n)
	for _, pc := range p.parts {
		ids = append(ids, pc.b.check.ids...)
	}
	// Entities by id, to find parents and references.
	byID := make([]int32, len(ids))
	for i := range byID {
		byID[i] = int32(i)
	}
	radix.SortFunc(byID, func(i int32) uint64 { return idSortKey(ids[i]) })
	for k := 1; k < len(byID); k++ {
		if ids[byID[k-1]] == ids[byID[k]] {
			return false
		}
	}
	find := func(id int64) int32 {
		k, ok := slices.BinarySearchFunc(byID, id, func(i int32, id int64) int {
			switch {
			case ids[i] < id:
				return -1
			case ids[i] > id:
				return 1
			}
			return 0
		})
		if !ok {
			return -1
		}
		return byID[k]
	}
	for _, id := range selection {
		if find(id) < 0 {
			return false
		}
	}
	parentOf := make([]int32, len(ids))
	for i := range parentOf {
		parentOf[i] = -1
	}
	bounds := make([]float32, 0, len(ids))
	off := int32(0)
	for _, pc := range p.parts {
		for _, l := range pc.b.check.parents {
			q := find(l.parent)
			if q < 0 || q == off+l.i {
				return false
			}
			parentOf[off+l.i] = q
		}
		for _, ref := range pc.b.refs {
			if find(ref.ref.id) < 0 {
				return false
			}
		}
		bounds = append(bounds, pc.b.check.bounds...)
		off += int32(len(pc.b.check.ids))
	}
	return worldsFinite(parentOf, bounds, checkWorld)
}

// uniqueIDs reports whether no id is there twice. It sorts each piece's ids, on a goroutine each, and
// merges them.
func (p *pieces) uniqueIDs() bool {
	var wg sync.WaitGroup
	lists := make([][]int64, len(p.parts))
	for i, pc := range p.parts {
		lists[i] = pc.b.check.ids
		wg.Go(func() { slices.Sort(lists[i]) })
	}
	wg.Wait()
	last, seen := int64(0), false
	for {
		k := -1
		for i, l := range lists {
			if len(l) > 0 && (k < 0 || l[0] < lists[k][0]) {
				k = i
			}
		}
		if k < 0 {
			return true
		}
		id := lists[k][0]
		lists[k] = lists[k][1:]
		if seen && id == last {
			return false
		}
		last, seen = id, true
	}
}

// worldsFinite reports whether parentOf has no cycle and, if checkWorld, every entity's world matrix
// is surely finite: the product of the bounds of its Transform and its ancestors' (up to the first
// without a Transform, whose children propagation treats as roots).
func worldsFinite(parentOf []int32, bounds []float32, checkWorld bool) bool {
	world := make([]float64, len(parentOf))
	ok := true
	eachParentPath(parentOf, func(path []int32, cycleAt int32) bool {
		if cycleAt >= 0 {
			ok = false
			return false
		}
		for k := len(path) - 1; k >= 0; k-- { // from the top down
			e := path[k]
			world[e] = float64(bounds[e])
			if q := parentOf[e]; q >= 0 && bounds[q] != 0 && bounds[e] != 0 {
				world[e] *= world[q]
			}
			if checkWorld && world[e] >= worldBoundMax {
				ok = false
				return false
			}
		}
		return true
	})
	return ok
}
