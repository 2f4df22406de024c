package serialize

import (
	"context"
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"

	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/serialize/internal/diag"
	"github.com/voltex-editor/voltex/serialize/internal/jsonpos"
)

// A big scene file is loaded in pieces (loadInPieces): its entities array is cut where the editor's layout shows
// an item starts (splitItems), and every core reads pieces, parsing and binding each entity on the same core (a
// parse on one core beside its binding on another spends much of their time moving the parse trees between the
// cores' caches). One worker, on the loading goroutine, takes pieces from the front into the load's own world;
// the others take pieces from the back, each into a world of its own, until they meet; the back pieces' worlds are
// then joined to the load's (ecs.World.Join) in file order. Only a load without a single problem is made this way:
// a piece that meets a problem, a prefab instance or anything else it leaves to a load in turn stops them all, and
// the file is loaded again in turn, so that problems, their messages and their positions are a load in turn's.

// loadInPiecesMin is the size from which a load reads a file in pieces (a variable for tests).
var loadInPiecesMin int64 = 4 << 20

// loadWorkers is how many goroutines a load in pieces reads on (a variable for tests): one a core, at most
// maxCheckPieces (each piece may hold an entity as big as the limits let one be).
var loadWorkers = perCore

// loadPieces is how many pieces a load in pieces cuts the entities into (a variable for tests): many times the
// workers, so that the workers end near each other whenever each started (the back ones start once the editor's
// window is up: LoadOptions.Alternate).
var loadPieces = func(workers int) int { return 16 * workers }

// beforeFront is called before the front worker takes its first piece (a test makes it late).
var beforeFront = func(*loadParts) {}

// loadedInPieces counts the loads made in pieces, and readFast the entities they and raw reads read straight
// from the input (for tests).
var loadedInPieces, readFast atomic.Int64

// loadPiece is one piece of the entities array, from the item at start up to the one at end (0: the array's end).
type loadPiece struct {
	start, end int64
	d          *jsonpos.Decoder
	w          *ecs.World // a back piece's own world
	b          *binder    // a back piece's binder (the front's pieces are read by the load's)
	r          *sceneReader
	ok         bool
	after      jsonpos.Pos // the last piece: where the array's ']' left the input
	afterOff   int64
}

// loadParts reads the entities array of a load in pieces.
type loadParts struct {
	r        *sceneReader // of the whole file, at the array
	b        *binder      // the load's: the front's pieces are read into its world
	ra       io.ReaderAt
	in       *Input
	newWorld func() *ecs.World
	opts     LoadOptions
	parts    []*loadPiece
	open     int64 // the array's offset

	mu                  sync.Mutex
	nextFront, nextBack int // the next piece each end takes
	stop                atomic.Bool
	read                atomic.Int64 // bytes of the pieces read
	// share is the world memory (Limits.MaxWorldBytes) each worker may count: its share of the limit, so that
	// all of them together never count more (a worker over its share stops them all, for a load in turn).
	share int64
	used  bool // the entities were read in pieces
	ok    bool // and every piece was read without a problem
}

// loadInPieces loads a file whose input can be read at any offset in pieces, if it is big enough. done reports
// that s and err are the load's; if not, in is back at its start for a load in turn (the file has a problem, or
// something a load in pieces leaves to a load in turn), unless err says why it could not go back.
func loadInPieces(ctx context.Context, in *Input, opts LoadOptions) (s *Scene, done bool, err error) {
	ra, isRA := in.seeker.(io.ReaderAt)
	if !isRA || in.size < loadInPiecesMin || opts.Lossy || loadWorkers() < 2 {
		return nil, false, nil
	}
	if opts.CheckAsset != nil {
		opts.CheckAsset = askOnce(opts.CheckAsset) // asked from every worker
	}
	b, r := startLoad(ctx, in, opts)
	r.alternate = opts.Alternate
	r.expect = b.expect
	p := &loadParts{r: r, b: b, ra: ra, in: in, newWorld: opts.world(), opts: opts}
	r.entities = p.readArray
	h, err := r.read()
	if err != nil {
		return nil, true, loadError(ctx, opts, err)
	}
	if p.used && (!p.ok || h == nil || problems(r.probs)) {
		return nil, false, rewind(in)
	}
	if h != nil {
		s = b.finish(h)
	}
	if p.used && (s == nil || problems(r.probs)) {
		return nil, false, rewind(in)
	}
	if opts.overMemory != nil {
		*opts.overMemory = b.ds.overData
	}
	s, err = b.done(s, r, in, opts)
	if p.used && err == nil {
		loadedInPieces.Add(1)
		readFast.Add(int64(b.fastN))
	}
	return s, true, err
}

// rewind puts in back at its start for a load in turn after a load in pieces (nil), or says why it cannot.
func rewind(in *Input) error {
	if err := in.rewind(); err != nil {
		return fmt.Errorf("rereading the scene: %w", err)
	}
	return nil
}

// readArray reads the entities array (the reader's next value): in pieces when the file's layout shows where
// items start, in turn otherwise.
func (p *loadParts) readArray() error {
	r := p.r
	d := r.d
	kind, pos, err := d.Peek()
	if err != nil {
		return err
	}
	if kind != jsonpos.Array {
		return r.readEntities()
	}
	p.open = d.Offset()
	base, size := p.in.base, p.in.size
	starts := splitItems(p.ra, base, size, p.open, loadPieces(loadWorkers()))
	if len(starts) < 2 {
		return r.readEntities()
	}
	p.used = true
	for i, s := range starts {
		pc := &loadPiece{start: s}
		if i+1 < len(starts) {
			pc.end = starts[i+1]
		}
		pc.d = pieceDecoder(p.ra, base, size, s, i == 0, pos, r.lim)
		p.parts = append(p.parts, pc)
	}
	p.nextBack = len(p.parts) - 1
	if !p.readPieces() {
		return p.stopped()
	}
	if !p.join() {
		return errStop
	}
	last := p.parts[len(p.parts)-1]
	d.Resume(io.NewSectionReader(p.ra, base+last.afterOff, size-last.afterOff), last.after, last.afterOff)
	p.ok = true
	return nil
}

// stopped is what reading the array returns once a piece stopped: the context's error if it was cancelled.
func (p *loadParts) stopped() error {
	if err := p.r.ctx.Err(); err != nil {
		return err
	}
	return errStop
}

// readPieces reads every piece: the front's on this goroutine into the load's world, the back's on the other
// workers. It reports whether all were read without a problem.
func (p *loadParts) readPieces() bool {
	b, r := p.b, p.r
	// The front's pieces report to a reader of their own, with the path at "entities".
	front := &sceneReader{ctx: r.ctx, lim: r.lim, probs: &diag.List{File: r.probs.File, Max: r.probs.Max},
		version: r.version, versionKnown: true, entity: b.entity}
	front.path.Key("entities")
	probs, path, maxData := b.probs, b.ds.path, b.ds.maxData
	if maxData > 0 {
		p.share = max(maxData/int64(loadWorkers()), 1)
		b.ds.maxData = p.share
	}
	b.probs, b.ds.probs, b.ds.path = front.probs, front.probs, &front.path
	b.inPiece = true
	defer func() {
		b.probs, b.ds.probs, b.ds.path, b.ds.maxData = probs, probs, path, maxData
		b.inPiece = false
	}()
	frontDone := make(chan struct{})
	var wg sync.WaitGroup
	for range loadWorkers() - 1 {
		wg.Go(func() { p.back(frontDone) })
	}
	beforeFront(p)
	for {
		k, ok := p.take(true)
		if !ok {
			break
		}
		pc := p.parts[k]
		pc.r = front
		if pc.ok = p.readPiece(pc, b, k == 0, b.recs.n); !pc.ok {
			p.stop.Store(true)
			break
		}
	}
	close(frontDone)
	backDone := make(chan struct{})
	go func() {
		wg.Wait()
		close(backDone)
	}()
	for waiting := true; waiting; {
		select {
		case <-backDone:
			waiting = false
		case <-time.After(50 * time.Millisecond):
			p.progress()
		}
	}
	if p.stop.Load() || p.nextFront != p.nextBack+1 || p.r.ctx.Err() != nil {
		return false
	}
	for _, pc := range p.parts {
		if !pc.ok {
			return false
		}
	}
	return true
}

// take takes the next piece from the front or the back; false when none is left or reading stopped. The first
// piece is always the front's (it enters the array), even when a back worker asks before the front has begun.
func (p *loadParts) take(front bool) (int, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.nextFront > p.nextBack || !front && p.nextBack == 0 || p.stop.Load() || p.r.ctx.Err() != nil {
		return 0, false
	}
	if front {
		p.nextFront++
		return p.nextFront - 1, true
	}
	p.nextBack--
	return p.nextBack + 1, true
}

// back is a back worker: once the window is up (LoadOptions.Alternate) or the front is done, it reads pieces
// from the back, each into a world of its own.
func (p *loadParts) back(frontDone <-chan struct{}) {
	if a := p.r.alternate; a != nil {
		select {
		case <-a:
		case <-frontDone:
		case <-p.r.ctx.Done():
			return
		}
	}
	var data int64 // the memory this worker's pieces counted
	for {
		k, ok := p.take(false)
		if !ok {
			return
		}
		pc := p.parts[k]
		pc.w = p.newWorld()
		pc.b = newBinder(pc.w)
		pc.b.options(p.opts)
		if p.share > 0 {
			pc.b.ds.maxData = max(p.share-data, 1)
		}
		pc.b.inPiece = true
		pc.r = &sceneReader{ctx: p.r.ctx, lim: p.r.lim, probs: &diag.List{File: p.r.probs.File, Max: p.r.probs.Max},
			version: p.r.version, versionKnown: true, entity: pc.b.entity}
		pc.r.path.Key("entities")
		pc.b.probs, pc.b.ds.probs, pc.b.ds.path = pc.r.probs, pc.r.probs, &pc.r.path
		if pc.ok = p.readPiece(pc, pc.b, false, 0); !pc.ok {
			p.stop.Store(true)
			return
		}
		data += pc.b.ds.data
	}
}

// readPiece reads pc's entities with pc.r into b, the first numbered index; it reports whether they were all
// read without a problem, and the piece ends where the next one starts.
func (p *loadParts) readPiece(pc *loadPiece, b *binder, first bool, index int) bool {
	d, r := pc.d, pc.r
	r.d = d
	defer func() { r.d = nil }()
	if first {
		if _, err := d.EnterArray(); err != nil {
			return false
		}
	}
	lim := r.lim.MaxEntities
	fast := b.fastReads(r)
	off := pc.start
	n := 0
	for i := 0; ; i++ {
		item, ended := pieceItem(d, pc.end)
		if !item {
			pc.after, pc.afterOff = d.Pos(), d.Offset()
			p.read.Add(pc.afterOff - off)
			return ended
		}
		if lim > 0 && b.recs.n >= lim {
			return false
		}
		if !fast || !b.fastEntity(d) {
			var err error
			r.cur, err = d.Value()
			if err != nil {
				return false
			}
			r.readEntity(&r.cur, index+i)
			d.ResetArena()
		}
		if b.bailed || b.ds.overData || len(b.sawUnknown) > 0 || problems(r.probs) {
			return false
		}
		n++
		// The front's world makes room for the rest of the file once it has read a few thousand entities, a back
		// piece's for the rest of its piece (join makes room for what they hold).
		if at := d.Offset(); b == p.b && b.recs.n == expectAfter {
			b.expect(int(float64(p.in.size-at) / float64(at-p.open) * float64(b.recs.n)))
		} else if b != p.b && n == expectAfter && pc.end > 0 {
			b.expect(int(float64(pc.end-at) / float64(at-pc.start) * float64(n)))
		}
		if i&255 == 255 {
			at := d.Offset()
			p.read.Add(at - off)
			off = at
			if p.stop.Load() || r.ctx.Err() != nil {
				return false
			}
			if b == p.b {
				p.progress()
			}
		}
	}
}

// progress reports the bytes read so far (on the loading goroutine).
func (p *loadParts) progress() {
	if r := p.r; r.progress != nil && r.size > 0 {
		r.progress(p.open+p.read.Load(), r.size)
	}
}

// join moves the back pieces' entities into the load's world, in file order, and their records and references
// into its binder. It reports false if a world could not be joined (not made as the load's world was).
func (p *loadParts) join() bool {
	b := p.b
	back := 0
	for _, pc := range p.parts[p.nextFront:] {
		back += pc.b.recs.n
	}
	b.expect(back) // if the front read too few to make room
	for _, pc := range p.parts[p.nextFront:] {
		moved, err := b.w.Join(pc.w)
		if err != nil {
			return false
		}
		from := int32(b.recs.n)
		for i := range int32(pc.b.recs.n) {
			rec := *pc.b.recs.at(i)
			rec.e = moved[rec.e.Index()]
			b.recs.push(rec)
		}
		for _, rf := range pc.b.refs {
			rf.rec += from
			b.refs = append(b.refs, rf)
		}
		b.ds.data += pc.b.ds.data
		b.fastN += pc.b.fastN
		pc.w, pc.b, pc.r, pc.d = nil, nil, nil, nil
	}
	lim := p.r.lim
	return lim.MaxEntities <= 0 || b.recs.n <= lim.MaxEntities
}
