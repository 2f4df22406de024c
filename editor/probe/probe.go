package probe

import "image"

// Rect is a rectangle in window pixels (Min inclusive, Max exclusive).
type Rect struct{ X, Y, W, H int }

// Image returns r as an image.Rectangle.
func (r Rect) Image() image.Rectangle { return image.Rect(r.X, r.Y, r.X+r.W, r.Y+r.H) }

// Center returns the rectangle's centre.
func (r Rect) Center() (x, y int) { return r.X + r.W/2, r.Y + r.H/2 }

// Holds reports whether o lies wholly within r.
func (r Rect) Holds(o Rect) bool {
	return o.X >= r.X && o.Y >= r.Y && o.X+o.W <= r.X+r.W && o.Y+o.H <= r.Y+r.H
}

// Overlaps reports whether r and o share any area.
func (r Rect) Overlaps(o Rect) bool { return r.Image().Overlaps(o.Image()) }

// State is the editor as a test sees it.
type State struct {
	Title string `json:"title"`
	// Frames counts the frames the editor has built. The state is written at the end of frame Frames, before that
	// frame is presented; so once a later state shows Frames+1, frame Frames is on the screen.
	Frames uint64 `json:"frames"`
	// Idle is true when the editor has gone to sleep until the next input after frame Frames: nothing is pending and
	// what the window shows is up to date (the last frame that changed anything has been presented).
	Idle bool `json:"idle"`
	// InputEvents counts the input events (keys, characters, mouse) the editor has received; InputPending is how
	// many of them are still queued at the end of frame Frames (ImGui hands fast input to frames one event at a
	// time, so typing ten characters takes about twenty frames).
	InputEvents     uint32          `json:"inputEvents"`
	InputPending    int             `json:"inputPending"`
	ViewportRenders uint64          `json:"viewportRenders"`
	Panels          map[string]Rect `json:"panels"`
	// Tabs are where the docked panels' tabs are ("Assets", "Console"); Shown lists the panels whose content the
	// last frame built (a docked panel behind another's tab is not shown).
	Tabs     map[string]Rect `json:"tabs,omitempty"`
	Shown    []string        `json:"shown,omitempty"`
	Viewport Rect            `json:"viewport"`
	// WindowBg is the style's window background as "#rrggbb": what the panels' empty space shows.
	WindowBg string `json:"windowBg"`
	Entities int    `json:"entities"`
	// Selected are the scene ids of the selected entities, in selection order: the first MaxSelected of them
	// (SelectedCount counts them all; a million ids written in every frame would cost the editor more than
	// what is measured).
	Selected      []uint64 `json:"selected"`
	SelectedCount int      `json:"selectedCount"`
	Dirty         bool     `json:"dirty"`
	Modal         string   `json:"modal"`
	Playing       bool     `json:"playing"`
	UndoDepth     int      `json:"undoDepth"`
	ScenePath     string   `json:"scenePath"`
	// Hierarchy lists the hierarchy rows built in the last frame (the visible ones), top to bottom.
	Hierarchy []Row `json:"hierarchy"`
	// History lists the History panel's rows built in the last frame, top to bottom; HistoryMemory is its line of
	// the memory the history holds ("History: 1.2 MB of 256.0 MB").
	History       []HistoryRow `json:"history,omitempty"`
	HistoryMemory string       `json:"historyMemory,omitempty"`
	// Gizmo is the screen position of the active entity's gizmo centre (0,0 when there is none).
	Gizmo [2]int `json:"gizmo"`
	// SnapVertex is the screen position of the vertex a move snaps to (hold V; 0,0 when none).
	SnapVertex [2]int `json:"snapVertex"`
	// Console is the console's last few messages ("error: …", "warning: …", "info: …"), newest last.
	Console []string `json:"console"`
	// Status is the status bar's text.
	Status string `json:"status"`
	// Prompt is the text of the open question or message box ("" when none).
	Prompt string `json:"prompt"`
	// Renaming is the name of the hierarchy row being renamed inline ("" when none).
	Renaming string `json:"renaming,omitempty"`
	// RenamingRect is where that row's rename field is (zero when none is built).
	RenamingRect Rect `json:"renamingRect"`
	// HierarchySearch is where the hierarchy's search field is.
	HierarchySearch Rect `json:"hierarchySearch"`
	// HierarchySearchText is the search field's text; HierarchySearching says that the rows do not show its
	// results yet (its search runs).
	HierarchySearchText string `json:"hierarchySearchText,omitempty"`
	HierarchySearching  bool   `json:"hierarchySearching,omitempty"`
	// SaveLayer is where the hierarchy's button that saves the query as a layer is.
	SaveLayer Rect `json:"saveLayer"`
	// Layers lists the hierarchy's layers drawn in the last frame.
	Layers []Layer `json:"layers,omitempty"`
	// Camera is the viewport camera.
	Camera Camera `json:"camera"`
	// Breadcrumb is prefab mode's trail ("level.json > enemy.json"; "" outside prefab mode) and BackToScene where
	// its Back to Scene button is.
	Breadcrumb  string `json:"breadcrumb,omitempty"`
	BackToScene Rect   `json:"backToScene"`
	// Views are the four views of a split viewport (none when it is not split).
	Views []View `json:"views,omitempty"`
	// ViewCube is where the view cube is drawn (in the viewport's top-right corner).
	ViewCube Rect `json:"viewCube"`
	// CameraPreview is where the selected camera's view is drawn (zero while no camera is selected).
	CameraPreview Rect `json:"cameraPreview"`
	// Waits counts the times the idle editor slept until input or a timeout (see editor.App's throttle).
	Waits uint64 `json:"waits"`
	// TextInput is true while a text field has the keyboard.
	TextInput bool `json:"textInput"`
	// MissingGlyphs lists the characters of the editor's own texts that its font cannot draw (drawn as '?').
	MissingGlyphs string `json:"missingGlyphs"`
	// Inspector maps the inspector's widgets of the last frame ("header:Color", "Color.rgba",
	// "Transform.position[0]") to where they are and what they show.
	Inspector map[string]Widget `json:"inspector"`
	// Conflicts is the number of unresolved merge conflicts of the open scene.
	Conflicts int `json:"conflicts"`
	// MenuBar is true when the frame built the main menu bar with its menus.
	MenuBar bool `json:"menuBar"`
	// Menus are where the menu bar's menus ("Entity") and the items of the open one ("Entity/Unpack
	// Prefab") were drawn in the last frame.
	Menus map[string]Rect `json:"menus,omitempty"`
	// Job is the long work running in the background (nil when none).
	Job *Job `json:"job,omitempty"`
	// Grid is the Spawn Cube Grid dialog (nil when closed).
	Grid *GridDialog `json:"grid,omitempty"`
	// Marks are the last few timed user actions, oldest first (see Mark).
	Marks []Mark `json:"marks,omitempty"`
	// FirstFrame is when the editor's first frame had been presented (unix nanoseconds).
	FirstFrame int64 `json:"firstFrame,omitempty"`
	// FrameStart is when frame Frames began (unix nanoseconds on the editor's clock); the frame before it had been
	// presented by then.
	FrameStart int64 `json:"frameStart,omitempty"`
	// FrameMs are how long the last frames took (from a frame's start to the next one's, without the time an idle
	// editor slept waiting for input), in milliseconds, oldest first: what a user feels as the UI's frame rate.
	FrameMs []float32 `json:"frameMs,omitempty"`
	// Picture is the viewport's picture: how it was drawn and whether a newer one is being drawn.
	Picture Picture `json:"picture"`
}

// Picture describes the viewport's picture. A picture that costs more than a frame's budget is drawn over several
// frames while the last complete one stays on screen; while the view moves, a coarser one that fits a frame is drawn.
type Picture struct {
	// Pending is true while a newer picture is being drawn: the screen shows the previous complete one.
	Pending bool `json:"pending"`
	// Drawn and Total count the instances in the picture on screen and in the scene it shows (culled and thinned
	// instances are in Total only); Stride is 1 for a full picture, n when every n-th instance was drawn.
	Drawn  int `json:"drawn"`
	Total  int `json:"total"`
	Stride int `json:"stride"`
	// Steps is how many frames the picture on screen took to draw; Pictures counts the pictures completed.
	Steps    int    `json:"steps"`
	Pictures uint64 `json:"pictures"`
	// Completed is when the picture on screen was completed (unix nanoseconds; it was presented with that frame).
	Completed int64 `json:"completed"`
	// Adopted counts the pictures of a spawned grid taken from its preview's picture instead of drawn.
	Adopted int `json:"adopted"`
	// Drawing is what the viewport says over its image while it has no picture yet of the scene it shows (a scene
	// just opened, drawn over several frames): "Drawing 1,000,000 entities… 35 %"; "" when it says nothing.
	Drawing string `json:"drawing,omitempty"`
}

// Job is a background job as the user sees it: the progress overlay (with Cancel) and the status bar.
type Job struct {
	Label string `json:"label"`
	Done  int64  `json:"done"`
	Total int64  `json:"total"`
	// Shown is true once the progress overlay is on screen; Cancel is its Cancel button.
	Shown  bool `json:"shown"`
	Cancel Rect `json:"cancel"`
	// Cancelling is true after Cancel was pressed; Waiting says why a finished job's result waits (e.g. play mode).
	Cancelling bool   `json:"cancelling"`
	Waiting    string `json:"waiting,omitempty"`
}

// GridDialog is the Spawn Cube Grid dialog: its fields as shown and its preview.
type GridDialog struct {
	// Title is the dialog's title, naming what it spawns: "Spawn Cube Grid", "Spawn Grid of Enemy",
	// "Spawn Grid of prefab tree.json".
	Title   string     `json:"title"`
	Count   [3]int     `json:"count"`
	Spacing [3]float32 `json:"spacing"`
	Centre  [3]float32 `json:"centre"`
	// Fields maps "count", "spacing", "centre", "spawn", "cancel" to where they are, and "window" to the dialog's
	// window.
	Fields map[string]Rect `json:"fields"`
	// Typing is true while one of its fields takes typed text.
	Typing bool `json:"typing"`
	// Preview is "cubes" when the viewport shows the grid's cubes for the current values, "box" when it shows
	// only their outline (while values change, or while the cubes are computed), "" when nothing.
	Preview      string `json:"preview"`
	PreviewCubes int    `json:"previewCubes"`
	// Ready is true when the spawn of the values the preview shows has been made ready in the background (the
	// cubes planned, the world's table given room): Enter then adds them at once.
	Ready bool `json:"ready,omitempty"`
	// Edits counts frames in which a field's value changed; EditRenders those of them that also re-rendered the
	// viewport (a frame that handles a keystroke must stay cheap, so it never renders a big preview).
	Edits       uint64 `json:"edits"`
	EditRenders uint64 `json:"editRenders"`
}

// Mark times one user action (unix nanoseconds on the editor's clock, which a harness on the same machine shares).
type Mark struct {
	// What names the action: "open", "spawn grid", "undo", "redo", "select all", "delete", "save", "frame",
	// "field edit".
	What string `json:"what"`
	// Input is the start of the frame that handled the key or click (for the scene opened at launch: when the
	// editor started).
	Input int64 `json:"input"`
	// Result is when the result was in the document (a background job's result merged on the loop thread).
	Result int64 `json:"result"`
	// Presented is when the first frame drawn with the result had been presented (the start of the frame after
	// it); 0 while pending.
	Presented int64 `json:"presented"`
	// Frames counts the frames begun after the input's frame up to the result's: more than 1 means the UI kept
	// drawing while the work ran in the background.
	Frames uint64 `json:"frames"`
	// Cancelled is true when the action was cancelled (Presented then times the frame without it).
	Cancelled bool `json:"cancelled,omitempty"`
	// Picture is when the first frame whose viewport picture shows the result had been presented: Presented, or
	// later when the viewport's picture took more frames; 0 while pending.
	Picture int64 `json:"picture,omitempty"`
	// Progress is when the first frame that showed the action's progress overlay (a background job's) had been
	// presented; 0 when none showed. ProgressFrames counts the frames begun after the input's frame up to that one
	// (0: the frame that handled the input showed it).
	Progress       int64  `json:"progress,omitempty"`
	ProgressFrames uint64 `json:"progressFrames,omitempty"`
}

// Camera is the viewport camera's orbit: yaw and pitch in degrees, distance from the pivot.
type Camera struct {
	Yaw      float32    `json:"yaw"`
	Pitch    float32    `json:"pitch"`
	Distance float32    `json:"distance"`
	Ortho    bool       `json:"ortho,omitempty"`
	Pivot    [3]float32 `json:"pivot"`
}

// View is one quarter of the viewport split into four views (View → Four Views).
type View struct {
	Rect
	Name   string `json:"name"` // Top, Perspective, Front, Right
	Camera Camera `json:"camera"`
}

// Row is one hierarchy row.
type Row struct {
	Rect
	Name     string `json:"name"`
	Depth    int    `json:"depth"`
	Selected bool   `json:"selected"`
	Conflict bool   `json:"conflict,omitempty"` // the entity has unresolved merge conflicts
	// Prefab says how the row is marked: "instance" (an instance of a prefab), "broken" (one whose
	// prefab cannot be used), "part" (an entity of an instance), "placeholder", or "".
	Prefab string `json:"prefab,omitempty"`
	// Hidden and Locked are the entity's own flags; Eye and Lock are where the row's toggles of them are.
	Hidden bool `json:"hidden,omitempty"`
	Locked bool `json:"locked,omitempty"`
	Eye    Rect `json:"eye"`
	Lock   Rect `json:"lock"`
}

// Layer is one of the hierarchy's layers: its flags and where their toggles are.
type Layer struct {
	Name     string `json:"name"`
	Matches  int    `json:"matches"` // -1: the query does not parse against the scene
	Hidden   bool   `json:"hidden,omitempty"`
	Locked   bool   `json:"locked,omitempty"`
	Isolated bool   `json:"isolated,omitempty"`
	Eye      Rect   `json:"eye"`
	Lock     Rect   `json:"lock"`
	Isolate  Rect   `json:"isolate"`
}

// Widget is one inspector widget.
type Widget struct {
	Rect
	Shown string `json:"shown"`
}

// Row returns the visible hierarchy row named name.
func (s *State) Row(name string) (Row, bool) {
	for _, r := range s.Hierarchy {
		if r.Name == name {
			return r, true
		}
	}
	return Row{}, false
}

// MaxSelected is how many selected ids State.Selected lists at most.
const MaxSelected = 1000
