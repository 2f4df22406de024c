package serialize_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
	"github.com/voltex-editor/voltex/serialize"
	"github.com/voltex-editor/voltex/serialize/game"
	"github.com/voltex-editor/voltex/serialize/project"
)

// declaredWorld returns the world maker of testdata/declared/voltex.project.json.
func declaredWorld(t testing.TB) func() *ecs.World {
	t.Helper()
	return projectWorld(t)(project.Load("testdata/declared/voltex.project.json"))
}

// projectWorld returns a function that turns a parsed project (or its error) into its world maker.
func projectWorld(t testing.TB) func(*project.Project, error) func() *ecs.World {
	return func(p *project.Project, err error) func() *ecs.World {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		mk, err := p.NewWorld(nil)
		if err != nil {
			t.Fatal(err)
		}
		return mk
	}
}

func loadDeclared(t *testing.T, src string, opts serialize.LoadOptions) (*serialize.Scene, error) {
	t.Helper()
	if opts.NewWorld == nil {
		opts.NewWorld = declaredWorld(t)
	}
	if opts.File == "" {
		opts.File = "level.json"
	}
	return serialize.Load(context.Background(), strings.NewReader(src), opts)
}

func saveString(t *testing.T, s *serialize.Scene) string {
	t.Helper()
	var b bytes.Buffer
	if err := serialize.Save(context.Background(), &b, s, serialize.SaveOptions{}); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// A scene of declared components loads (entity references, enums, lists of structs) and saves back
// byte for byte.
func TestDeclaredRoundTrip(t *testing.T) {
	src, err := os.ReadFile("testdata/declared/level.json")
	if err != nil {
		t.Fatal(err)
	}
	s, err := loadDeclared(t, string(src), serialize.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Warnings) != 0 {
		t.Fatalf("warnings %v", s.Warnings)
	}
	w := s.World
	enemy, _ := w.ComponentByName("Enemy")
	var grunt, player, scout ecs.Entity
	names := ecs.NewMap[scene.Name](w)
	for _, e := range scene.EnsureIDs(w) {
		switch names.Get(e).Value {
		case "Grunt":
			grunt = e
		case "Player":
			player = e
		case "Scout":
			scout = e
		}
	}
	if v, _ := w.GetField(grunt, enemy, "target"); v != player {
		t.Fatalf("Grunt's target %v, want the Player %v", v, player)
	}
	if v, _ := w.GetField(grunt, enemy, "allies[0]"); v != scout {
		t.Fatalf("Grunt's ally %v, want the Scout %v", v, scout)
	}
	if v, _ := w.GetField(grunt, enemy, "route[1].at[0]"); v != float32(5) {
		t.Fatalf("route %v", v)
	}
	if out := saveString(t, s); out != string(src) {
		t.Fatalf("saved differently:\n%s", out)
	}
	// Export: references become indices, editor-only components are left out, defaults are there.
	var exp bytes.Buffer
	if err := serialize.Export(context.Background(), &exp, s); err != nil {
		t.Fatal(err)
	}
	gs, err := game.Load(&exp)
	if err != nil {
		t.Fatal(err)
	}
	idx := map[string]int{}
	for i, e := range gs.Entities {
		idx[e.Name] = i
	}
	var en struct {
		Target int     `json:"target"`
		Team   int     `json:"team"`
		Speed  float32 `json:"speed"`
		Allies []int   `json:"allies"`
	}
	g := gs.Entities[idx["Grunt"]]
	if err := g.Decode("Enemy", &en); err != nil {
		t.Fatal(err)
	}
	if en.Target != idx["Player"] || en.Team != 2 || en.Allies[0] != idx["Scout"] {
		t.Fatalf("exported Enemy %+v, indices %v", en, idx)
	}
	if _, ok := g.Components["DebugNote"]; ok {
		t.Fatal("an editor-only component was exported")
	}
	sc := gs.Entities[idx["Scout"]]
	if err := sc.Decode("Enemy", &en); err != nil || en.Target != -1 {
		t.Fatalf("no target is -1: %+v %v", en, err)
	}
	// The game spawns the export into its own world: references and defaults come through.
	gw := declaredWorld(t)()
	ents, err := serialize.SpawnExport(gw, gs)
	if err != nil {
		t.Fatal(err)
	}
	gEnemy, _ := gw.ComponentByName("Enemy")
	if v, _ := gw.GetField(ents[idx["Grunt"]], gEnemy, "target"); v != ents[idx["Player"]] {
		t.Fatalf("spawned target %v, want %v", v, ents[idx["Player"]])
	}
	if p := gw.Parent(ents[idx["Scout"]]); p != ents[idx["Grunt"]] {
		t.Fatalf("spawned parent %v", p)
	}
}

// Missing fields take the declared defaults in the world and in the export.
func TestDeclaredDefaults(t *testing.T) {
	s, err := loadDeclared(t, `{"format": "voltex.scene", "version": 1, "entities": [
		{"id": 1, "components": {"Enemy": {}, "Health": {"current": 5}}}]}`, serialize.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	w := s.World
	e := scene.EnsureIDs(w)[0]
	enemy, _ := w.ComponentByName("Enemy")
	health, _ := w.ComponentByName("Health")
	if v, _ := w.GetField(e, enemy, "team"); v != int32(2) {
		t.Fatalf("team default %v", v)
	}
	if v, _ := w.GetField(e, health, "max"); v != float32(100) {
		t.Fatalf("max default %v", v)
	}
	var exp bytes.Buffer
	if err := serialize.Export(context.Background(), &exp, s); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(exp.String(), `"Enemy": { "target": -1, "team": 2, "speed": 2.5, "route": [], "allies": [] }`) {
		t.Fatalf("export:\n%s", exp.String())
	}
}

// Former component and field names load and are saved under the current names.
func TestDeclaredRenames(t *testing.T) {
	s, err := loadDeclared(t, `{"format": "voltex.scene", "version": 1, "entities": [
		{"id": 1, "components": {"HP": {"current": 5, "maximum": 50}}}]}`, serialize.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if out := saveString(t, s); !strings.Contains(out, `"Health": { "current": 5, "max": 50 }`) {
		t.Fatalf("saved:\n%s", out)
	}
	for name, src := range map[string]string{
		"component twice": `{"id": 1, "components": {"HP": {}, "Health": {}}}`,
		"field twice":     `{"id": 1, "components": {"Health": {"max": 1, "maximum": 2}}}`,
	} {
		_, err := loadDeclared(t, `{"format": "voltex.scene", "version": 1, "entities": [`+src+`]}`, serialize.LoadOptions{})
		if err == nil || !strings.Contains(err.Error(), "under its current and a former name; keep one") {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// A misspelt component is an error with a suggestion; a genuinely unknown one is kept (an error in
// strict mode); a misspelt field and an enum value that is not declared are errors.
func TestDeclaredUnknown(t *testing.T) {
	doc := func(comps string) string {
		return `{"format": "voltex.scene", "version": 1, "entities": [{"id": 1, "components": {` + comps + `}}]}`
	}
	_, err := loadDeclared(t, doc(`"Transfrom": {}`), serialize.LoadOptions{})
	if err == nil || !strings.Contains(err.Error(), `level.json:1:80: entities[0].components.Transfrom: unknown component "Transfrom" (did you mean "Transform"?)`) {
		t.Fatalf("misspelt built-in: %v", err)
	}
	_, err = loadDeclared(t, doc(`"Enemmy": {}`), serialize.LoadOptions{})
	if err == nil || !strings.Contains(err.Error(), `(did you mean "Enemy"?)`) {
		t.Fatalf("misspelt declared: %v", err)
	}
	s, err := loadDeclared(t, doc(`"Spawner": {"rate": 2}`), serialize.LoadOptions{})
	if err != nil || len(s.Warnings) != 1 || !strings.Contains(s.Warnings[0].Msg, `unknown component "Spawner"`) {
		t.Fatalf("unknown: %v %v", err, s.Warnings)
	}
	if out := saveString(t, s); !strings.Contains(out, `"Spawner": { "rate": 2 }`) {
		t.Fatalf("an unknown component is written back:\n%s", out)
	}
	_, err = loadDeclared(t, doc(`"Spawner": {"rate": 2}`), serialize.LoadOptions{Strict: true})
	if err == nil || !strings.Contains(err.Error(), `unknown component "Spawner": no registered type or project file declares it`) {
		t.Fatalf("strict: %v", err)
	}
	_, err = loadDeclared(t, doc(`"Health": {"maxx": 3}`), serialize.LoadOptions{})
	if err == nil || !strings.Contains(err.Error(), `entities[0].components.Health.maxx: unknown field; did you mean "max"? (Health has current and max)`) {
		t.Fatalf("misspelt field: %v", err)
	}
	_, err = loadDeclared(t, doc(`"Enemy": {"team": 7}`), serialize.LoadOptions{})
	if err == nil || !strings.Contains(err.Error(), `Enemy.team: 7 is not a value of this enum (Neutral=0, Player=1, Enemy=2)`) {
		t.Fatalf("enum value: %v", err)
	}
	_, err = loadDeclared(t, doc(`"Scratch": {"n": 1}`), serialize.LoadOptions{})
	if err == nil || !strings.Contains(err.Error(), "transient") {
		t.Fatalf("a transient component in a file: %v", err)
	}
}

// A default holding a list is copied, not shared between the entities that take it.
func TestDeclaredDefaultNotShared(t *testing.T) {
	p, err := project.Parse([]byte(`{"format": "voltex.project", "version": 1, "components": [
		{"name": "Bag", "fields": [{"name": "items", "type": "list", "of": "int", "default": [1, 2]}]}]}`), "p.json")
	if err != nil {
		t.Fatal(err)
	}
	mk, err := p.NewWorld(nil)
	if err != nil {
		t.Fatal(err)
	}
	s, err := serialize.Load(context.Background(), strings.NewReader(`{"format": "voltex.scene", "version": 1, "entities": [
		{"id": 1, "components": {"Bag": {}}}, {"id": 2, "components": {"Bag": {}}}]}`), serialize.LoadOptions{NewWorld: mk})
	if err != nil {
		t.Fatal(err)
	}
	w := s.World
	bag, _ := w.ComponentByName("Bag")
	es := scene.EnsureIDs(w)
	if err := w.SetField(es[0], bag, "items[0]", int32(9)); err != nil {
		t.Fatal(err)
	}
	if v, _ := w.GetField(es[1], bag, "items[0]"); v != int32(1) {
		t.Fatalf("the other entity's list changed: %v", v)
	}
	if d := w.ComponentInfo(bag).Schema.Default; reflect.ValueOf(d).Field(1).Index(0).Int() != 1 {
		t.Fatalf("the default changed: %v", d)
	}
}

// A lossy load keeps what fits and reports the rest as warnings (what the editor does, when asked,
// after a project file changed a component's fields).
func TestDeclaredLossy(t *testing.T) {
	src := `{"format": "voltex.scene", "version": 1, "entities": [{"id": 1, "components": {
		"Health": {"current": "lots", "max": 50, "armor": 3}, "Enemy": {"team": 9, "speed": 4}, "Helth": {}}}]}`
	if _, err := loadDeclared(t, src, serialize.LoadOptions{}); err == nil {
		t.Fatal("a strict load accepted it")
	}
	s, err := loadDeclared(t, src, serialize.LoadOptions{Lossy: true})
	if err != nil {
		t.Fatal(err)
	}
	var msgs []string
	for _, w := range s.Warnings {
		msgs = append(msgs, w.String())
	}
	all := strings.Join(msgs, "\n")
	for _, want := range []string{
		`level.json:2:25: warning: entities[0].components.Health.current: expected a number, got the string "lots" (dropped: the field keeps its default)`,
		`Health.armor: unknown field (Health has current and max) (dropped: not in the component any more)`,
		`Enemy.team: 9 is not a value of this enum`,
		`unknown component "Helth"`,
	} {
		if !strings.Contains(all, want) {
			t.Errorf("warnings:\n%s\nwant: %s", all, want)
		}
	}
	w := s.World
	e := scene.EnsureIDs(w)[0]
	health, _ := w.ComponentByName("Health")
	enemy, _ := w.ComponentByName("Enemy")
	if v, _ := w.GetField(e, health, "current"); v != float32(100) {
		t.Errorf("current keeps its default: %v", v)
	}
	if v, _ := w.GetField(e, health, "max"); v != float32(50) {
		t.Errorf("max is read: %v", v)
	}
	if v, _ := w.GetField(e, enemy, "speed"); v != float32(4) {
		t.Errorf("speed is read: %v", v)
	}
}

// An item of a list of structs starts from the struct's defaults, like a component: fields a scene
// leaves out take the declared defaults (Waypoint.wait is 1), for declared types and for Go types
// whose element type has a Default method (what gen writes).
func TestDeclaredListItemDefaults(t *testing.T) {
	src := `{"format": "voltex.scene", "version": 1, "entities": [
		{"id": 1, "components": {"Enemy": {"route": [{"at": [1, 2, 3]}, {"wait": 7}]}}}]}`
	s, err := loadDeclared(t, src, serialize.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := saveString(t, s); !strings.Contains(got, `"route": [{ "at": [1, 2, 3], "wait": 1 }, { "at": [0, 0, 0], "wait": 7 }]`) {
		t.Fatalf("declared: the route's items did not take Waypoint's defaults:\n%s", got)
	}
	goWorld := func() *ecs.World {
		w := scene.NewWorld()
		ecs.Register[goPatrol](w, ecs.WithName("Patrol"))
		return w
	}
	s, err = serialize.Load(context.Background(), strings.NewReader(`{"format": "voltex.scene", "version": 1, "entities": [
		{"id": 1, "components": {"Patrol": {"route": [{"at": [1, 2, 3]}]}}}]}`), serialize.LoadOptions{NewWorld: goWorld})
	if err != nil {
		t.Fatal(err)
	}
	if got := saveString(t, s); !strings.Contains(got, `"route": [{ "at": [1, 2, 3], "wait": 1 }]`) {
		t.Fatalf("Go: the route's items did not take goWaypoint.Default:\n%s", got)
	}
}

type goWaypoint struct {
	At   [3]float32 `json:"at"`
	Wait float32    `json:"wait"`
}

func (goWaypoint) Default() goWaypoint { return goWaypoint{Wait: 1} }

type goPatrol struct {
	Route []goWaypoint `json:"route"`
}

// What a component's default holds in its lists counts towards the world's memory where a file
// leaves the list out: each entity holds a copy (100 entities of a default list of 36,000 bytes
// took 3.6 MB past a limit of 1 MiB, counted at the list's 24-byte header).
func TestDefaultListCountsInWorldMemory(t *testing.T) {
	ints := strings.TrimSuffix(strings.Repeat("1, ", 9000), ", ")
	mk := projectWorld(t)(project.Parse([]byte(`{"format": "voltex.project", "version": 1, "components": [
		{"name": "Bag", "fields": [{"name": "items", "type": "list", "of": "int", "default": [`+ints+`]}]}]}`), "p.json"))
	var ents []string
	for i := 1; i <= 100; i++ {
		ents = append(ents, fmt.Sprintf(`{"id": %d, "components": {"Bag": {}}}`, i))
	}
	src := `{"format": "voltex.scene", "version": 2, "entities": [` + strings.Join(ents, ", ") + `]}`
	opts := serialize.LoadOptions{NewWorld: mk, Limits: serialize.Limits{MaxWorldBytes: 1 << 20}}
	if _, err := serialize.Load(context.Background(), strings.NewReader(src), opts); err == nil ||
		!strings.Contains(err.Error(), "the scene takes more than the limit of 1 MiB of memory") {
		t.Fatalf("err = %v", err)
	}
	opts.Limits.MaxWorldBytes = 8 << 20
	if _, err := serialize.Load(context.Background(), strings.NewReader(src), opts); err != nil {
		t.Fatal(err)
	}
}
