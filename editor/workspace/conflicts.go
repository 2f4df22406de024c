package workspace

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/editor/doc"
	"github.com/voltex-editor/voltex/internal/words"
)

// Merge conflicts as the console and the Inspector word them.

// reportConflicts lists the merge conflicts of a document that was just opened in the console.
func reportConflicts(d *doc.Document, log Logger) {
	cs := d.Conflicts().List()
	if len(cs) == 0 {
		return
	}
	log.Warnf("%s (from voltex-editor merge); resolve each in the Inspector (Use Ours / Use Theirs / Keep Edited), then save:",
		words.Count(len(cs), "unresolved merge conflict", "unresolved merge conflicts"))
	for _, c := range cs {
		log.Warnf("  %s: %s: ours %s, theirs %s", ConflictOwner(d, c.Entity), ConflictLabel(c.Path),
			ConflictValue(d, c.Path, c.Ours), ConflictValue(d, c.Path, c.Theirs))
	}
}

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}

// Namer finds entities by scene id and names them (doc.Document).
type Namer interface {
	Entity(id uint64) (ecs.Entity, bool)
	Name(e ecs.Entity) string
}

// ConflictOwner names what a conflict is on: the scene, or an entity by name and id.
func ConflictOwner(d Namer, id uint64) string {
	if id == 0 {
		return "scene"
	}
	if e, ok := d.Entity(id); ok && d.Name(e) != "" {
		return fmt.Sprintf("%q (id %d)", d.Name(e), id)
	}
	return fmt.Sprintf("entity %d", id)
}

// ConflictValue is one side of a conflict as people read it: a place names its parent (`under "A" (id 101),
// order 2`, `a root, order 1`); other values are shown as recorded (JSON, "(none)" when absent).
func ConflictValue(d Namer, path, v string) string {
	var pl struct {
		Parent uint64  `json:"parent"`
		Order  float64 `json:"order"`
	}
	if path != "place" || json.Unmarshal([]byte(v), &pl) != nil {
		return orNone(v)
	}
	order := "order " + strconv.FormatFloat(pl.Order, 'g', -1, 64)
	if pl.Parent == 0 {
		return "a root, " + order
	}
	return "under " + ConflictOwner(d, pl.Parent) + ", " + order
}

// ConflictLabel is a conflict's path as people read it: "Transform.position", "name", "place", ….
func ConflictLabel(path string) string {
	switch path {
	case "entity":
		return "deleted on one side"
	case "place":
		return "parent and order"
	case "scene.name":
		return "scene name"
	}
	return strings.TrimPrefix(path, "components.")
}
