package serialize

import (
	"context"
	"fmt"
	"path"
	"strings"
	"sync"

	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
	"github.com/voltex-editor/voltex/internal/words"
)

// ModelOptions are what a [ModelLoader] is given.
type ModelOptions struct {
	// NewWorld makes the world to build the model's entities in.
	NewWorld func() *ecs.World
	// MaxFileSize bounds the bytes the model's files take; MaxEntities the entities it makes.
	MaxFileSize int64
	MaxEntities int
}

// ModelLoader builds the template of a model file placed as a prefab: a world holding the model's
// entities (with their hierarchy, a Name and a SceneID each: ids that stay the same when the model
// is exported again, so that instances keep their overrides), and warnings about what it left out.
// Asset references in it are relative to the model's folder.
type ModelLoader func(ctx context.Context, file string, opts ModelOptions) (*ecs.World, []string, error)

var modelFormats = struct {
	sync.RWMutex
	load map[string]ModelLoader
}{load: map[string]ModelLoader{}}

// RegisterPrefabFormat makes files whose names end in ext (".glb"; case-insensitive) prefabs
// built by load instead of read as scene files: a scene places them with a "prefab" key like any
// prefab, and their instances keep overrides, follow changes to the file and unpack the same way.
// Package serialize/gltfprefab registers .gltf and .glb.
func RegisterPrefabFormat(ext string, load ModelLoader) {
	modelFormats.Lock()
	defer modelFormats.Unlock()
	modelFormats.load[strings.ToLower(ext)] = load
}

// modelLoader returns the loader of prefab files named rel, if it is a registered model format.
func modelLoader(rel string) (ModelLoader, bool) {
	modelFormats.RLock()
	defer modelFormats.RUnlock()
	l, ok := modelFormats.load[strings.ToLower(path.Ext(rel))]
	return l, ok
}

// loadModel makes the template of a model file (rel, relative to dir; file is the two joined).
func (p *Prefabs) loadModel(ctx context.Context, t *Template, dir, rel, file string, load ModelLoader, room int64,
	fail func(error) *Template) *Template {
	in, err := p.openPrefab(dir, rel, file) // the same checks as a scene file's: folder, symlinks, regular file
	if err != nil {
		return fail(err)
	}
	in.Close()
	lim := p.opts.Limits.resolved()
	newWorld := p.opts.NewWorld
	if newWorld == nil {
		newWorld = scene.NewWorld
	}
	w, warnings, err := load(ctx, file, ModelOptions{NewWorld: newWorld, MaxFileSize: lim.MaxFileSize, MaxEntities: lim.MaxEntities})
	if err != nil {
		return fail(err)
	}
	if lim.MaxEntities > 0 && w.Len() > lim.MaxEntities {
		return fail(fmt.Errorf("%s: %d entities, over the limit of %d (Limits.MaxEntities)", file, w.Len(), lim.MaxEntities))
	}
	for _, msg := range warnings {
		t.warnings = append(t.warnings, Problem{File: file, Msg: msg, Warning: true})
	}
	if err := t.build(w); err != nil {
		return fail(fmt.Errorf("%s: %w", file, err))
	}
	t.own += t.bytes
	limit := lim.MaxWorldBytes
	if room > 0 && (limit <= 0 || room < limit) {
		limit = room
	}
	if limit > 0 && t.own > limit {
		t.overMemory = room > 0 && room < lim.MaxWorldBytes
		return fail(fmt.Errorf("%s: the model's entities take about %s, over the memory limit of %s (Limits.MaxWorldBytes)",
			file, words.Bytes(t.own), words.Bytes(limit)))
	}
	return t
}
