package inspector

import (
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/AllenDang/cimgui-go/imgui"
	"github.com/go-gl/mathgl/mgl32"

	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/inspector/fields"
	"github.com/voltex-editor/voltex/inspector/fields/fieldstest"
)

// scene is a world with three entities carrying every kind of field (Everything differing in
// enabled, count, title, position.x and tint.r), a transform on the first, and a named target.
type scene struct {
	w          *ecs.World
	everything ecs.ComponentID
	marker     ecs.ComponentID
	transform  ecs.ComponentID
	es         []ecs.Entity
	target     ecs.Entity
	model      *fields.Component
	sample     reflect.Value
}

func newScene(t testing.TB) *scene {
	w := ecs.NewWorld()
	s := &scene{w: w}
	s.everything, s.marker = fieldstest.Register(w)
	s.transform, _ = ecs.ComponentIDOf[ecs.Transform](w)
	s.es = []ecs.Entity{
		w.Spawn(fieldstest.Sample(0), ecs.Transform{Scale: mgl32.Vec3{1, 1, 1}}),
		w.Spawn(fieldstest.Sample(1)),
		w.Spawn(fieldstest.Sample(2)),
	}
	s.target = w.Spawn(fieldstest.Marker{})
	s.model = fields.New(w.ComponentInfo(s.everything))
	s.sample = reflect.ValueOf(fieldstest.Sample(0))
	return s
}

func (s *scene) ord(t testing.TB, path string) int { return ord(t, s.model, s.sample, path) }

func (s *scene) get(t testing.TB, e ecs.Entity) fieldstest.Everything {
	t.Helper()
	v, ok := s.w.Get(e, s.everything)
	if !ok {
		t.Fatalf("%v has no Everything", e)
	}
	return v.(fieldstest.Everything)
}

func single(t *testing.T) (*harness, *scene) {
	s := newScene(t)
	h := newHarness(t, s.w)
	h.ed.names[s.es[0]] = "Hero"
	h.ed.names[s.target] = "Goal"
	h.sel = s.es[:1]
	h.frames(3)
	return h, s
}

func TestNothingSelected(t *testing.T) {
	s := newScene(t)
	h := newHarness(t, s.w)
	h.frames(2)
	if len(h.p.debug.byKey) != 0 || len(h.ed.calls) != 0 {
		t.Error("an empty selection built widgets or reported edits")
	}
	h.sel = []ecs.Entity{s.es[0]}
	s.w.Despawn(s.es[0])
	h.frames(2)
	if len(h.p.debug.byKey) != 0 {
		t.Error("a dead selection built widgets")
	}
}

// Every visible field of every kind gets a widget showing its value; hidden fields get none.
func TestEveryKindBuilds(t *testing.T) {
	h, s := single(t)
	id := s.everything
	for path, want := range map[string]string{
		"enabled": "true", "count": "0", "small": "-3", "big": "1099511627776", "flags": "7",
		"huge": "9223372036854775808", "speed": "2.5", "precise": "3.14159", "angle": "45",
		"title": "thing 0", "notes": "line 1\nline 2", "mode": "Walking", "mesh": "sphere",
		"target": "None", "fixed": "1.5",
	} {
		if got := h.widget(id, s.ord(t, path)).shown; got != want {
			t.Errorf("%s shows %q, want %q", path, got, want)
		}
	}
	// compound kinds: one widget per channel
	pos := s.ord(t, "position")
	for k, want := range []string{"0", "2", "3"} {
		if got := h.widget(id, pos+1+k).shown; got != want {
			t.Errorf("position[%d] shows %q, want %q", k, got, want)
		}
	}
	for _, path := range []string{"offset", "rotation", "plane", "basis"} {
		o := s.ord(t, path)
		f := s.model.Find(path)
		for k := range f.Len {
			h.widget(id, o+1+k)
		}
	}
	if got := h.widget(id, s.ord(t, "tint")).shown; got != "0,0.5,0.25,1" {
		t.Errorf("tint shows %q", got)
	}
	if got := h.widget(id, s.ord(t, "rgb")).shown; got != "1,0.502,0,1" {
		t.Errorf("rgb shows %q", got)
	}
	// trees: struct, array, slices (closed by default: their children are not built)
	for _, path := range []string{"inner", "weights", "tags", "points"} {
		h.widget(id, s.ord(t, path))
	}
	if _, ok := h.p.debug.byKey[editKey{id: id, ord: s.ord(t, "secret"), set: true}]; ok {
		t.Error("the hidden field has a widget")
	}
	// headers for every component of the entity, including the computed one
	for _, name := range []string{"header:Everything", "header:Transform", "header:GlobalTransform", "add"} {
		h.named(name)
	}
	if h.named("header:Transform").min.Y >= h.named("header:Everything").min.Y {
		t.Error("components are not in ID order")
	}
	if len(h.ed.calls) != 0 {
		t.Errorf("building reported edits: %v", h.ed.calls)
	}
	// the name row
	if got := h.widget(nameKeyID, 0).shown; got != "Hero" {
		t.Errorf("name shows %q", got)
	}
}

// Open tree nodes show their children: struct fields, array and slice elements.
func TestTreesOpen(t *testing.T) {
	h, s := single(t)
	id := s.everything
	for _, path := range []string{"inner", "weights", "tags", "points"} {
		h.click(center(h.widget(id, s.ord(t, path))))
	}
	h.frame()
	inner := s.ord(t, "inner")
	if got := h.widget(id, inner+2).shown; got != "0.5" { // inner.weight
		t.Errorf("inner.weight shows %q", got)
	}
	weights := s.ord(t, "weights")
	if got := h.widget(id, weights+3).shown; got != "30" {
		t.Errorf("weights[2] shows %q", got)
	}
	tags := s.ord(t, "tags")
	if got := h.widget(id, tags+2).shown; got != "b" {
		t.Errorf("tags[1] shows %q", got)
	}
	points := s.ord(t, "points")
	h.widget(id, points+1) // points[0] is itself a tree node
	h.click(center(h.widget(id, points+1)))
	h.frame()
	if got := h.widget(id, points+3).shown; got != "0.1" { // points[0].weight
		t.Errorf("points[0].weight shows %q", got)
	}
	// an edit inside a slice element gets its full path
	n := len(h.ed.calls)
	h.drag(center(h.widget(id, points+3)), 40, 4)
	calls := h.callsSince(n)
	if len(calls) < 3 || !strings.HasPrefix(calls[1], "set:points[0].weight=") {
		t.Errorf("calls %v", calls)
	}
	if w := s.get(t, s.es[0]).Points[0].Weight; w <= 0.1 || w > 1 {
		t.Errorf("points[0].weight = %v after a drag right", w)
	}
}

// A drag is one undo step, applied live, and clamped to the field's hints.
func TestDragIsOneClampedStep(t *testing.T) {
	h, s := single(t)
	speed := s.ord(t, "speed")
	h.drag(center(h.widget(s.everything, speed)), 400, 10) // 400 px × 0.05/px = +20, max 10
	calls := h.ed.calls
	if len(calls) < 4 || calls[0] != "begin:Edit Everything.speed" || calls[len(calls)-1] != "end" {
		t.Fatalf("calls %v", calls)
	}
	if h.ed.steps != 1 {
		t.Errorf("%d undo steps, want 1", h.ed.steps)
	}
	var last any
	for _, c := range h.ed.sets {
		x := c.v.(float32)
		if x < 0 || x > 10 {
			t.Errorf("value %v outside [0,10] reached the editor", x)
		}
		if c.path != "speed" || c.id != s.everything || !slices.Equal(c.es, s.es[:1]) {
			t.Errorf("set %+v", c)
		}
		last = c.v
	}
	if last != float32(10) || s.get(t, s.es[0]).Speed != 10 {
		t.Errorf("last value %v, world %v; want 10 (clamped)", last, s.get(t, s.es[0]).Speed)
	}
	// values were applied live: several SetField calls during the drag
	if len(h.ed.sets) < 3 {
		t.Errorf("only %d SetField calls during a 10-step drag", len(h.ed.sets))
	}
	// a click without movement is no edit at all
	n := len(h.ed.calls)
	h.click(center(h.widget(s.everything, speed)))
	h.frames(2)
	if got := h.callsSince(n); len(got) != 0 {
		t.Errorf("a click reported %v", got)
	}
}

// Integer drags respect the type's range and hints; channel drags edit one channel.
func TestDragIntsAndChannels(t *testing.T) {
	h, s := single(t)
	h.drag(center(h.widget(s.everything, s.ord(t, "count"))), -300, 6)
	if got := s.get(t, s.es[0]).Count; got != -5 {
		t.Errorf("count after a long drag left = %d, want -5 (min hint)", got)
	}
	h.drag(center(h.widget(s.everything, s.ord(t, "small"))), -2000, 20)
	if got := s.get(t, s.es[0]).Small; got != -128 {
		t.Errorf("int8 after a long drag = %d, want -128", got)
	}
	pos := s.ord(t, "position")
	n := len(h.ed.sets)
	h.drag(center(h.widget(s.everything, pos+2)), 100, 5)
	for _, c := range h.ed.sets[n:] {
		if c.path != "position[1]" {
			t.Errorf("channel drag set %q", c.path)
		}
	}
	if p := s.get(t, s.es[0]).Position; p[0] != 0 || p[2] != 3 || p[1] <= 2 {
		t.Errorf("position after dragging y: %v", p)
	}
	if h.ed.steps != 3 {
		t.Errorf("%d undo steps for 3 drags", h.ed.steps)
	}
}

func TestCheckboxEnumAssetEntity(t *testing.T) {
	h, s := single(t)
	id := s.everything
	// checkbox: one step
	h.click(center(h.widget(id, s.ord(t, "enabled"))))
	if got := h.ed.calls; !slices.Equal(got, []string{"begin:Edit Everything.enabled", "set:enabled=false", "end"}) {
		t.Errorf("checkbox calls %v", got)
	}
	// enum combo
	h.click(center(h.widget(id, s.ord(t, "mode"))))
	h.click(center(h.named("opt:Running")))
	if got := s.get(t, s.es[0]).Mode; got != fieldstest.Running {
		t.Errorf("mode = %v after choosing Running", got)
	}
	// asset combo
	h.click(center(h.widget(id, s.ord(t, "mesh"))))
	h.click(center(h.named("opt:cube")))
	if got := s.get(t, s.es[0]).Mesh; got != "cube" {
		t.Errorf("mesh = %q after choosing cube", got)
	}
	// entity picker with search
	h.click(center(h.widget(id, s.ord(t, "target"))))
	h.named("opt:Hero  (" + s.es[0].String() + ")")
	h.typeText("go") // the search box has the keyboard focus
	if _, ok := h.p.debug.byName["opt:Hero  ("+s.es[0].String()+")"]; ok {
		t.Error("the search did not filter the entity list")
	}
	h.click(center(h.named("opt:Goal  (" + s.target.String() + ")")))
	if got := s.get(t, s.es[0]).Target; got != s.target {
		t.Errorf("target = %v after picking Goal", got)
	}
	h.frame()
	if got := h.widget(id, s.ord(t, "target")).shown; got != "Goal  ("+s.target.String()+")" {
		t.Errorf("target shows %q", got)
	}
	if h.ed.steps != 4 {
		t.Errorf("%d steps, want 4", h.ed.steps)
	}
}

// Text commits on Enter (and on focus loss), not per keystroke.
func TestTextCommitsOnEnter(t *testing.T) {
	h, s := single(t)
	title := h.widget(s.everything, s.ord(t, "title"))
	h.click(center(title))
	h.typeText("renamed")
	if len(h.ed.sets) != 0 {
		t.Fatalf("typing reported %v before Enter", h.ed.calls)
	}
	h.key(imgui.KeyEnter)
	if got := h.ed.calls; !slices.Equal(got, []string{"begin:Edit Everything.title", "set:title=renamed", "end"}) {
		t.Errorf("calls %v", got)
	}
	// focus loss commits too: type in the name field, then click elsewhere
	h.click(center(h.widget(nameKeyID, 0)))
	h.typeText("Villain")
	h.click(center(h.named("header:Transform")))
	if h.ed.names[s.es[0]] != "Villain" {
		t.Errorf("name after focus loss = %q; calls %v", h.ed.names[s.es[0]], h.ed.calls)
	}
	// escape abandons the typing
	n := len(h.ed.calls)
	h.click(center(h.widget(s.everything, s.ord(t, "title"))))
	h.typeText("nope")
	h.key(imgui.KeyEscape)
	h.frames(2)
	if got := h.callsSince(n); len(got) != 0 {
		t.Errorf("Escape committed %v", got)
	}
}

func TestContextMenuAndAddComponent(t *testing.T) {
	h, s := single(t)
	// paste target: the second entity's values
	h.clickButton(center(h.named("header:Everything")), 1)
	h.click(center(h.named("opt:Reset to Defaults")))
	if got := s.get(t, s.es[0]); got.Speed != 1 || got.Mesh != "cube" || got.Title != "" {
		t.Errorf("after reset: %+v", got)
	}
	h.sel = s.es[1:2]
	h.frames(2)
	h.clickButton(center(h.named("header:Everything")), 1)
	h.click(center(h.named("opt:Copy Values")))
	if !strings.Contains(imgui.ClipboardText(), `"title":"thing 1"`) {
		t.Errorf("clipboard: %s", imgui.ClipboardText())
	}
	h.sel = s.es[:1]
	h.frames(2)
	h.clickButton(center(h.named("header:Everything")), 1)
	h.click(center(h.named("opt:Paste Values")))
	if got := s.get(t, s.es[0]); got.Title != "thing 1" || got.Count != 1 {
		t.Errorf("after paste: %+v", got)
	}
	// the pasted value is a copy: changing it in the world does not change the clipboard
	if got := s.get(t, s.es[1]); &got.Tags[0] == &s.get(t, s.es[0]).Tags[0] {
		t.Error("paste shares slice memory with the copied entity")
	}
	// add a component the entity lacks, through the searchable popup
	h.click(center(h.named("add")))
	h.named("add:Marker")
	if _, ok := h.p.debug.byName["add:Everything"]; ok {
		t.Error("Add Component offers a component the entity has")
	}
	if _, ok := h.p.debug.byName["add:GlobalTransform"]; ok {
		t.Error("Add Component offers a computed component")
	}
	h.click(center(h.named("add:Marker")))
	if !s.w.Has(s.es[0], s.marker) {
		t.Error("Marker not added")
	}
	h.frames(2)
	h.named("header:Marker")
	// remove it again
	h.clickButton(center(h.named("header:Marker")), 1)
	h.click(center(h.named("opt:Remove Component")))
	if s.w.Has(s.es[0], s.marker) {
		t.Error("Marker not removed")
	}
	want := []string{"reset:Everything", "paste:Everything", "add:Marker", "remove:Marker"}
	if got := h.ed.calls; !slices.Equal(got, want) {
		t.Errorf("calls %v, want %v", got, want)
	}
}

// Slices grow and shrink through their row's buttons.
func TestSliceAddRemove(t *testing.T) {
	h, s := single(t)
	tags := s.ord(t, "tags")
	h.click(center(h.p.debug.byKey[editKey{id: s.everything, ord: -tags, set: true}]))
	if got := s.get(t, s.es[0]).Tags; !slices.Equal(got, []string{"a", "b", ""}) {
		t.Errorf("tags after +: %q", got)
	}
	h.click(center(h.p.debug.byKey[editKey{id: s.everything, ord: -tags - 1<<20, set: true}]))
	h.click(center(h.p.debug.byKey[editKey{id: s.everything, ord: -tags - 1<<20, set: true}]))
	if got := s.get(t, s.es[0]).Tags; !slices.Equal(got, []string{"a"}) {
		t.Errorf("tags after - -: %q", got)
	}
	if h.ed.steps != 3 {
		t.Errorf("%d steps", h.ed.steps)
	}
}

// Multi-selection: shared components only, mixed values shown as such, edits applied to all.
func TestMultiSelectionMixed(t *testing.T) {
	s := newScene(t)
	h := newHarness(t, s.w)
	h.ed.names[s.es[0]], h.ed.names[s.es[1]], h.ed.names[s.es[2]] = "a", "b", "c"
	h.sel = s.es
	h.frames(3)
	id := s.everything
	if _, ok := h.p.debug.byName["header:Transform"]; ok {
		t.Error("Transform is not on every selected entity but has a header")
	}
	mixed := map[string]bool{"enabled": true, "count": true, "title": true, "speed": false, "mode": false, "mesh": false}
	for path, want := range mixed {
		if got := h.widget(id, s.ord(t, path)).shown == "--"; got != want {
			t.Errorf("%s mixed=%v, want %v (shows %q)", path, got, want, h.widget(id, s.ord(t, path)).shown)
		}
	}
	pos := s.ord(t, "position")
	if h.widget(id, pos+1).shown != "--" || h.widget(id, pos+2).shown != "2" {
		t.Errorf("position shows %q %q; want -- and 2", h.widget(id, pos+1).shown, h.widget(id, pos+2).shown)
	}
	if h.widget(id, s.ord(t, "tint")).shown != "--" {
		t.Error("tint is not mixed")
	}
	if h.widget(nameKeyID, 0).shown != "--" {
		t.Error("names are not mixed")
	}
	// a drag on the mixed count edits all three, as one step, clamped
	h.drag(center(h.widget(id, s.ord(t, "count"))), 300, 6)
	if h.ed.steps != 1 {
		t.Errorf("%d steps, want 1", h.ed.steps)
	}
	for _, c := range h.ed.sets {
		if !slices.Equal(c.es, s.es) {
			t.Errorf("edit applied to %v, want all of %v", c.es, s.es)
		}
	}
	for _, e := range s.es {
		if got := s.get(t, e).Count; got != 5 {
			t.Errorf("%v count %d, want 5", e, got)
		}
	}
	h.frames(2)
	if got := h.widget(id, s.ord(t, "count")).shown; got != "5" {
		t.Errorf("count shows %q after the edit, want 5", got)
	}
	// the checkbox shows ImGui's mixed state; a click sets all
	h.click(center(h.widget(id, s.ord(t, "enabled"))))
	for _, e := range s.es {
		if !s.get(t, e).Enabled {
			t.Errorf("%v not enabled after clicking the mixed checkbox", e)
		}
	}
	// channel x is mixed; editing y leaves each x alone
	h.drag(center(h.widget(id, pos+2)), 60, 3)
	for i, e := range s.es {
		if p := s.get(t, e).Position; p[0] != float32(i) || p[1] <= 2 {
			t.Errorf("%v position %v", e, p)
		}
	}
	if got := h.p.Selection().Len(); got != 3 {
		t.Errorf("selection len %d", got)
	}
}

// Values changed by others are highlighted for about a second; the user's own edits are not.
func TestChangeHighlight(t *testing.T) {
	h, s := single(t)
	id := s.everything
	angle := s.ord(t, "angle")
	if err := s.w.SetField(s.es[0], id, "angle", 10); err != nil { // a play-mode system, or undo
		t.Fatal(err)
	}
	h.frame()
	if got := h.p.tracker.Heat(id, angle, angle+1); got < 0.9 {
		t.Errorf("heat %v right after an outside change", got)
	}
	if got := h.widget(id, angle).shown; got != "10" {
		t.Errorf("live value %q, want 10", got)
	}
	h.frames(30)
	if got := h.p.tracker.Heat(id, angle, angle+1); got < 0.3 || got > 0.7 {
		t.Errorf("heat %v after half a second", got)
	}
	h.frames(40)
	if got := h.p.tracker.Heat(id, angle, angle+1); got != 0 {
		t.Errorf("heat %v after more than a second", got)
	}
	// own drag: no highlight
	speed := s.ord(t, "speed")
	h.drag(center(h.widget(id, speed)), 50, 5)
	h.frames(2)
	if got := h.p.tracker.Heat(id, 0, 200); got != 0 {
		t.Errorf("own edit highlighted: %v", got)
	}
}

// A drag whose widget disappears (the selection changed mid-drag) still ends its undo step.
func TestEditEndsWhenWidgetGoes(t *testing.T) {
	h, s := single(t)
	it := h.widget(s.everything, s.ord(t, "speed"))
	h.moveTo(center(it))
	h.button(0, true)
	h.moveTo(imgui.Vec2{X: center(it).X + 30, Y: center(it).Y})
	h.moveTo(imgui.Vec2{X: center(it).X + 60, Y: center(it).Y})
	if !h.ed.open {
		t.Fatal("no edit open during the drag")
	}
	h.sel = nil
	h.frame()
	if h.ed.open || h.ed.steps != 1 {
		t.Errorf("edit still open (%v) or %d steps", h.ed.open, h.ed.steps)
	}
	h.button(0, false)
}

// Errors from the editor are shown and passed on.
func TestEditorErrors(t *testing.T) {
	h, s := single(t)
	var got []error
	h.p.opts.OnError = func(err error) { got = append(got, err) }
	h.ed.fail = errRejected
	h.click(center(h.widget(s.everything, s.ord(t, "enabled"))))
	if len(got) != 1 || h.p.Err() != errRejected {
		t.Errorf("errors %v, Err %v", got, h.p.Err())
	}
	h.p.ClearErr()
	if h.p.Err() != nil {
		t.Error("ClearErr")
	}
}

func TestNewPanicsWithoutEditor(t *testing.T) {
	defer func() {
		if r := recover(); r == nil || !strings.Contains(r.(string), "Editor") {
			t.Errorf("recover %v", r)
		}
	}()
	New(nil, Options{})
}

func TestContainsFold(t *testing.T) {
	for _, tc := range []struct {
		s, sub string
		want   bool
	}{{"Transform", "trans", true}, {"Transform", "FORM", true}, {"Mesh", "", true}, {"ab", "abc", false}, {"Color", "x", false}} {
		if containsFold(tc.s, tc.sub) != tc.want {
			t.Errorf("containsFold(%q, %q)", tc.s, tc.sub)
		}
	}
	if escapePercent("100% sure") != "100%% sure" || escapePercent("plain") != "plain" {
		t.Error("escapePercent")
	}
}

// A colour drag (on the R input of the colour editor) is one step; channels stay in [0,1].
func TestColorDrag(t *testing.T) {
	h, s := single(t)
	it := h.widget(s.everything, s.ord(t, "tint"))
	h.drag(imgui.Vec2{X: it.min.X + 15, Y: center(it).Y}, 600, 12)
	if h.ed.steps != 1 || len(h.ed.sets) < 2 {
		t.Fatalf("steps %d, calls %v", h.ed.steps, h.ed.calls)
	}
	for _, c := range h.ed.sets {
		v := c.v.(mgl32.Vec4)
		if c.path != "tint" || v[0] < 0 || v[0] > 1 || v[1] != 0.5 || v[2] != 0.25 || v[3] != 1 {
			t.Errorf("set %s = %v", c.path, v)
		}
	}
	if r := s.get(t, s.es[0]).Tint[0]; r != 1 {
		t.Errorf("tint.r = %v after a long drag right, want 1 (clamped)", r)
	}
}

// A multi-line text commits on Enter (Ctrl+Enter makes a new line).
func TestMultilineCommitsOnEnter(t *testing.T) {
	h, s := single(t)
	h.click(center(h.widget(s.everything, s.ord(t, "notes"))))
	h.typeText("one")
	io := imgui.CurrentIO()
	io.AddKeyEvent(imgui.ModCtrl, true)
	h.key(imgui.KeyEnter)
	io.AddKeyEvent(imgui.ModCtrl, false)
	h.typeText2("two")
	if len(h.ed.sets) != 0 {
		t.Fatalf("reported before Enter: %v", h.ed.calls)
	}
	h.key(imgui.KeyEnter)
	if got := s.get(t, s.es[0]).Notes; got != "one\ntwo" {
		t.Errorf("notes = %q; calls %v", got, h.ed.calls)
	}
}

// World matrices follow the user's transform edits without lighting up; an outside change of the
// transform lights up both.
func TestComputedFollowsOwnEdits(t *testing.T) {
	h, s := single(t)
	gid, _ := ecs.ComponentIDOf[ecs.GlobalTransform](s.w)
	tmodel := fields.New(s.w.ComponentInfo(s.transform))
	pos := ord(t, tmodel, reflect.ValueOf(ecs.Transform{}), "position")
	h.drag(center(h.widget(s.transform, pos+1)), 80, 4)
	h.frames(2)
	if got := s.w.WorldMatrix(s.es[0])[12]; got <= 0 {
		t.Fatalf("world matrix x = %v: the drag did not move the entity", got)
	}
	if h.p.tracker.Heat(gid, 0, 100) != 0 || h.p.tracker.Heat(s.transform, 0, 100) != 0 {
		t.Error("the user's own transform drag lit up")
	}
	h.frames(10)
	if err := s.w.SetField(s.es[0], s.transform, "position[1]", 5); err != nil {
		t.Fatal(err)
	}
	h.frames(2)
	if h.p.tracker.Heat(gid, 0, 100) == 0 || h.p.tracker.Heat(s.transform, pos+2, pos+3) == 0 {
		t.Error("an outside transform change did not light up the transform and the world matrix")
	}
}

// A big selection is scanned over several frames (or between them, with Scan): Pending says the shared
// components and mixed values shown are not final yet; the entity count is right from the first frame.
func TestPendingUntilTheScanIsDone(t *testing.T) {
	w := ecs.NewWorld()
	fieldstest.Register(w)
	var es []ecs.Entity
	for range 2000 {
		es = append(es, w.Spawn(fieldstest.Sample(0)))
	}
	w.Despawn(es[1500])
	h := newHarness(t, w)
	h.p.scan.Budget = 200
	h.sel = es
	h.frame()
	if !h.p.Pending() {
		t.Fatal("a 2000-entity selection with a small budget is not pending after one frame")
	}
	if got := h.p.debug.byName["id"].shown; got != "1999 entities" {
		t.Fatalf("the first frame shows %q, want the live count 1999 entities", got)
	}
	n := 1
	for h.p.Pending() {
		if n++; n > 1000 {
			t.Fatal("still pending after 1000 frames")
		}
		h.frame()
		if got := h.p.debug.byName["id"].shown; got != "1999 entities" {
			t.Fatalf("frame %d shows %q", n, got)
		}
	}
	h.frames(5)
	if h.p.Pending() {
		t.Error("a settled selection became pending again in a quiet world")
	}
	// Between frames: Scan finishes what frames would have.
	h.sel = es[:1000]
	h.frame()
	scans := 0
	for h.p.Scan() {
		if scans++; scans > 1000 {
			t.Fatal("Scan never finishes")
		}
	}
	if scans == 0 || h.p.Pending() {
		t.Fatalf("%d scans, pending %v", scans, h.p.Pending())
	}
	h.sel = nil
	h.frame()
	if h.p.Pending() || h.p.Scan() {
		t.Error("an empty selection is pending")
	}
}

type sceneIDs map[ecs.Entity]uint64

func (s sceneIDs) ID(e ecs.Entity) uint64 { return s[e] }

// The header shows the id a user knows (the scene id), not the entity handle.
func TestHeaderShowsSceneID(t *testing.T) {
	h, s := single(t)
	if got := h.p.debug.byName["id"].shown; got != "ID "+s.es[0].String() {
		t.Errorf("without IDs the header shows %q", got)
	}
	h.p.opts.IDs = sceneIDs{s.es[0]: 42, s.target: 7}
	h.frame()
	if got := h.p.debug.byName["id"].shown; got != "ID 42" {
		t.Errorf("header shows %q, want ID 42", got)
	}
	if got := h.p.entityText(s.target); got != "Goal  (7)" {
		t.Errorf("an entity reference shows %q, want \"Goal  (7)\"", got)
	}
}

// Vector channels are labelled X, Y, Z and typing into one still takes a plain number: the
// label is a format prefix that typed input leaves out.
func TestVectorChannelsLabelledAndTypable(t *testing.T) {
	h, s := single(t)
	h.typeInto(s.everything, s.ord(t, "position")+2, "7.5")
	if p := s.get(t, s.es[0]).Position; p[1] != 7.5 {
		t.Errorf("position after typing 7.5 into Y: %v", p)
	}
	if got := h.p.axisFormat(1, "%.3f"); got != "Y %.3f" {
		t.Errorf("the Y channel's format is %q", got)
	}
}

// typeInto double-clicks the number field at ord of component id, types s and presses Enter.
func (h *harness) typeInto(id ecs.ComponentID, ord int, s string) {
	h.t.Helper()
	h.moveTo(center(h.widget(id, ord)))
	h.frames(30)  // past the double-click time of the last clicks
	for range 2 { // a double-click turns a drag into a text field
		h.button(0, true)
		h.frame()
		h.button(0, false)
		h.frame()
	}
	if !imgui.CurrentIO().WantTextInput() {
		h.t.Fatal("double-clicking the field did not start text input")
	}
	h.typeText(s)
	h.key(imgui.KeyEnter)
}

// An expression typed into a number field ("+= 10", "= x*2", "= rand(0,10)") is reported once, for
// every selected entity, as one undo step; a plain number is still set as it is. ImGui's number
// input turns commas into points, so a point before a space is taken for a comma.
func TestNumberFieldTakesExpressions(t *testing.T) {
	s := newScene(t)
	h := newHarness(t, s.w)
	h.sel = s.es
	h.frames(3)
	pos := s.ord(t, "position")
	for _, src := range []string{"+= 10", "*= 0.5", "= x*2", "= rand(0, 10)"} {
		from, steps := len(h.ed.calls), h.ed.steps
		h.typeInto(s.everything, pos+2, src)
		want := []string{"begin:Edit Everything.position[1]", "expr:position[1] " + src + " 3", "end"}
		if got := h.callsSince(from); !slices.Equal(got, want) {
			t.Errorf("typing %q into Y reported %q, want %q", src, got, want)
		}
		if h.ed.steps != steps+1 {
			t.Errorf("typing %q made %d undo steps, want 1", src, h.ed.steps-steps)
		}
	}
	from := len(h.ed.calls)
	h.typeInto(s.everything, pos+2, "4")
	if got := h.callsSince(from); len(got) == 0 || got[len(got)-1] != "end" || !slices.Contains(got, "set:position[1]=4") {
		t.Errorf("typing 4 reported %q, want a plain set", got)
	}
	h.ed.fail = errors.New("Everything.position[1]: no such thing")
	h.typeInto(s.everything, pos+2, "+= nonsense")
	if h.p.Err() == nil || !strings.Contains(h.p.Err().Error(), "no such thing") {
		t.Errorf("the editor's error is not shown: %v", h.p.Err())
	}
}

// Randomise in a vector field's label menu sets every channel of every selected entity from a
// range and a seed, as one undo step.
func TestRandomiseFromTheLabelMenu(t *testing.T) {
	s := newScene(t)
	h := newHarness(t, s.w)
	h.sel = s.es
	h.frames(3)
	row := h.widget(s.everything, s.ord(t, "position")+1)
	h.clickButton(imgui.Vec2{X: 20, Y: center(row).Y}, 1)
	h.frames(2)
	apply, ok := h.p.debug.byName["randomise:apply"]
	if !ok {
		t.Fatal("right-clicking Position's label shows no Randomise")
	}
	h.p.rnd = randomise{lo: -5, hi: 5, seed: 7}
	from, steps := len(h.ed.calls), h.ed.steps
	h.click(center(apply))
	h.frames(2)
	want := []string{"begin:Edit Everything.position", "expr:position = rand(-5, 5) 3", "end"}
	if got := h.callsSince(from); !slices.Equal(got, want) || h.ed.seed != 7 || h.ed.steps != steps+1 {
		t.Errorf("Randomise reported %q with seed %d in %d steps, want %q with seed 7 in 1", got, h.ed.seed, h.ed.steps-steps, want)
	}
	if _, open := h.p.debug.byName["randomise:apply"]; open {
		t.Error("the menu stays open after Randomise")
	}
}
