package serialize

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/voltex-editor/voltex/internal/assetref"
	"github.com/voltex-editor/voltex/internal/words"
)

// A prefab nest multiplies: a prefab holding ten instances of one holding ten instances of … makes
// 10^n entities from n small files. Before a load builds any instance, it counts what its instances
// flatten to from the shape of the files (the entities each lists and the prefabs it instances,
// read without decoding a component), so that a nest over Limits.MaxEntities is refused before any
// of it is expanded. Removals an instance makes are not subtracted (the instances are checked
// against the limit again as they are built).

// prefabShape is what a prefab file says about its size: the entities it lists that are not override
// records, and the prefabs it instances.
type prefabShape struct {
	own  int64
	uses []prefabUse
}

// prefabUse is a prefab a file instances: its path (clean, relative to the file's folder) and how
// many instances of it the file has.
type prefabUse struct {
	path string
	n    int64
}

// maxNest caps the counts (they multiply): more than any limit, far from overflowing.
const maxNest = int64(1) << 60

// mulNest and addNest are * and + capped at maxNest.
func mulNest(a, b int64) int64 {
	if a != 0 && b > maxNest/a {
		return maxNest
	}
	return min(a*b, maxNest)
}

func addNest(a, b int64) int64 { return min(a+b, maxNest) }

// nestCount counts what the instances of one load flatten to.
type nestCount struct {
	ctx   context.Context
	p     *Prefabs
	sizes map[string]int64 // by absolute path
	// shapes holds the shape of each file counted from its text (not from a loaded template).
	shapes map[string]*prefabShape
	stack  []string
}

// size returns the entities an instance of the prefab at rel (relative to dir) flattens to.
func (c *nestCount) size(dir, rel string) int64 {
	file := filepath.Join(dir, filepath.FromSlash(rel))
	abs := absPath(file)
	if n, ok := c.sizes[abs]; ok {
		return n
	}
	for _, s := range c.stack {
		if s == abs {
			return 0 // a cycle: the load reports it
		}
	}
	if t := c.p.loaded(abs); t != nil {
		n := int64(0)
		if t.err == nil {
			n = int64(t.Len())
		}
		c.sizes[abs] = n
		return n
	}
	sh := c.p.shape(c.ctx, dir, rel, file, abs)
	c.shapes[abs] = sh
	c.stack = append(c.stack, abs)
	n := sh.own
	pdir := filepath.Dir(file)
	for _, u := range sh.uses {
		n = addNest(n, mulNest(u.n, c.size(pdir, u.path)))
	}
	c.stack = c.stack[:len(c.stack)-1]
	c.sizes[abs] = n
	return n
}

// files returns the absolute paths of the files the count read, and of the files the templates it
// used were made from.
func (c *nestCount) files() []string {
	var out []string
	for abs := range c.sizes {
		if t := c.p.loaded(abs); t != nil {
			out = append(out, t.deps...)
		} else {
			out = append(out, abs)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// chain describes the nest from a file that instances the prefab at rel (relative to dir) n times:
// each file followed by how many instances it holds of the next, along the uses that weigh most
// ("level.json ×10 a.json ×10 b.json, of 10 entities"; a file with one instance is left out at the
// start). size must have counted them.
func (c *nestCount) chain(first string, n int64, dir, rel string) string {
	var b strings.Builder
	if n > 1 {
		fmt.Fprintf(&b, "%s ×%s ", first, words.Thousands(n))
	}
	b.WriteString(rel)
	seen := map[string]bool{}
	for links := 0; ; links++ {
		if links > 0 {
			fmt.Fprintf(&b, " ×%s %s", words.Thousands(n), rel)
		}
		file := filepath.Join(dir, filepath.FromSlash(rel))
		abs := absPath(file)
		sh := c.shapes[abs]
		var next *prefabUse
		if sh != nil && !seen[abs] {
			seen[abs] = true
			var most int64 = -1
			for i := range sh.uses {
				u := &sh.uses[i]
				if w := mulNest(u.n, c.sizes[absPath(filepath.Join(filepath.Dir(file), filepath.FromSlash(u.path)))]); w > most {
					most, next = w, u
				}
			}
		}
		if next == nil || links == 16 {
			if next != nil {
				b.WriteString(" …")
			}
			fmt.Fprintf(&b, ", of %s", plural64(c.sizes[abs], "entity", "entities"))
			return b.String()
		}
		n, dir, rel = next.n, filepath.Dir(file), next.path
	}
}

func plural64(n int64, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return words.Thousands(n) + " " + many
}

// shape returns the shape of the prefab file at rel (relative to dir; file is the two joined, abs
// its absolute path), reading it once: later calls are answered from memory until Reload forgets
// it. A file that cannot be read has no entities (its load says why).
func (p *Prefabs) shape(ctx context.Context, dir, rel, file, abs string) *prefabShape {
	p.mu.Lock()
	sh := p.shapes[abs]
	p.mu.Unlock()
	if sh != nil {
		return sh
	}
	sh = &prefabShape{}
	if _, model := modelLoader(rel); model { // a model's entities are known once it is built
		if t := p.template(ctx, dir, rel, nil, 0); t.err == nil {
			sh.own = int64(t.Len())
		}
	} else if in, err := p.openPrefab(dir, rel, file); err == nil {
		err = scanShape(ctx, in, p.opts.Limits.resolved(), sh)
		in.Close()
		if err != nil && ctx.Err() != nil {
			return sh // cancelled: not kept
		}
	}
	p.mu.Lock()
	if p.shapes == nil {
		p.shapes = map[string]*prefabShape{}
	}
	p.shapes[abs] = sh
	p.mu.Unlock()
	return sh
}

// scanShape reads the shape of a scene file: it counts the entities of its "entities" array that
// are not override records and collects their "prefab" paths, looking at nothing else. It is a
// byte scan (strings and nesting only), about five times faster than a load: the load that follows
// checks the file. It stops at the end of the top-level object, at the entity limit, and where the
// file is not JSON it understands (what it counted so far stands).
func scanShape(ctx context.Context, in *Input, lim Limits, sh *prefabShape) error {
	if lim.MaxFileSize > 0 && in.Size() > lim.MaxFileSize {
		return nil
	}
	sc := shapeScan{sh: sh, index: map[string]int{}}
	buf := make([]byte, 64<<10)
	for {
		n, err := in.Read(buf)
		if !sc.feed(buf[:n]) || lim.MaxEntities > 0 && sh.own > int64(lim.MaxEntities) {
			return nil
		}
		if err != nil {
			if err == io.EOF {
				return nil
			}
			return err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
	}
}

// shapeScan is the state of scanShape between chunks of input.
type shapeScan struct {
	sh    *prefabShape
	index map[string]int // place in sh.uses of each prefab path
	stack []byte         // open containers, '{' or '['
	// inString: inside a string (escaped: after its backslash); keep: the string's bytes are kept
	// (str), being a key of the top object or of an entity, or the value of an entity's "prefab".
	inString, escaped, keep bool
	str                     []byte
	expectKey               bool // in an object, before a key
	key                     string
	entities                bool // the top object's current key is "entities"
	record                  bool // the entity is an override record
	prefab                  string
}

// The bytes shapeScan stops at outside strings and in them.
var structural, stringEnds = byteSet("\"{}[],:"), byteSet("\"\\")

func byteSet(s string) (set [256]bool) {
	for i := range len(s) {
		set[s[i]] = true
	}
	return set
}

// maxKept bounds the strings shapeScan keeps: a prefab path is at most assetref.MaxLen bytes, each
// written in at most 6 (\u0061).
const maxKept = 6 * assetref.MaxLen

// feed scans a chunk; it reports false once scanning is over.
func (s *shapeScan) feed(b []byte) bool {
	for i := 0; i < len(b); i++ {
		// Skip to the next byte that matters: a quote or backslash in a string that is not kept, a
		// structural character outside strings.
		if !s.escaped && (!s.inString || !s.keep) {
			stops := &structural
			if s.inString {
				stops = &stringEnds
			}
			for i < len(b) && !stops[b[i]] {
				i++
			}
			if i == len(b) {
				return true
			}
		}
		if s.inString {
			s.stringByte(b[i])
		} else if !s.structuralByte(b[i]) {
			return false
		}
	}
	return true
}

// stringByte takes byte c of a string: the end of the string, an escape, or a byte to keep.
func (s *shapeScan) stringByte(c byte) {
	switch {
	case s.escaped:
		s.escaped = false
	case c == '\\':
		s.escaped = true
	case c == '"':
		s.inString = false
		s.endString()
		return
	}
	if s.keep {
		if len(s.str) == maxKept {
			s.keep = false // longer than any key or prefab path it looks for
		} else {
			s.str = append(s.str, c)
		}
	}
}

// structuralByte takes byte c outside strings; it reports false once scanning is over (the end of
// the top object, or a file that is not a scene's object).
func (s *shapeScan) structuralByte(c byte) bool {
	depth := len(s.stack)
	switch c {
	case '"':
		s.inString, s.str = true, s.str[:0]
		// Keys of the top object (depth 1) and of entities (depth 3), and entities' "prefab".
		s.keep = depth == 1 && s.expectKey || depth == 3 && s.inEntity() && (s.expectKey || s.key == "prefab")
		if s.expectKey && depth == 1 {
			s.entities = false
		} else if s.expectKey && depth == 3 {
			s.key = ""
		}
	case '{', '[':
		if depth == 0 && c != '{' || depth >= 64 {
			return false
		}
		if depth == 2 && s.inEntities() && c == '{' {
			s.record, s.prefab = false, ""
		}
		s.stack = append(s.stack, c)
		s.expectKey = c == '{'
	case '}', ']':
		if depth == 0 {
			return false
		}
		if depth == 3 && s.inEntity() {
			s.endEntity()
		}
		s.stack = s.stack[:depth-1]
		if depth == 1 {
			return false // the end of the top object
		}
		s.expectKey = false
	case ',':
		if depth > 0 && s.stack[depth-1] == '{' {
			s.expectKey = true
		}
	case ':':
		s.expectKey = false
	}
	return true
}

// inEntities reports whether the innermost open container is the top object's "entities" array,
// inEntity whether it is an entity of it.
func (s *shapeScan) inEntities() bool {
	return len(s.stack) == 2 && s.entities && s.stack[1] == '['
}

func (s *shapeScan) inEntity() bool {
	return len(s.stack) == 3 && s.entities && s.stack[1] == '[' && s.stack[2] == '{'
}

// endString takes the string just read, if kept.
func (s *shapeScan) endString() {
	if !s.keep {
		return // not looked for, or too long to be
	}
	switch {
	case len(s.stack) == 1:
		s.entities = unquote(s.str) == "entities" // a key may be written with escapes
	case s.expectKey:
		s.key = unquote(s.str)
		switch s.key {
		case "instance", "source", "removed":
			s.record = true
		}
	default: // the value of "prefab"
		if c, err := checkPrefabPath(unquote(s.str)); err == nil {
			s.prefab = c
		}
	}
}

// unquote decodes the JSON escapes of a string's text.
func unquote(text []byte) string {
	if !bytes.ContainsRune(text, '\\') {
		return string(text)
	}
	var v string
	if json.Unmarshal(append(append([]byte{'"'}, text...), '"'), &v) != nil {
		return ""
	}
	return v
}

// endEntity counts the entity just read.
func (s *shapeScan) endEntity() {
	s.key = ""
	if s.record {
		return
	}
	sh := s.sh
	sh.own++
	if s.prefab == "" {
		return
	}
	k, ok := s.index[s.prefab]
	if !ok {
		k = len(sh.uses)
		s.index[s.prefab] = k
		sh.uses = append(sh.uses, prefabUse{path: s.prefab})
	}
	sh.uses[k].n++
}

// checkNest counts what the file's instances flatten to before any is built, and reports false
// (with an error naming the chain of files that multiplies) when that takes the file past the
// entity limit.
func (b *binder) checkNest() bool {
	if b.maxEntities <= 0 || len(b.insts) == 0 {
		return true
	}
	c := &nestCount{ctx: b.ctx, p: b.prefabs, sizes: map[string]int64{}, shapes: map[string]*prefabShape{}}
	type use struct {
		first int // in b.insts
		n     int64
		size  int64
	}
	by := map[string]*use{}
	var order []string
	cleaned := map[string]string{} // each path as written, cleaned once ("" if refused)
	for k := range b.insts {
		clean, ok := cleaned[b.insts[k].path]
		if !ok {
			clean, _ = checkPrefabPath(b.insts[k].path)
			cleaned[b.insts[k].path] = clean
		}
		if clean == "" {
			continue
		}
		u := by[clean]
		if u == nil {
			u = &use{first: k}
			by[clean] = u
			order = append(order, clean)
		}
		u.n++
	}
	total := int64(b.nFile) - int64(len(b.ovrs))
	var most string
	var mostN int64 = -1
	for _, clean := range order {
		u := by[clean]
		u.size = c.size(b.dir, clean)
		w := mulNest(u.n, u.size)
		total = addNest(total, w)
		if w > mostN {
			most, mostN = clean, w
		}
	}
	if total <= int64(b.maxEntities) {
		return true
	}
	u := by[most]
	in := &b.insts[u.first]
	count := words.Thousands(total)
	if total >= maxNest {
		count = "more than " + words.Thousands(maxNest)
	}
	name := filepath.Base(b.probs.File)
	if b.probs.File == "" {
		name = "this scene"
	}
	b.probs.Errorf(in.pos.Line, in.pos.Col, "entities["+strconv.Itoa(in.index)+"].prefab",
		"prefab nest flattens to %s entities, over the limit of %s (Limits.MaxEntities): %s", count,
		words.Thousands(int64(b.maxEntities)), c.chain(name, u.n, b.dir, most))
	if b.counted != nil {
		*b.counted = c.files()
	}
	b.tooMany = true
	return false
}
