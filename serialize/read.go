package serialize

import (
	"context"
	"errors"
	"fmt"
	"github.com/voltex-editor/voltex/internal/words"
	"strconv"

	"github.com/voltex-editor/voltex/serialize/internal/diag"
	"github.com/voltex-editor/voltex/serialize/internal/jsonpos"
)

// Format names and the current version of the files this package reads and
// writes.
const (
	SceneFormat    = "voltex.scene"
	ExportFormat   = "voltex.export"
	CurrentVersion = 2
)

// entityDoc is one entity of a scene file after migration to the current
// version, structurally checked but with its components still JSON.
type entityDoc struct {
	index      int            // position in the "entities" array
	pos        jsonpos.Pos    // of the entity object
	id         int64          // > 0 when valid; 0 when missing or broken
	idPos      jsonpos.Pos    //
	name       *jsonpos.Value // nil when absent
	parent     int64          // 0 = no parent (or broken)
	parentPos  jsonpos.Pos    //
	order      float64        // place among siblings (0 when absent)
	components *jsonpos.Value // the "components" object; nil when absent or broken
	// A prefab instance: the "prefab" path (nil when absent or broken).
	prefab *jsonpos.Value
	// An override record (an entity of a prefab instance): its "instance" and "source" ids (0 when
	// absent or broken), whether it says "removed": true, and where.
	instance, source       int64
	instancePos, sourcePos jsonpos.Pos
	removed, isRecord      bool
	orderPos               jsonpos.Pos // of "order", when present
}

// header is what a scene file says outside its entities.
type header struct {
	version int
	name    string
	editor  *jsonpos.Value // the "editor" object, nil when absent
}

// sceneReader reads a scene file: the top-level object member by member,
// and the entities one at a time (each parsed into a small tree, migrated,
// checked and handed to entity), so memory does not grow with the file.
//
// If the file lists its entities before saying its version (only hand-made
// files do), the first pass skips them — keeping their text when the input
// cannot seek — and reads them once the version is known: from the kept
// text, or in a second pass over the input.
type sceneReader struct {
	ctx      context.Context
	in       *Input
	size     int64 // total input size for progress, 0 if unknown
	lim      Limits
	probs    *diag.List
	path     diag.Path
	progress func(done, total int64)
	entity   func(*entityDoc) // receives every entity, in file order
	stop     func() bool      // if set, reports true when reading must stop (a limit was reported)
	// alternate: the parse ahead waits for the binding of each batch until it is closed (LoadOptions.Alternate).
	alternate <-chan struct{}
	// expect, if set, is told once, after the first expectAfter entities, about how many follow (expectedRest).
	expect func(n int)
	// entities, if set, reads the "entities" array in place of readEntities when the version is known by then.
	entities func() error
	// straight, if set, reads the entity at the decoder's position straight from the input, if it can (the
	// decoder moved past it), in place of a tree handed to entity; the current version's entities only.
	straight func(d *jsonpos.Decoder) bool

	doc          entityDoc     // reused for every entity
	cur          jsonpos.Value // the entity being read
	d            *jsonpos.Decoder
	hdr          jsonpos.Value // header members seen (cloned out of the arena)
	version      int
	versionKnown bool
	sawEntities  bool
	count        int
	nextProgress int64
	// The entities' text, kept from a stream that gave them before its
	// version, with where it starts.
	kept             []byte
	keptKey, keptPos jsonpos.Pos
	keptOffset       int64
	keptFromStream   bool
}

// errStop ends reading early: the file is over a limit, or not a scene.
var errStop = errors.New("too many problems")

// run reads the whole input. It returns the header when the file could be
// read to the end (problems are in r.probs), or a non-nil error for
// cancellation and I/O failures.
func (r *sceneReader) run() (*header, error) {
	r.hdr = jsonpos.NewObject()
	deferred, err := r.pass(false)
	if err == nil && deferred {
		if r.keptFromStream {
			r.d = jsonpos.NewBytesDecoderAt(r.kept, r.lim.json(), r.keptPos, r.keptOffset)
			if err = r.readEntities(); err == nil {
				err = r.d.Finish()
			}
			r.kept = nil
		} else if err = r.in.rewind(); err != nil {
			return nil, fmt.Errorf("rereading the scene: %w", err)
		} else {
			_, err = r.pass(true)
		}
	}
	switch {
	case errors.Is(err, errStop):
		return nil, nil
	case err != nil:
		var se *jsonpos.SyntaxError
		if errors.As(err, &se) {
			r.probs.Add(diag.Problem{Line: se.Pos.Line, Col: se.Pos.Col, Msg: se.Msg})
			return nil, nil
		}
		return nil, err
	}
	return r.finishHeader(), nil
}

// pass reads the input once. In the first pass (second == false) it reads
// the header and, if the version is known by then, the entities; it reports
// deferred == true if it had to skip them. The second pass reads only the
// entities.
func (r *sceneReader) pass(second bool) (deferred bool, err error) {
	r.d = jsonpos.NewDecoder(r.in, r.lim.json())
	d := r.d
	kind, pos, err := d.Peek()
	if err != nil {
		return false, err
	}
	if kind != jsonpos.Object {
		// Report broken JSON in preference to the wrong kind of value.
		if err := d.Skip(); err != nil {
			return false, err
		}
		if err := d.Finish(); err != nil {
			return false, err
		}
		r.probs.Errorf(pos.Line, pos.Col, "", "a scene file must be a JSON object, not a %s", kind)
		return false, errStop
	}
	if _, err := d.EnterObject(); err != nil {
		return false, err
	}
	for {
		key, keyPos, ok, err := d.NextMember()
		if err != nil {
			return false, err
		}
		if !ok {
			break
		}
		if string(key) == "entities" {
			if second || (!r.sawEntities && r.versionKnown) {
				read := r.readEntities
				if r.entities != nil && !second {
					read = r.entities
				}
				if err := read(); err != nil {
					return false, err
				}
			} else {
				if !r.sawEntities {
					deferred = true
					if r.in.seeker == nil {
						if err := r.keep(keyPos); err != nil {
							return false, err
						}
						r.sawEntities = true
						continue
					}
				} else {
					r.probs.Errorf(keyPos.Line, keyPos.Col, "", "duplicate key \"entities\"")
				}
				if err := d.Skip(); err != nil {
					return false, err
				}
			}
			r.sawEntities = true
			continue
		}
		if second {
			if err := d.Skip(); err != nil {
				return false, err
			}
			continue
		}
		if err := r.headerMember(string(key), keyPos); err != nil {
			return false, err
		}
		d.ResetArena()
	}
	return deferred, d.Finish()
}

// keep keeps the text of the entities that come before the version in a
// stream, to read once the version is known.
func (r *sceneReader) keep(keyPos jsonpos.Pos) error {
	var err error
	r.kept, r.keptPos, r.keptOffset, err = r.d.SkipCapture(nil, int(r.lim.MaxBuffered))
	r.keptKey, r.keptFromStream = keyPos, true
	var se *jsonpos.SyntaxError
	if errors.As(err, &se) && se.Limit && se.Pos == r.keptPos {
		se.Msg = fmt.Sprintf("the entities come before the \"version\", and over %s of them cannot be kept in memory "+
			"while reading the rest of a stream: put \"format\" and \"version\" first (as the editor writes them), or read the file from disk",
			words.Bytes(r.lim.MaxBuffered))
	}
	return err
}

// headerMember reads one top-level member other than "entities".
func (r *sceneReader) headerMember(key string, keyPos jsonpos.Pos) error {
	d := r.d
	switch key {
	case "format", "version", "name", "editor":
	default:
		r.probs.Errorf(keyPos.Line, keyPos.Col, "", "unknown key %s (a scene has format, version, name, editor and entities)", strconv.Quote(key))
		return d.Skip()
	}
	if prev := r.hdr.Get(key); prev != nil {
		p := prev.KeyPos()
		r.probs.Errorf(keyPos.Line, keyPos.Col, "", "duplicate key %s (first at %d:%d)", strconv.Quote(key), p.Line, p.Col)
		return d.Skip()
	}
	v, err := d.Value()
	if err != nil {
		return err
	}
	r.hdr.Set(key, v.Clone())
	r.hdr.Get(key).SetKeyPos(keyPos)
	if key == "format" && v.IsStr(ExportFormat) { // a game export: its other keys are not worth a problem each
		r.errAt(&v, "format", "this is a game export (%s), not a scene; exports cannot be opened, load the scene they came from", ExportFormat)
		return errStop
	}
	if key == "version" {
		n, err := v.Int()
		if err == nil && n > CurrentVersion {
			r.probs.Errorf(v.Pos().Line, v.Pos().Col, "version",
				"scene version %d is newer than this editor supports (%d)", n, CurrentVersion)
			return errStop
		}
		if err == nil && n >= 0 {
			r.version, r.versionKnown = int(n), true
		}
	}
	return nil
}

// finishHeader checks format and version, migrates the header and returns
// what the scene says outside its entities.
func (r *sceneReader) finishHeader() *header {
	h := &header{version: CurrentVersion}
	format, version := r.hdr.Get("format"), r.hdr.Get("version")
	if format != nil {
		switch {
		case format.Kind() != jsonpos.String:
			r.errAt(format, "format", "must be the string %q, not a %s", SceneFormat, format.Kind())
		case !format.IsStr(SceneFormat):
			r.errAt(format, "format", "unknown format %q (a scene file says %q)", format.Str(), SceneFormat)
		}
	}
	switch {
	case version != nil:
		n, err := version.Int()
		switch {
		case err != nil:
			r.errAt(version, "version", "must be an integer version number, not %s", describeValue(version))
		case n < 0:
			r.errAt(version, "version", "must not be negative")
		case format == nil && n > 0:
			r.probs.Errorf(1, 1, "", "missing \"format\": %q (required since version 1)", SceneFormat)
		default:
			h.version = int(n)
		}
	case format != nil:
		r.probs.Errorf(1, 1, "", "missing \"version\"")
	case !r.sawEntities:
		r.probs.Errorf(1, 1, "", "this is not a scene file: it has no \"format\": %q (nor the \"entities\" of a version 0 scene)", SceneFormat)
	default:
		h.version = 0 // version 0 files had neither key
	}
	if !r.versionKnown {
		r.version = h.version
	}
	for _, m := range migrations[min(h.version, CurrentVersion):] {
		if m.header != nil {
			m.header(&r.hdr, r)
		}
	}
	if n := r.hdr.Get("name"); n != nil {
		if n.Kind() == jsonpos.String {
			h.name = n.Str()
		} else {
			r.errAt(n, "name", "must be a string, not %s", describeValue(n))
		}
	}
	if e := r.hdr.Get("editor"); e != nil {
		if e.Kind() == jsonpos.Object {
			h.editor = e
		} else {
			r.errAt(e, "editor", "must be an object, not %s", describeValue(e))
		}
	}
	return h
}

// readEntities reads the "entities" array one entity at a time.
func (r *sceneReader) readEntities() error {
	d := r.d
	kind, pos, err := d.Peek()
	if err != nil {
		return err
	}
	if kind != jsonpos.Array {
		r.probs.Errorf(pos.Line, pos.Col, "entities", "must be an array of entities, not a %s", kind)
		return d.Skip()
	}
	if _, err := d.EnterArray(); err != nil {
		return err
	}
	mark := r.path.Key("entities")
	defer r.path.Truncate(mark)
	start := d.Offset()
	if r.straight != nil && r.versionKnown && r.version >= CurrentVersion {
		return r.readStraight(start)
	}
	p := r.parseAhead()
	defer p.stop()
	for i := 0; ; i++ {
		it, ok := p.next()
		if !ok {
			return p.err
		}
		if it.over {
			return r.tooMany(it.pos)
		}
		r.cur = it.v
		r.readEntity(&r.cur, i)
		if err := r.read1(i, start, it.off); err != nil {
			return err
		}
	}
}

// tooMany reports the item at pos past the limit of entities, and stops the reading.
func (r *sceneReader) tooMany(pos jsonpos.Pos) error {
	r.probs.Errorf(pos.Line, pos.Col, "entities", "more than the limit of %s entities", words.Thousands(int64(r.lim.MaxEntities)))
	return errStop
}

// read1 follows the read of entity i, which ended at offset off of the input (the array's items start at start):
// it counts it, says how many are expected once a few are read, and reports progress; errStop if reading must
// stop, the context's error if it was cancelled.
func (r *sceneReader) read1(i int, start, off int64) error {
	r.count++
	if r.count == expectAfter && r.expect != nil && r.size > 0 && off > start {
		r.expect(r.expectedRest(start, off))
	}
	if r.stop != nil && r.stop() {
		return errStop
	}
	if i&255 == 255 {
		if err := r.ctx.Err(); err != nil {
			return err
		}
		if r.progress != nil && off >= r.nextProgress {
			r.progress(off, r.size)
			r.nextProgress = off + max(r.size/100, 1<<20)
		}
	}
	return nil
}

// readStraight is readEntities with entities read straight from the input where they can be (sceneReader.straight),
// on this goroutine, and into trees where not.
func (r *sceneReader) readStraight(start int64) error {
	d := r.d
	for i := 0; ; i++ {
		more, err := d.NextItem()
		if err != nil || !more {
			return err
		}
		if r.lim.MaxEntities > 0 && i >= r.lim.MaxEntities {
			_, pos, _ := d.Peek()
			return r.tooMany(pos)
		}
		if !r.straight(d) {
			if r.cur, err = d.Value(); err != nil {
				return err
			}
			r.readEntity(&r.cur, i)
			d.ResetArena()
		}
		if err := r.read1(i, start, d.Offset()); err != nil {
			return err
		}
	}
}

// parsed is one item of the entities array parsed ahead: its tree and the input offset after it, or
// (over) where the item past the entity limit starts.
type parsed struct {
	v    jsonpos.Value
	off  int64
	over bool
	pos  jsonpos.Pos
}

// aheadBatch is a run of parsed items and the arena their trees are in.
type aheadBatch struct {
	items []parsed
	arena jsonpos.Arena
}

// ahead parses the items of the entities array on its own goroutine, in batches, while the reader
// checks and binds the ones before: parsing the JSON is about half of a big load's work. Items come
// in file order; a syntax error comes after every item before it, as when parsing in turn. What is
// in flight is bounded: aheadBatches arenas, each filled to about aheadArenaBytes; after an entity
// bigger than a quarter of that, parsing goes in turn with binding (see sendInTurn).
type ahead struct {
	batches chan aheadBatch
	free    chan aheadBatch // emptied batches, their arenas and item lists to reuse
	done    chan struct{}
	exited  chan struct{}
	cur     aheadBatch
	at      int
	err     error // the parser's error, read after batches is closed
	d       *jsonpos.Decoder
	// alternate: until it is closed, each batch is parsed once the ones before are bound.
	alternate <-chan struct{}
}

const aheadBatches = 4

// The size of a parse-ahead arena and the most items in a batch (variables for the tests).
var (
	aheadArenaBytes  = 64 << 10
	aheadArenaValues = 4 << 10
	aheadBatchItems  = 256
)

// parseAhead starts parsing r.d's entities array (entered) ahead of the reader.
func (r *sceneReader) parseAhead() *ahead {
	p := &ahead{batches: make(chan aheadBatch, aheadBatches-1), free: make(chan aheadBatch, aheadBatches),
		done: make(chan struct{}), exited: make(chan struct{}), d: r.d, alternate: r.alternate}
	for range aheadBatches {
		p.free <- aheadBatch{arena: jsonpos.NewArena(aheadArenaBytes, aheadArenaValues)}
	}
	go p.parse(r.lim.MaxEntities)
	return p
}

// parse is the parsing goroutine.
func (p *ahead) parse(maxEntities int) {
	defer close(p.exited)
	defer close(p.batches)
	d := p.d
	var b aheadBatch
	inTurn := false
	take := func() bool {
		select {
		case b = <-p.free:
			d.SwapArena(b.arena)
			return true
		case <-p.done:
			return false
		}
	}
	send := func() bool {
		if len(b.items) == 0 {
			return true
		}
		select {
		case p.batches <- b:
		case <-p.done:
			return false
		}
		if p.alternating() {
			return p.takeAll(&b)
		}
		return take()
	}
	if !take() {
		return
	}
	for i := 0; ; i++ {
		more, err := d.NextItem()
		if err != nil || !more {
			p.err = err
			send()
			return
		}
		if maxEntities > 0 && i >= maxEntities {
			_, pos, _ := d.Peek()
			b.items = append(b.items, parsed{over: true, pos: pos})
			send()
			return
		}
		v, err := d.Value()
		if err != nil {
			p.err = err
			send()
			return
		}
		b.items = append(b.items, parsed{v: v, off: d.Offset()})
		if inTurn || !d.Used(aheadArenaBytes/4, aheadArenaValues/4) {
			// An entity too big for a quarter of an arena: from here on each entity is parsed once the
			// ones before are bound, into memory reused as a decoder reading in turn reuses its arena.
			inTurn = true
			if !p.sendInTurn(&b) {
				return
			}
			d.ResetArena()
			continue
		}
		d.Keep()
		if (len(b.items) >= aheadBatchItems || !d.Room(aheadArenaBytes/4, aheadArenaValues/4)) && !send() {
			return
		}
	}
}

// alternating reports whether the parse is to wait for the binding of what it sent (Alternate not closed yet).
func (p *ahead) alternating() bool {
	if p.alternate == nil {
		return false
	}
	select {
	case <-p.alternate:
		p.alternate = nil
		return false
	default:
		return true
	}
}

// takeAll waits until the reader has bound every batch sent and makes one of them b, the decoder's arena. It
// reports false when told to stop.
func (p *ahead) takeAll(b *aheadBatch) bool {
	if !p.waitAllFree(b) {
		return false
	}
	p.d.SwapArena(b.arena)
	return true
}

// sendInTurn sends b and waits until the reader has bound every item sent, then makes b an empty batch again;
// the decoder's arena stays where it is, no longer one of the batches'. It reports false when told to stop.
func (p *ahead) sendInTurn(b *aheadBatch) bool {
	select {
	case p.batches <- *b:
	case <-p.done:
		return false
	}
	return p.waitAllFree(b)
}

// waitAllFree waits until every batch is free again (the reader has bound all that was sent), keeps one as b
// and frees the others. It reports false when told to stop.
func (p *ahead) waitAllFree(b *aheadBatch) bool {
	var held [aheadBatches]aheadBatch
	for i := range held {
		select {
		case held[i] = <-p.free:
		case <-p.done:
			return false
		}
	}
	for _, h := range held[1:] {
		p.free <- h
	}
	*b = held[0]
	return true
}

// next returns the next item, or false when there are no more (p.err says why).
func (p *ahead) next() (parsed, bool) {
	for p.at >= len(p.cur.items) {
		if p.cur.items != nil {
			clear(p.cur.items) // the trees are the arena's to reuse
			p.free <- aheadBatch{arena: p.cur.arena, items: p.cur.items[:0]}
		}
		b, ok := <-p.batches
		if !ok {
			return parsed{}, false
		}
		p.cur, p.at = b, 0
	}
	p.at++
	return p.cur.items[p.at-1], true
}

// stop ends the parsing goroutine and waits for it, leaving the decoder's arena its own again.
func (p *ahead) stop() {
	close(p.done)
	<-p.exited
	p.d.SwapArena(jsonpos.Arena{})
}

// expectAfter is how many entities the reader reads before it tells expect how many follow.
const expectAfter = 4096

// expectedRest estimates how many entities follow the r.count read so far, from the bytes they took since start
// (the entities array's offset) and the bytes left in the input; never more than the entity limit leaves.
func (r *sceneReader) expectedRest(start, off int64) int {
	n := int(float64(r.size-off) / float64(off-start) * float64(r.count))
	if r.lim.MaxEntities > 0 {
		n = min(n, r.lim.MaxEntities-r.count)
	}
	return max(n, 0)
}

// readEntity migrates and checks one entity object and hands it on.
func (r *sceneReader) readEntity(v *jsonpos.Value, index int) {
	mark := r.path.Index(index)
	defer r.path.Truncate(mark)
	if v.Kind() != jsonpos.Object {
		r.errAt(v, "", "an entity must be an object, not %s", describeValue(v))
		r.doc = entityDoc{index: index, pos: v.Pos()}
		r.entity(&r.doc) // so that entity i is always the i-th handed on
		return
	}
	for _, m := range migrations[min(r.version, CurrentVersion):] {
		if m.entity != nil {
			m.entity(v, r)
		}
	}
	r.doc = entityDoc{index: index, pos: v.Pos()}
	doc := &r.doc
	hasID := false
	keys := jsonpos.NewKeyIndex(v)
	for i := range v.Len() {
		m := v.Index(i)
		if duplicateKey(r.probs, &r.path, keys, v, i) {
			continue
		}
		switch string(m.KeyBytes()) {
		case "id":
			hasID = true
			doc.idPos = m.Pos()
			doc.id = r.positiveID(m, "id")
		case "name":
			if m.Kind() == jsonpos.String {
				doc.name = m
			} else {
				r.errAt(m, "name", "must be a string, not %s", describeValue(m))
			}
		case "parent":
			doc.parentPos = m.Pos()
			doc.parent = r.positiveID(m, "parent")
		case "order":
			doc.order = r.orderKey(m)
			doc.orderPos = m.KeyPos()
		case "prefab":
			r.prefabKey(m, doc)
		case "instance":
			doc.isRecord = true
			doc.instancePos = m.Pos()
			doc.instance = r.positiveID(m, "instance")
		case "source":
			doc.isRecord = true
			doc.sourcePos = m.Pos()
			doc.source = r.positiveID(m, "source")
		case "removed":
			doc.isRecord = true
			if m.Kind() != jsonpos.Bool {
				r.errAt(m, "removed", "must be true or false, not %s", describeValue(m))
			} else {
				doc.removed = m.Bool()
			}
		case "components":
			if m.Kind() == jsonpos.Object {
				doc.components = m
			} else {
				r.errAt(m, "components", "must be an object mapping component names to values, not %s", describeValue(m))
			}
		default:
			p := m.KeyPos()
			r.probs.Errorf(p.Line, p.Col, r.pathWith(m.Key()), "unknown key (an entity has id, name, parent, order, prefab and "+
				"components; an entity of a prefab instance has id, instance, source, name, removed and components)")
		}
	}
	if !hasID {
		r.probs.Errorf(doc.pos.Line, doc.pos.Col, r.path.String(), "missing \"id\" (every entity needs a unique positive integer id)")
	}
	if doc.isRecord {
		r.checkRecord(v, doc)
	}
	r.entity(doc)
}

// prefabKey reads an entity's "prefab": a path relative to the scene's folder, with the rules of
// asset paths (no absolute paths, no "..", no URLs), naming a scene file.
func (r *sceneReader) prefabKey(m *jsonpos.Value, doc *entityDoc) {
	if m.Kind() != jsonpos.String {
		r.errAt(m, "prefab", "must be the path of a scene file (relative to this scene's folder), not %s", describeValue(m))
		return
	}
	if _, err := checkPrefabPath(m.Str()); err != nil {
		r.errAt(m, "prefab", "%v", err)
		return
	}
	doc.prefab = m
}

// checkRecord checks the keys of an override record (an entity of a prefab instance).
func (r *sceneReader) checkRecord(v *jsonpos.Value, doc *entityDoc) {
	for _, key := range []string{"instance", "source"} {
		if v.Get(key) == nil {
			r.probs.Errorf(doc.pos.Line, doc.pos.Col, r.path.String(), "missing %q (an entity of a prefab instance has both "+
				"\"instance\", the id of the instance, and \"source\", its id in the prefab)", key)
		}
	}
	for _, key := range []string{"parent", "order", "prefab"} {
		if m := v.Get(key); m != nil {
			p := m.KeyPos()
			r.probs.Errorf(p.Line, p.Col, r.pathWith(key), "an entity of a prefab instance takes its place from the prefab; "+
				"it has no %q", key)
		}
	}
	if doc.removed {
		for _, key := range []string{"name", "components"} {
			if m := v.Get(key); m != nil {
				p := m.KeyPos()
				r.probs.Errorf(p.Line, p.Col, r.pathWith(key), "a removed entity has no %q", key)
			}
		}
	}
}

// positiveID reads an entity id (for "id" and "parent").
func (r *sceneReader) positiveID(v *jsonpos.Value, key string) int64 {
	n, err := v.Int()
	if v.Kind() != jsonpos.Number || err != nil || n <= 0 {
		r.errAt(v, key, "must be a positive integer id, not %s", describeValue(v))
		return 0
	}
	return n
}

// orderKey reads an entity's "order" (any finite number).
func (r *sceneReader) orderKey(v *jsonpos.Value) float64 {
	f, err := v.Float(64)
	if v.Kind() != jsonpos.Number || err != nil {
		r.errAt(v, "order", "must be a number (the entity's place among its siblings), not %s", describeValue(v))
		return 0
	}
	return f
}

// duplicateKey reports (and records an error) if member i of the object
// indexed by keys repeats an earlier key.
func duplicateKey(probs *diag.List, path *diag.Path, keys jsonpos.KeyIndex, v *jsonpos.Value, i int) bool {
	j := keys.First(i)
	if j == i {
		return false
	}
	p, first := v.Index(i).KeyPos(), v.Index(j).KeyPos()
	mark := path.Key(v.Index(i).Key())
	probs.Errorf(p.Line, p.Col, path.String(), "duplicate key (first at %d:%d)", first.Line, first.Col)
	path.Truncate(mark)
	return true
}

// members calls fn for each member of object v, with the member's key on
// path, skipping (and reporting) repeated keys.
func members(probs *diag.List, path *diag.Path, v *jsonpos.Value, fn func(m *jsonpos.Value)) {
	keys := jsonpos.NewKeyIndex(v)
	for i := range v.Len() {
		m := v.Index(i)
		if duplicateKey(probs, path, keys, v, i) {
			continue
		}
		mark := path.Key(m.Key())
		fn(m)
		path.Truncate(mark)
	}
}

// errAt records an error at v, with key appended to the current path.
func (r *sceneReader) errAt(v *jsonpos.Value, key string, format string, args ...any) {
	p := v.Pos()
	r.probs.Errorf(p.Line, p.Col, r.pathWith(key), format, args...)
}

// pathWith returns the current path with key appended ("" appends nothing).
func (r *sceneReader) pathWith(key string) string {
	if key == "" {
		return r.path.String()
	}
	mark := r.path.Key(key)
	s := r.path.String()
	r.path.Truncate(mark)
	return s
}

// describeValue names a value for a message: `the string "x"`, `the number
// 1.5`, `an array`, ….
func describeValue(v *jsonpos.Value) string { return v.Describe() }

// newSceneReader prepares to read in; entity receives every entity. Run
// it with read.
func newSceneReader(ctx context.Context, in *Input, file string, lim Limits,
	progress func(done, total int64), entity func(*entityDoc)) *sceneReader {
	lim = lim.resolved()
	return &sceneReader{ctx: ctx, in: in, size: in.Size(), lim: lim, probs: &diag.List{File: file, Max: lim.MaxProblems},
		progress: progress, entity: entity}
}

// read reads the whole input (see run), checking the size limit first.
func (r *sceneReader) read() (*header, error) {
	if r.size > 0 && r.lim.MaxFileSize > 0 && r.size > r.lim.MaxFileSize {
		r.probs.Errorf(0, 0, "", "file is %s, larger than the limit of %s", words.Bytes(r.size), words.Bytes(r.lim.MaxFileSize))
		return nil, nil
	}
	return r.run()
}

// readDoc reads in, handing each entity to entity, and returns the header
// (nil if reading stopped early) with the problems found. err is non-nil
// only for cancellation and I/O errors.
func readDoc(ctx context.Context, in *Input, file string, lim Limits,
	progress func(done, total int64), entity func(*entityDoc)) (*header, *diag.List, error) {
	r := newSceneReader(ctx, in, file, lim, progress, entity)
	h, err := r.read()
	return h, r.probs, err
}
