package program

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/voltex-editor/voltex/ecs"
	"github.com/voltex-editor/voltex/ecs/scene"
	"github.com/voltex-editor/voltex/internal/atomicfile"
	"github.com/voltex-editor/voltex/internal/words"
	"github.com/voltex-editor/voltex/serialize"
	"github.com/voltex-editor/voltex/serialize/merge"
	"github.com/voltex-editor/voltex/serialize/query"
)

// `query` and `set`: the query language (package serialize/query, docs/query.md) over scene files.

const queryHelp = "QUERY picks entities by components, fields, names and place (docs/query.md):\n" +
	"  Unit.team=Red Health.current<50 !Spin name~\"Orc*\" parent:\"Wave 2\"\n"

func runQuery(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("query", "[--json] DIR|FILE... QUERY", "Lists the entities of scene files that QUERY matches: file, entity id, name and the values the\n"+
		"query compares. A folder stands for every scene file in it and below. Components come from the\n"+
		"project file of each scene, as for the other commands.\n"+queryHelp+
		"Exit 0 if some entity matches, 1 if none does, 2 on trouble (a query that does not read, a file that\n"+
		"does not load).")
	asJSON := fs.Bool("json", false, "print a JSON array with one object per match: {\"file\", \"id\", \"name\", \"values\"}")
	if code, ok := parseFlags(fs, args, stdout, stderr); !ok {
		return code
	}
	if fs.NArg() < 2 {
		return usageError(fs, stderr, "voltex-editor query: need scene files (or folders) and a query")
	}
	files, code := queryFiles(fs.Args()[:fs.NArg()-1], stderr)
	src := fs.Arg(fs.NArg() - 1)
	type match struct {
		File   string            `json:"file"`
		ID     uint64            `json:"id"`
		Name   string            `json:"name"`
		Values map[string]string `json:"values,omitempty"`
	}
	matches := []match{}
	for _, path := range files {
		s, ok := loadForQuery(path, stderr)
		if !ok {
			code = 2
			continue
		}
		q, err := query.Parse(s.World, src)
		if err != nil {
			queryError(stderr, "query", src, err)
			return 2
		}
		for _, e := range byID(s.World, q.Eval(s.World).Entities()) {
			m := match{File: path, ID: idOf(s.World, e), Name: nameOf(s.World, e)}
			vals := q.Values(s.World, e)
			var shown []string
			for i, f := range q.Compared() {
				if f == "name" || f == "id" {
					continue
				}
				if m.Values == nil {
					m.Values = map[string]string{}
				}
				m.Values[f] = vals[i]
				shown = append(shown, f+"="+vals[i])
			}
			matches = append(matches, m)
			if !*asJSON {
				fmt.Fprintf(stdout, "%s: %d %s%s\n", path, m.ID, strconv.Quote(m.Name), prefixed(" ", strings.Join(shown, " ")))
			}
		}
	}
	if *asJSON {
		b, err := json.MarshalIndent(matches, "", "  ")
		if err == nil {
			_, _ = fmt.Fprintf(stdout, "%s\n", b)
		}
	}
	if code == 0 && len(matches) == 0 {
		code = 1
	}
	return code
}

func prefixed(p, s string) string {
	if s == "" {
		return ""
	}
	return p + s
}

// queryFiles lists the scene files the arguments name: files as given, folders as the scene files in
// them and below. Code is 2 if a folder could not be read.
func queryFiles(args []string, stderr io.Writer) (files []string, code int) {
	for _, arg := range args {
		st, err := os.Stat(arg)
		if err != nil || !st.IsDir() {
			files = append(files, arg)
			continue
		}
		found, err := sceneFiles(arg)
		if err != nil {
			fmt.Fprintln(stderr, err)
			code = 2
		}
		for _, p := range found {
			if f, err := os.Open(p); err == nil {
				if serialize.IsScene(f) {
					files = append(files, p)
				}
				_ = f.Close() // read only
			}
		}
	}
	return files, code
}

// loadForQuery loads the scene at path as every subcommand does (its project file's components,
// the default limits), printing its problems.
func loadForQuery(path string, stderr io.Writer) (*serialize.Scene, bool) {
	opts, err := worlds.options(path, stderr)
	if err != nil { // printed by options
		return nil, false
	}
	s, err := serialize.LoadFile(context.Background(), path, opts)
	if err != nil {
		printProblems(stderr, path, err)
		return nil, false
	}
	printWarnings(stderr, s.Warnings)
	return s, true
}

// queryError prints a query's or an edit's error under the text with a caret at its column.
func queryError(stderr io.Writer, cmd, src string, err error) {
	var qe *query.Error
	if !errors.As(err, &qe) {
		fmt.Fprintf(stderr, "voltex-editor %s: %v\n", cmd, err)
		return
	}
	fmt.Fprintf(stderr, "voltex-editor %s: %v\n  %s\n  %s^\n", cmd, err, src, strings.Repeat(" ", min(qe.Col-1, utf8.RuneCountInString(src))))
}

// byID sorts entities by scene id: the order of the file.
func byID(w *ecs.World, es []ecs.Entity) []ecs.Entity {
	slices.SortFunc(es, func(a, b ecs.Entity) int { return cmp.Compare(idOf(w, a), idOf(w, b)) })
	return es
}

func idOf(w *ecs.World, e ecs.Entity) uint64 {
	s, _ := ecs.NewMap[scene.SceneID](w).TryGet(e)
	return s.ID
}

func nameOf(w *ecs.World, e ecs.Entity) string {
	n, _ := ecs.NewMap[scene.Name](w).TryGet(e)
	return n.Value
}

func runSet(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("set", "[--dry-run] [--seed N] DIR|FILE... QUERY EDIT", "Changes a field of every entity QUERY matches in scene files, writing only the changed values' text\n"+
		"(every other byte stays, so a version-control diff shows just them; atomic saves, FILE.bak kept).\n"+
		queryHelp+"EDIT is Component.field OP VALUE: OP is = += -= *= /=, VALUE a number, x (the value before) in\n"+
		"small arithmetic (x*2+1, max(x, 0)), rand(a, b) (seeded per entity), a name of an enum, text or true/false;\n"+
		"a vector changes item by item (Transform.scale*=2, Transform.position+=[0, 1, 0]) or by one\n"+
		"(Transform.position.y+=1). Every file is checked before any is written: on trouble none is.\n"+
		"Exit 0 when entities matched, 1 if none did, 2 on trouble (nothing written).")
	dry := fs.Bool("dry-run", false, "write nothing: print what would change, as 'voltex-editor diff' does")
	seed := fs.Uint64("seed", 1, "the seed of rand(a, b): the same seed gives the same values")
	if code, ok := parseFlags(fs, args, stdout, stderr); !ok {
		return code
	}
	if fs.NArg() < 3 {
		return usageError(fs, stderr, "voltex-editor set: need scene files (or folders), a query and an edit")
	}
	if slices.Contains(fs.Args()[:fs.NArg()-2], "-") {
		return usageError(fs, stderr, "voltex-editor set: cannot write back standard input (-)")
	}
	files, code := queryFiles(fs.Args()[:fs.NArg()-2], stderr)
	qsrc, esrc := fs.Arg(fs.NArg()-2), fs.Arg(fs.NArg()-1)
	var results []*setResult
	matched := 0
	for _, path := range files {
		r, err := setOne(path, qsrc, esrc, *seed, stderr)
		var bad badText
		switch {
		case errors.As(err, &bad):
			queryError(stderr, "set", bad.src, bad.err)
			return 2
		case err != nil:
			if err != errLoaded {
				fmt.Fprintln(stderr, err)
			}
			code = 2
			continue
		}
		matched += r.n
		results = append(results, r)
	}
	if code != 0 {
		fmt.Fprintln(stderr, "voltex-editor set: nothing was written")
		return code
	}
	for _, r := range results {
		if *dry {
			if err := printSemanticDiff(stdout, r.path, r.old, r.new); err != nil {
				fmt.Fprintf(stderr, "voltex-editor set: %s: %v\n", r.path, err)
				return 2
			}
			continue
		}
		if bytes.Equal(r.old, r.new) {
			continue
		}
		if err := atomicfile.WriteFile(r.path, r.new); err != nil {
			fmt.Fprintf(stderr, "voltex-editor set: %v\n", err)
			return 2
		}
		fmt.Fprintf(stdout, "%s: %s of %s\n", r.path, strings.Join(r.fields, ", "), words.Count(r.n, "entity", "entities"))
	}
	if matched == 0 {
		fmt.Fprintln(stderr, "voltex-editor set: no entity matches")
		return 1
	}
	return 0
}

// errLoaded is a file that did not load; its problems are printed.
var errLoaded = errors.New("the file did not load")

// badText is a query or an edit that does not read (or does not fit a file's components).
type badText struct {
	src string
	err error
}

func (b badText) Error() string { return b.err.Error() }

// setResult is the edit of one file.
type setResult struct {
	path     string
	old, new []byte   // the file's bytes before and after
	n        int      // entities the query matched
	fields   []string // the fields whose text changes
}

// setOne computes the edit of one file (writing nothing).
func setOne(path, qsrc, esrc string, seed uint64, stderr io.Writer) (*setResult, error) {
	opts, err := worlds.options(path, stderr)
	if err != nil { // printed by options
		return nil, errLoaded
	}
	in, err := serialize.OpenInput(path)
	if err != nil {
		return nil, err
	}
	lim := opts.Limits.MaxFileSize
	if lim == 0 {
		lim = serialize.DefaultLimits().MaxFileSize
	}
	r := &setResult{path: path}
	r.old, err = io.ReadAll(io.LimitReader(in, lim+1)) // Load refuses more than the limit
	_ = in.Close()                                     // read only
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	opts.File = path
	s, err := serialize.Load(context.Background(), bytes.NewReader(r.old), opts)
	if err != nil {
		printProblems(stderr, path, err)
		return nil, errLoaded
	}
	printWarnings(stderr, s.Warnings)
	w := s.World
	q, err := query.Parse(w, qsrc)
	if err != nil {
		return nil, badText{qsrc, err}
	}
	ed, err := query.ParseEdit(w, esrc)
	if err != nil {
		return nil, badText{esrc, err}
	}
	ents := q.Eval(w).Entities()
	r.n = len(ents)
	changes, err := ed.Apply(w, ents, seed)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	vals, err := ed.Texts(w, changes)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if r.new, err = query.Patch(r.old, path, vals); err != nil {
		return nil, err
	}
	if err := checkPatched(w, ed.Component(), changes, r.new, opts); err != nil {
		return nil, fmt.Errorf("%s: the edited file would not hold the edit: %w", path, err)
	}
	for _, v := range vals {
		if !slices.Contains(r.fields, v.Field) {
			r.fields = append(r.fields, v.Field)
		}
	}
	return r, nil
}

// checkPatched loads the patched file and checks that each changed entity's component is what the
// edit made it.
func checkPatched(w *ecs.World, comp ecs.ComponentID, changes []query.Change, out []byte, opts serialize.LoadOptions) error {
	s, err := serialize.Load(context.Background(), bytes.NewReader(out), opts)
	if err != nil {
		return err
	}
	byID := map[uint64]ecs.Entity{}
	sids := ecs.NewMap[scene.SceneID](s.World)
	s.World.EachEntity(func(e ecs.Entity) bool {
		if id, ok := sids.TryGet(e); ok {
			byID[id.ID] = e
		}
		return true
	})
	name := w.ComponentInfo(comp).Name
	ncomp, ok := s.World.ComponentByName(name)
	if !ok {
		return fmt.Errorf("no %s", name)
	}
	for _, c := range changes {
		if err := w.Set(c.Entity, comp, c.Value); err != nil {
			return err
		}
		want, err := serialize.ComponentJSON(w, c.Entity, comp)
		if err != nil {
			return err
		}
		id := idOf(w, c.Entity)
		got, err := serialize.ComponentJSON(s.World, byID[id], ncomp)
		if err != nil || got != want {
			return fmt.Errorf("entity %d: %s is %s, the edit makes it %s", id, name, got, want)
		}
	}
	return nil
}

// printSemanticDiff prints what changes from before to after as 'voltex-editor diff' does.
func printSemanticDiff(stdout io.Writer, path string, before, after []byte) error {
	opts, err := worlds.options(path, io.Discard)
	if err != nil {
		return err
	}
	opts.File = path
	a, err := serialize.ReadRaw(context.Background(), bytes.NewReader(before), opts)
	if err != nil {
		return err
	}
	b, err := serialize.ReadRaw(context.Background(), bytes.NewReader(after), opts)
	if err != nil {
		return err
	}
	changes := merge.Diff(a, b)
	if len(changes) == 0 {
		return nil
	}
	fmt.Fprintf(stdout, "--- %s\n", path)
	return merge.WriteText(stdout, a, b, changes)
}
