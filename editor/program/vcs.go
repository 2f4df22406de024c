package program

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	"github.com/voltex-editor/voltex/internal/atomicfile"
	"github.com/voltex-editor/voltex/internal/words"
	"github.com/voltex-editor/voltex/serialize"
	"github.com/voltex-editor/voltex/serialize/merge"
)

// Scenes in git: `diff` (also git's external diff driver), `merge` (git's merge driver) and
// `git-setup`, which tells git to use them.

// readSide reads one side of a diff or merge. A missing file (git's /dev/null) or an empty one (the
// base of a file added on both branches; diff refuses empty files before) is an empty scene. A pipe
// (<(git show REV:level.json)) is read: its size says nothing; so is "-", standard input.
func readSide(path, file string, opts serialize.LoadOptions) (*serialize.RawScene, error) {
	if path == os.DevNull {
		return &serialize.RawScene{}, nil
	}
	if path != "-" {
		st, err := os.Stat(path)
		if err != nil {
			return nil, err
		}
		if st.Mode().IsRegular() && st.Size() == 0 {
			return &serialize.RawScene{}, nil
		}
	}
	return serialize.ReadRawFile(context.Background(), path, sideOptions(opts, file))
}

// sideSize returns the size of the diff side at path for sidesRoom: 0 for a stream, 1 for a missing or
// empty file (read as an empty scene).
func sideSize(path string) int64 {
	if path == os.DevNull {
		return 1
	}
	st, err := os.Stat(path)
	if err != nil || !st.Mode().IsRegular() {
		return 0
	}
	return max(st.Size(), 1)
}

// sideOptions are the load options of a diff or merge side named file: within merge.SideLimits.
func sideOptions(opts serialize.LoadOptions, file string) serialize.LoadOptions {
	opts.File = file
	opts.Limits.MaxFileSize, opts.Limits.MaxEntities = merge.SideLimits.MaxFileSize, merge.SideLimits.MaxEntities
	return opts
}

// vcsLimitsHelp states the limits of diff and merge for their --help, with what.
func vcsLimitsHelp(what string) string {
	return fmt.Sprintf("Each scene is read within %s and %s entities, and\n%s (docs/limits.md).",
		words.Bytes(merge.SideLimits.MaxFileSize), words.Thousands(int64(merge.SideLimits.MaxEntities)), what)
}

// sideLimitsNote says, after a side refused for a limit, which limits diff and merge read each
// side within.
func sideLimitsNote(w io.Writer, err error) {
	if strings.Contains(err.Error(), "the limit of") {
		fmt.Fprintf(w, "(diff and merge read each side within %s and %s: see docs/limits.md)\n",
			words.Bytes(merge.SideLimits.MaxFileSize), words.Thousands(int64(merge.SideLimits.MaxEntities))+" entities")
	}
}

// isEmptyFile tells whether path is a regular file of 0 bytes (not git's /dev/null, which is a device).
func isEmptyFile(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.Mode().IsRegular() && st.Size() == 0
}

// isScene tells whether path holds a scene. A pipe can be read only once: it is taken for a scene
// (the reader says so if it is not one).
func isScene(path string) bool {
	if path == os.DevNull {
		return true
	}
	if st, err := os.Stat(path); err == nil && !st.Mode().IsRegular() {
		return true
	}
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer func() { _ = f.Close() }() // read only: closing loses nothing
	st, err := f.Stat()
	if err == nil && st.Size() == 0 {
		return true // an empty side (a file added on both branches has an empty base)
	}
	return serialize.IsScene(f)
}

func runDiff(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("diff", "[--json] A.json B.json\n       voltex-editor diff --git PATH OLD OLD-HEX OLD-MODE NEW NEW-HEX NEW-MODE",
		"Shows what changed from scene A to scene B, by entity, component and field: added and removed entities\n"+
			"(with names), renames, reparenting and sibling order, added and removed components, and changed fields\n"+
			"(Transform.position: [1, 0, 0] → [1, 2, 0]). Exit 0 if the scenes are the same, 1 if they differ, 2 on\n"+
			"trouble (like diff). With --git it is git's external diff driver (see 'voltex-editor git-setup'): it takes\n"+
			"git's seven arguments, prints a header, and exits 0 when it could compare (as git requires); files that are\n"+
			"not scenes (an empty file among them) are shown by 'git diff --no-index'. An empty file is an error (exit 2);\n"+
			"/dev/null is no scene: diff /dev/null B lists all of B as added.\n"+vcsLimitsHelp("at most "+words.Thousands(int64(merge.MaxChanges))+" changes are listed"))
	asJSON := fs.Bool("json", false, "print the changes as JSON: {\"changes\": [{\"op\", \"entity\", \"name\", \"path\", \"from\", \"to\"}, …]}")
	gitMode := fs.Bool("git", false, "act as git's external diff driver (seven arguments)")
	if code, ok := parseFlags(fs, args, stdout, stderr); !ok {
		return code
	}
	var aPath, bPath, label string
	switch {
	case *gitMode && fs.NArg() == 7:
		label, aPath, bPath = fs.Arg(0), fs.Arg(1), fs.Arg(4)
	case *gitMode:
		return usageError(fs, stderr, fmt.Sprintf("voltex-editor diff --git: git passes 7 arguments, got %d", fs.NArg()))
	case fs.NArg() == 2 && fs.Arg(0) == "-" && fs.Arg(1) == "-":
		return usageError(fs, stderr, "voltex-editor diff: standard input (-) can be one side only")
	case fs.NArg() == 2:
		aPath, bPath = fs.Arg(0), fs.Arg(1)
	default:
		return usageError(fs, stderr, "voltex-editor diff: need two scene files")
	}
	// An empty file is not a scene (diffed as one, it made the other side all added or removed); git passes
	// /dev/null, not an empty file, for a side that does not exist.
	if *gitMode {
		fmt.Fprintf(stdout, "diff --voltex a/%s b/%s\n", label, label)
		if !isScene(aPath) || !isScene(bPath) || isEmptyFile(aPath) || isEmptyFile(bPath) {
			return plainGitDiff(aPath, bPath, stdout, stderr)
		}
	} else {
		for _, p := range []string{aPath, bPath} {
			if isEmptyFile(p) {
				fmt.Fprintf(stderr, "%s: the file is empty: not a scene (to compare with no scene, give %s)\n", p, os.DevNull)
				return 2
			}
		}
	}
	opts, err := worlds.options(cmpOr(label, bPath), stderr)
	if err != nil { // printed by options
		return 2
	}
	// A side with a path the asset rule refuses (validate, export and the editor do) is still
	// compared, with a warning: diff writes nothing, and git shows history as it is.
	opts.Lossy = true
	names := [2]string{aPath, bPath}
	if *gitMode {
		names = [2]string{"a/" + label, "b/" + label}
	}
	// The sides, the changes and their text are kept to the end: no collections while they grow.
	defer holdCollector(sidesRoom(sideSize(aPath), sideSize(bPath)))()
	raws, errs := merge.ReadSides(func() (*serialize.RawScene, error) { return readSide(aPath, names[0], opts) },
		func() (*serialize.RawScene, error) { return readSide(bPath, names[1], opts) })
	for i, err := range errs {
		if err != nil {
			printProblems(stderr, names[i], err)
			sideLimitsNote(stderr, err)
			return 2
		}
	}
	a, b := raws[0], raws[1]
	for _, w := range append(a.Warnings, b.Warnings...) {
		fmt.Fprintln(stderr, w.String())
	}
	changes := merge.Diff(a, b)
	if len(changes) > merge.MaxChanges {
		changes = changes[:merge.MaxChanges]
		defer fmt.Fprintf(stderr, "voltex-editor diff: more than %s changes: only the first %s are shown\n",
			words.Thousands(int64(merge.MaxChanges)), words.Thousands(int64(merge.MaxChanges)))
	}
	if *asJSON {
		err = merge.WriteJSON(stdout, changes)
	} else {
		err = merge.WriteText(stdout, a, b, changes)
	}
	if err != nil {
		fmt.Fprintf(stderr, "voltex-editor diff: %v\n", err)
		return 2
	}
	if *gitMode {
		if len(changes) == 0 {
			fmt.Fprintln(stdout, "(the same scene; only the formatting differs)")
		}
		return 0
	}
	if len(changes) > 0 {
		return 1
	}
	return 0
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// plainGitDiff shows two files that are not scenes as git does.
func plainGitDiff(a, b string, stdout, stderr io.Writer) int {
	cmd := exec.Command("git", "diff", "--no-index", "--no-ext-diff", "--", a, b)
	cmd.Stdout, cmd.Stderr = stdout, stderr
	err := cmd.Run()
	var ee *exec.ExitError
	if err == nil || (errors.As(err, &ee) && ee.ExitCode() == 1) {
		return 0
	}
	fmt.Fprintf(stderr, "voltex-editor diff: git diff: %v\n", err)
	return 2
}

func runMerge(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("merge", "BASE OURS THEIRS -o OUT [--path NAME]",
		"Three-way merge of scene files by entity, component and field (git's merge driver: see 'voltex-editor\n"+
			"git-setup'). Changes made on one side are taken, the same change on both sides once; a value changed two\n"+
			"ways is a conflict: OUT keeps ours and records base, ours and theirs in the entity (a MergeConflicts\n"+
			"component; the scene name's in the editor section), so OUT is a valid scene that the editor opens to\n"+
			"resolve them, and 'validate' fails until they are resolved. An entity deleted on one side and changed\n"+
			"on the other is kept, with a conflict. OUT is loaded (with its prefabs) before it is written: merge\n"+
			"never writes a scene that does not load. One side may be - (standard input).\n"+
			"Exit 0: merged cleanly; 1: merged with conflicts (listed on stderr); 2: trouble (OUT is not written),\n"+
			"such as a side that is not a scene or holds conflict markers (<<<<<<<) from a merge of lines.\n"+
			vcsLimitsHelp("more than "+words.Thousands(int64(merge.MaxConflicts))+" conflicts is trouble")+"\n"+
			"When no side is a scene, the files are merged by 'git merge-file' (conflict markers, exit 1 on conflicts).")
	out := fs.String("o", "", "output file (required; may be OURS, as git's %A)")
	path := fs.String("path", "", "the file's path in the repository (git's %P), for messages and to find the project file and prefabs")
	if code, ok := parseFlags(fs, args, stdout, stderr); !ok {
		return code
	}
	if fs.NArg() != 3 || *out == "" {
		return usageError(fs, stderr, "voltex-editor merge: need BASE OURS THEIRS and -o OUT")
	}
	if n := slices.Index(fs.Args(), "-"); n >= 0 && slices.Contains(fs.Args()[n+1:], "-") {
		return usageError(fs, stderr, "voltex-editor merge: standard input (-) can be one side only")
	}
	name := cmpOr(*path, *out)
	var sides [3]*mergeSide
	defer func() {
		for _, sd := range sides {
			if sd != nil {
				sd.close()
			}
		}
	}()
	for i, p := range fs.Args() {
		sd, err := openSide(p, []string{"base", "ours", "theirs"}[i], *path)
		if err != nil {
			fmt.Fprintf(stderr, "voltex-editor merge: cannot read %s (%s); nothing was written: %v\n", sd.label, p, err)
			return 2
		}
		sides[i] = sd
	}
	if !slices.ContainsFunc(sides[:], func(sd *mergeSide) bool { return sd.kind == sideScene || sd.kind == sideMarked }) {
		for _, sd := range sides {
			if sd.in != nil && sd.in.Size() == 0 && sd.kind != sideEmpty { // a stream: what was read of it is gone
				fmt.Fprintf(stderr, "voltex-editor merge: %s (%s) is not a scene, and files that are not scenes are merged by "+
					"git merge-file, which reads files: give it a file; nothing was written\n", sd.label, sd.path)
				return 2
			}
		}
		return mergeFile(sides[0].path, sides[1].path, sides[2].path, *out, name, stderr)
	}
	opts, err := worlds.options(name, stderr)
	if err != nil { // printed by options
		return 2
	}
	read := func(sd *mergeSide) func() (*serialize.RawScene, error) {
		return func() (*serialize.RawScene, error) {
			defer sd.close()
			return sd.read(opts)
		}
	}
	// The sides and the merged scene are kept until it is written: no collections while they grow.
	var sizes []int64
	for _, sd := range sides {
		if sd.kind != sideEmpty {
			sizes = append(sizes, sd.in.Size())
		}
	}
	release := holdCollector(sidesRoom(sizes...))
	defer release()
	raws, errs := merge.ReadSides(read(sides[0]), read(sides[1]), read(sides[2]))
	for i, err := range errs {
		if sd := sides[i]; err != nil {
			fmt.Fprintf(stderr, "voltex-editor merge: cannot read %s (%s); nothing was written:\n", sd.label, sd.path)
			printProblems(stderr, sd.file, err)
			markerNote(stderr, err)
			sideLimitsNote(stderr, err)
			return 2
		}
	}
	res := merge.Merge(raws[0], raws[1], raws[2])
	if res.TooManyConflicts {
		fmt.Fprintf(stderr, "voltex-editor merge: %s: the sides conflict in more than %s values (the limit of merge); "+
			"nothing was written: merge this file by hand\n", name, words.Thousands(int64(merge.MaxConflicts)))
		return 2
	}
	if res.Unmergeable != "" {
		fmt.Fprintf(stderr, "voltex-editor merge: %s: %s; nothing was written: merge this file by hand\n", name, res.Unmergeable)
		return 2
	}
	// Streamed to the file (atomically: OUT may be OURS): the merged scene is not held twice. The
	// file is loaded before it takes OUT's place, with the sides and the merged scene let go.
	err = atomicfile.ReplaceFileFunc(*out, func(w io.Writer) error {
		bw := bufio.NewWriterSize(w, 1<<20)
		if err := serialize.WriteRaw(context.Background(), bw, res.Scene); err != nil {
			return err
		}
		if err := bw.Flush(); err != nil {
			return err
		}
		f, ok := w.(interface{ Name() string })
		if !ok {
			return errors.New("the merged scene cannot be read back to check it")
		}
		raws, res.Scene = nil, nil
		release()
		runtime.GC()
		return checkMerged(f.Name(), name, opts)
	})
	var bad *mergedError
	switch {
	case errors.As(err, &bad):
		fmt.Fprintf(stderr, "voltex-editor merge: %s: the merged scene does not load, so nothing was written (merge this "+
			"file by hand):\n", name)
		printProblems(stderr, name+" (merged)", bad.err)
		return 2
	case err != nil:
		fmt.Fprintf(stderr, "voltex-editor merge: %v\n", err)
		return 2
	}
	if len(res.Conflicts) == 0 {
		return 0
	}
	fmt.Fprintf(stderr, "voltex-editor merge: %s: %d %s, recorded in the file; open it in the editor to resolve:\n",
		name, len(res.Conflicts), pluralWord(len(res.Conflicts), "conflict", "conflicts"))
	for _, c := range res.Conflicts {
		where := "scene"
		if c.Entity != 0 {
			where = fmt.Sprintf("entity %d", c.Entity)
			if c.Name != "" {
				where += fmt.Sprintf(" %q", c.Name)
			}
		}
		fmt.Fprintf(stderr, "  %s: %s: ours %s, theirs %s (base %s)\n", where, c.Path, orAbsent(c.Ours), orAbsent(c.Theirs), orAbsent(c.Base))
	}
	return 1
}

// sideKind is what one side of a merge holds.
type sideKind int

const (
	sideEmpty  sideKind = iota // missing (git's /dev/null) or empty: an empty scene, or an empty file
	sideScene                  // a scene (or unreadable: the scene reader says what is wrong)
	sideOther                  // a file that is not a scene
	sideMarked                 // a scene wrapped in conflict markers (<<<<<<< … >>>>>>>) by a merge of lines
)

// mergeSide is one side of a merge, opened once (a pipe or standard input can be read only once):
// what it is is told from its first bytes, which are kept for the reader.
type mergeSide struct {
	path, label string
	file        string // the name problems are reported under
	in          *serialize.Input
	kind        sideKind
	markers     bool // it starts with a conflict marker (also when what follows is not a scene)
}

// openSide opens the side at path ("-": standard input) and tells what it holds.
func openSide(path, label, repoPath string) (*mergeSide, error) {
	sd := &mergeSide{path: path, label: label, file: path}
	switch {
	case repoPath != "":
		sd.file = repoPath + " (" + label + ")"
	case path == "-":
		sd.file = serialize.StdinName + " (" + label + ")"
	}
	if path == os.DevNull {
		return sd, nil
	}
	in, err := serialize.OpenInput(path)
	if err != nil {
		return sd, err
	}
	sd.in = in
	head := bytes.TrimLeft(bytes.TrimPrefix(in.Peek(64<<10), []byte{0xEF, 0xBB, 0xBF}), " \t\r\n") // a UTF-8 byte order mark, then space
	switch {
	case len(head) == 0:
		sd.kind = sideEmpty
	case bytes.HasPrefix(head, []byte("<<<<<<<")):
		sd.kind, sd.markers = sideOther, true
		if _, rest, ok := bytes.Cut(head, []byte("\n")); ok && serialize.IsScene(bytes.NewReader(rest)) {
			sd.kind = sideMarked
		}
	case in.IsScene():
		sd.kind = sideScene
	default:
		sd.kind = sideOther
	}
	return sd, nil
}

func (sd *mergeSide) close() {
	if sd.in != nil {
		_ = sd.in.Close() // read only
		sd.in = nil
	}
}

// read reads the side as a scene, within the limits of diff and merge.
func (sd *mergeSide) read(opts serialize.LoadOptions) (*serialize.RawScene, error) {
	switch sd.kind {
	case sideEmpty:
		return &serialize.RawScene{}, nil
	case sideOther:
		if !sd.markers {
			return nil, fmt.Errorf("not a scene (the other sides are): merge it by hand")
		}
		fallthrough
	case sideMarked:
		return nil, fmt.Errorf("a scene with conflict markers (<<<<<<< at its top) left by a merge of lines: " +
			"resolve them in that file first (or take one side: git checkout --ours/--theirs)")
	}
	return serialize.ReadRaw(context.Background(), sd.in, sideOptions(opts, sd.file))
}

// markerNote says, after a side refused at a '<' at the start of a line, that it is most likely
// a conflict marker left by a merge of lines.
func markerNote(w io.Writer, err error) {
	var se *serialize.Error
	if errors.As(err, &se) && slices.ContainsFunc(se.Problems, func(p serialize.Problem) bool {
		return p.Col == 1 && strings.HasPrefix(p.Msg, "unexpected '<'")
	}) {
		fmt.Fprintln(w, "(a line starting with <<<<<<< is a conflict marker left by a merge of lines: resolve the markers "+
			"in that file first)")
	}
}

// mergedError is a merged scene that does not load.
type mergedError struct{ err error }

func (e *mergedError) Error() string { return e.err.Error() }

// checkMerged loads the merged scene written to tmp as the editor opens it — prefabs resolved
// (relative to the folder of name, the file's path), component values against their types,
// conflicts allowed — keeping nothing.
func checkMerged(tmp, name string, opts serialize.LoadOptions) error {
	opts.File, opts.Dir = name+" (merged)", filepath.Dir(name)
	opts.KeepBroken = true // a prefab missing from the work tree (the merge may bring it) is not the merge's
	opts.CheckAsset = nil  // nor is a missing asset
	opts.Prefabs = prefabsFor(opts)
	if _, err := serialize.LoadFile(context.Background(), tmp, opts); err != nil {
		return &mergedError{err}
	}
	return nil
}

func pluralWord(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func orAbsent(s string) string {
	if s == "" {
		return "(absent)"
	}
	return s
}

// mergeFile merges files that are not scenes with git merge-file, as git would have.
func mergeFile(base, ours, theirs, out, name string, stderr io.Writer) int {
	cmd := exec.Command("git", "merge-file", "-p", "-L", name+" (ours)", "-L", name+" (base)", "-L", name+" (theirs)", ours, base, theirs)
	var res bytes.Buffer
	cmd.Stdout, cmd.Stderr = &res, stderr
	err := cmd.Run()
	var ee *exec.ExitError
	conflicts := errors.As(err, &ee) && ee.ExitCode() > 0 && ee.ExitCode() < 128
	if err != nil && !conflicts {
		fmt.Fprintf(stderr, "voltex-editor merge: %s is not a scene, and git merge-file failed: %v\n", name, err)
		return 2
	}
	if err := atomicfile.ReplaceFile(out, res.Bytes()); err != nil {
		fmt.Fprintf(stderr, "voltex-editor merge: %v\n", err)
		return 2
	}
	if conflicts {
		return 1
	}
	return 0
}

func runGitSetup(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("git-setup", "[--global] [--pattern GLOB]... [DIR]",
		"Makes git merge and diff scene files with voltex-editor: adds 'PATTERN merge=voltex diff=voltex' lines to\n"+
			"the repository's .gitattributes (in DIR's work tree, default the current one) and sets merge.voltex.driver\n"+
			"and diff.voltex.command in its .git/config to this program. With --global, for every repository of the\n"+
			"user instead (git config --global, and the global attributes file). Running it again changes nothing.\n"+
			"Files matching the pattern that are not scenes are merged and shown as git would (git merge-file,\n"+
			"git diff), so the default pattern *.json is safe. It also adds PATTERN.bak (*.json.bak) to the\n"+
			"repository's .gitignore (with --global, git's global ignore file): the previous version that each save\n"+
			"keeps beside a scene.")
	global := fs.Bool("global", false, "set up git for all the user's repositories")
	var patterns multiFlag
	fs.Var(&patterns, "pattern", "gitattributes pattern of scene files (repeatable; default *.json)")
	if code, ok := parseFlags(fs, args, stdout, stderr); !ok {
		return code
	}
	if fs.NArg() > 1 || (*global && fs.NArg() == 1) {
		return usageError(fs, stderr, "voltex-editor git-setup: at most one folder (and none with --global)")
	}
	if len(patterns) == 0 {
		patterns = multiFlag{"*.json"}
	}
	exe, err := os.Executable()
	if err == nil {
		exe, err = filepath.EvalSymlinks(exe)
	}
	if err != nil {
		fmt.Fprintf(stderr, "voltex-editor git-setup: cannot find this program's path: %v\n", err)
		return 1
	}
	dir := "."
	if fs.NArg() == 1 {
		dir = fs.Arg(0)
	}
	git := func(args ...string) (string, error) {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		var o, e bytes.Buffer
		cmd.Stdout, cmd.Stderr = &o, &e
		if err := cmd.Run(); err != nil {
			return "", fmt.Errorf("git %s: %v: %s", strings.Join(args, " "), err, strings.TrimSpace(e.String()))
		}
		return strings.TrimSpace(o.String()), nil
	}
	scope := "--local"
	var attrFile, ignoreFile string
	if *global {
		scope = "--global"
		attrFile, _ = git("config", "--global", "--path", "core.attributesFile")
		ignoreFile, _ = git("config", "--global", "--path", "core.excludesFile")
		if attrFile == "" || ignoreFile == "" {
			cfg := os.Getenv("XDG_CONFIG_HOME")
			if cfg == "" {
				home, err := os.UserHomeDir()
				if err != nil {
					fmt.Fprintf(stderr, "voltex-editor git-setup: %v\n", err)
					return 1
				}
				cfg = filepath.Join(home, ".config")
			}
			attrFile = cmpOr(attrFile, filepath.Join(cfg, "git", "attributes"))
			ignoreFile = cmpOr(ignoreFile, filepath.Join(cfg, "git", "ignore"))
		}
	} else {
		top, err := git("rev-parse", "--show-toplevel")
		if err != nil {
			fmt.Fprintf(stderr, "voltex-editor git-setup: %s is not in a git work tree (run 'git init' first, or use --global): %v\n", dir, err)
			return 1
		}
		attrFile, ignoreFile = filepath.Join(top, ".gitattributes"), filepath.Join(top, ".gitignore")
	}
	q := shellQuote(exe)
	settings := [][2]string{
		{"merge.voltex.name", "Voltex scene merge (voltex-editor merge)"},
		{"merge.voltex.driver", q + " merge %O %A %B -o %A --path %P"},
		{"diff.voltex.command", q + " diff --git"},
	}
	for _, kv := range settings {
		if _, err := git("config", scope, kv[0], kv[1]); err != nil {
			fmt.Fprintf(stderr, "voltex-editor git-setup: %v\n", err)
			return 1
		}
		fmt.Fprintf(stdout, "git config %s %s %q\n", scope, kv[0], kv[1])
	}
	var attrs, backups []string
	for _, p := range patterns {
		attrs = append(attrs, p+" merge=voltex diff=voltex")
		backups = append(backups, p+".bak")
	}
	for _, f := range []struct {
		file, header string
		lines        []string
	}{
		{attrFile, "# Voltex scenes: merged and diffed by entity, component and field (voltex-editor git-setup)", attrs},
		{ignoreFile, "# Voltex editor: the previous version each save keeps beside a scene (voltex-editor git-setup)", backups},
	} {
		added, err := addLines(f.file, f.lines, f.header)
		if err != nil {
			fmt.Fprintf(stderr, "voltex-editor git-setup: %v\n", err)
			return 1
		}
		for _, l := range added {
			fmt.Fprintf(stdout, "%s: added %q\n", f.file, l)
		}
		if len(added) == 0 {
			fmt.Fprintf(stdout, "%s: already set up\n", f.file)
		}
	}
	if !*global {
		fmt.Fprintf(stdout, "Commit .gitattributes and .gitignore so that clones know which files are scenes; each clone runs 'voltex-editor git-setup' once.\n")
	}
	return 0
}

// addLines appends each of lines that file lacks, after header (unless file has it), creating the
// file (and its folder) if needed; it returns the lines added.
func addLines(file string, lines []string, header string) ([]string, error) {
	old, err := readGitFile(file)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	have := map[string]bool{}
	for _, l := range strings.Split(string(bytes.TrimPrefix(old, []byte{0xEF, 0xBB, 0xBF})), "\n") { // git skips a byte order mark
		have[strings.Join(strings.Fields(l), " ")] = true
	}
	var added []string
	for _, l := range lines {
		if !have[l] {
			added = append(added, l)
			have[l] = true
		}
	}
	if len(added) == 0 {
		return nil, nil
	}
	text := string(old)
	if text != "" && !strings.HasSuffix(text, "\n") {
		text += "\n"
	}
	if !strings.Contains(text, header) {
		text += header + "\n"
	}
	text += strings.Join(added, "\n") + "\n"
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		return nil, err
	}
	return added, atomicfile.ReplaceFile(file, []byte(text))
}

// maxAttributesSize bounds the attributes and ignore files git-setup reads (git ignores bigger ones too).
const maxAttributesSize = 100 << 20

// readGitFile reads an attributes or ignore file: a regular file (a named pipe would block the read) of
// at most maxAttributesSize bytes.
func readGitFile(file string) ([]byte, error) {
	st, err := os.Stat(file)
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file (%s)", file, st.Mode().Type())
	}
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer func() { _ = f.Close() }() // read only: closing loses nothing
	data, err := io.ReadAll(io.LimitReader(f, maxAttributesSize+1))
	if err == nil && len(data) > maxAttributesSize {
		err = fmt.Errorf("%s is larger than the limit of %s", file, words.Bytes(maxAttributesSize))
	}
	return data, err
}

// shellQuote quotes s for the POSIX shell git runs drivers with.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// multiFlag is a repeatable string flag.
type multiFlag []string

func (m *multiFlag) String() string     { return strings.Join(*m, ",") }
func (m *multiFlag) Set(v string) error { *m = append(*m, v); return nil }
