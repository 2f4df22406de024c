package scene

import "github.com/voltex-editor/voltex/ecs"

// MergeConflicts records what a three-way merge of scene files (`voltex-editor merge`) could not
// decide for one entity: the merge kept one side's value (ours, or the surviving entity when one
// side deleted it) and wrote the three versions here, so that the file stays a valid scene that
// says where it needs a person. The editor lists the conflicts and resolves them (Use ours, Use
// theirs, or keep the value as edited); `voltex-editor validate` fails while any is left. It is
// editor-only: games never see it.
type MergeConflicts struct {
	Items []MergeConflict `json:"items" voltex:"readonly"`
}

// EditorOnly marks MergeConflicts as editor data (stripped from exports).
func (MergeConflicts) EditorOnly() {}

// MergeConflict is one undecided value. Path says what it is:
//
//   - "entity": one side deleted the entity and the other changed it (or still needs it as a parent
//     or reference target); Base, Ours and Theirs are "present" or "deleted";
//   - "name": the entity's name; values are JSON strings, "" when absent;
//   - "place": the entity's parent and order, as {"parent": id, "order": key} (parent 0: a root);
//   - "components.C": component C added or removed on one side and changed on the other; values are
//     the component's JSON, "" when absent;
//   - "components.C.f.g": a field (or nested field) of component C changed both ways; values are the
//     field's JSON, "" when absent;
//   - "scene.name": the scene's name (scene-level conflicts are kept in the file's editor section).
//
// Values are JSON text on one line, as the scene file writes them.
type MergeConflict struct {
	Path   string `json:"path"`
	Base   string `json:"base"`
	Ours   string `json:"ours"`
	Theirs string `json:"theirs"`
}

// Words the "entity" conflicts use for their values.
const (
	ConflictPresent = "present"
	ConflictDeleted = "deleted"
)

// registerConflicts registers MergeConflicts (sparse: few entities have it).
func registerConflicts(w *ecs.World) {
	ecs.Register[MergeConflicts](w, ecs.WithStorage(ecs.SparseSet))
}
