package editor

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/AllenDang/cimgui-go/imgui"
	g "github.com/AllenDang/giu"

	"github.com/voltex-editor/voltex/editor/filedialog"
	"github.com/voltex-editor/voltex/editor/workspace"
)

// fileDialog shows a filedialog.Dialog (the pure model: listing, breadcrumbs, what a name means) as a modal popup:
// breadcrumbs and Up, the recent places, the listing, the name field, and a question before a file is replaced.
// When the user confirms, the request's onChoose gets the path; closed without one, its onCancel runs.
type fileDialog struct {
	d           *filedialog.Dialog
	req         workspace.FileRequest
	places      []string
	placeLabels []string // the places' names: base names, with parents where two are alike
	open        bool
	opened      bool
	finished    bool // chosen or cancelled: done
	chosen      bool
	focusName   bool
	confirming  string // path waiting for overwrite confirmation
	selected    int
}

var _ g.Widget = (*fileDialog)(nil)

func newFileDialog(req workspace.FileRequest, places []string) *fileDialog {
	mode := filedialog.Open
	if req.Save {
		mode = filedialog.Save
	}
	d := filedialog.New(mode, req.Title, req.Dir, req.Exts...)
	if home, err := os.UserHomeDir(); err == nil && filepath.IsAbs(home) {
		d.Home = filepath.Clean(home)
	}
	if req.Name != "" {
		d.Name = req.Name
	}
	return &fileDialog{d: d, req: req, places: places, open: true, selected: -1}
}

// name is the popup's ImGui id.
func (f *fileDialog) name() string { return f.d.Title + "###filedialog" }

// done reports whether the dialog is finished (a path chosen, or closed without one).
func (f *fileDialog) done() bool { return f.finished }

// okLabel is the confirm button's label.
func (f *fileDialog) okLabel() string {
	switch {
	case f.req.OKLabel != "":
		return f.req.OKLabel
	case f.d.Mode == filedialog.Save:
		return "Save"
	}
	return "Open"
}

// Build draws the dialog until it is finished.
func (f *fileDialog) Build() {
	if f.finished {
		return
	}
	if !f.build() {
		f.finished = true
		if !f.chosen && f.req.OnCancel != nil {
			f.req.OnCancel()
		}
	}
}

// build draws the dialog; it returns false once it is finished (chosen or cancelled).
func (f *fileDialog) build() bool {
	if !f.open {
		return false
	}
	if !f.opened {
		imgui.OpenPopupStr(f.name())
		f.opened = true
		f.focusName = true
	}
	vp := imgui.MainViewport()
	imgui.SetNextWindowSizeV(imgui.Vec2{X: 820, Y: 520}, imgui.CondAppearing)
	imgui.SetNextWindowPosV(vp.Center(), imgui.CondAppearing, imgui.Vec2{X: 0.5, Y: 0.5})
	if !imgui.BeginPopupModalV(f.name(), &f.open, 0) {
		f.open = false
		return false
	}
	defer imgui.EndPopup()

	if imgui.IsKeyPressedBool(imgui.KeyEscape) && f.confirming == "" {
		f.close()
		return false
	}
	f.buildBreadcrumbs()
	footer := imgui.FrameHeightWithSpacing()*3 + 8
	avail := imgui.ContentRegionAvail()
	f.buildPlaces(avail.Y - footer)
	imgui.SameLine()
	f.buildListing(avail.Y - footer)
	f.buildFooter()
	if f.buildOverwrite() {
		return false
	}
	return f.open
}

// buildBreadcrumbs draws Up and the folders of the path down to the current one, each a button.
func (f *fileDialog) buildBreadcrumbs() {
	if imgui.ArrowButton("##up", imgui.DirUp) {
		_ = f.d.Up()
		f.selected = -1
	}
	for i, c := range f.d.Breadcrumbs() {
		imgui.SameLine()
		if i > 0 {
			imgui.TextDisabled("/")
			imgui.SameLine()
		}
		if imgui.SmallButton(c[0] + "##crumb" + fmt.Sprint(i)) {
			_ = f.d.Chdir(c[1])
			f.selected = -1
		}
	}
}

// buildPlaces draws the recent places on the left.
func (f *fileDialog) buildPlaces(h float32) {
	if imgui.BeginChildStrV("##places", imgui.Vec2{X: 190, Y: h}, imgui.ChildFlagsBorders, 0) {
		imgui.TextDisabled("Recent places")
		if len(f.placeLabels) != len(f.places) {
			f.placeLabels = filedialog.PlaceLabels(f.places)
		}
		for i, p := range f.places {
			if imgui.SelectableBool(registerText(f.placeLabels[i]) + "##place" + strconv.Itoa(i)) {
				_ = f.d.Chdir(p)
				f.selected = -1
			}
			if imgui.IsItemHovered() {
				tooltip(registerText(p))
			}
		}
	}
	imgui.EndChild()
}

// buildListing draws the folder's entries: a click selects (a file's name goes into the name field), a
// double-click opens a folder or chooses a file.
func (f *fileDialog) buildListing(h float32) {
	if imgui.BeginChildStrV("##listing", imgui.Vec2{X: 0, Y: h}, imgui.ChildFlagsBorders, 0) {
		for i, e := range f.d.Entries {
			label := registerText(e.Name)
			if e.IsDir {
				label = "[dir] " + e.Name
			}
			if imgui.SelectableBoolV(label+"##e"+fmt.Sprint(i), f.selected == i, imgui.SelectableFlagsAllowDoubleClick, imgui.Vec2{}) {
				f.selected = i
				if !e.IsDir {
					f.d.Name = e.Name
				}
				if imgui.IsMouseDoubleClicked(imgui.MouseButtonLeft) {
					if f.d.Activate(e) {
						f.choose()
					}
					f.selected = -1
					break
				}
			}
			if !e.IsDir {
				imgui.SameLine()
				imgui.SetCursorPosX(imgui.WindowWidth() - 110)
				textDisabled(humanSize(e.Size))
			}
		}
		if len(f.d.Entries) == 0 {
			imgui.TextDisabled("(no matching files)")
		}
	}
	imgui.EndChild()
}

// buildFooter draws the name field (Enter chooses), the filter, the folder or the error, and the buttons.
func (f *fileDialog) buildFooter() {
	imgui.Text("Name")
	imgui.SameLine()
	imgui.SetNextItemWidth(-200)
	if f.focusName {
		imgui.SetKeyboardFocusHere()
		f.focusName = false
	}
	if imgui.InputTextWithHint("##name", "file name or path", &f.d.Name, imgui.InputTextFlagsEnterReturnsTrue, nil) {
		f.choose()
	}
	imgui.SameLine()
	filter := "all files"
	if len(f.d.Exts) > 0 {
		filter = "*" + strings.Join(f.d.Exts, ", *")
	}
	textDisabled(filter)
	if f.d.Err != "" {
		textColored(errorColor, registerText(f.d.Err))
	} else {
		textDisabled(registerText(f.d.DisplayDir()))
	}
	if imgui.ButtonV(f.okLabel(), imgui.Vec2{X: 100}) {
		f.choose()
	}
	imgui.SameLine()
	if imgui.ButtonV("Cancel", imgui.Vec2{X: 100}) {
		f.close()
	}
}

// buildOverwrite asks before a chosen file is replaced; it returns true when the user said Replace (the dialog is
// finished).
func (f *fileDialog) buildOverwrite() bool {
	if f.confirming != "" {
		imgui.OpenPopupStr("Replace file?###overwrite")
	}
	if !imgui.BeginPopupModalV("Replace file?###overwrite", nil, imgui.WindowFlagsAlwaysAutoResize) {
		return false
	}
	text(registerText(filepath.Base(f.confirming)) + " already exists.\nDo you want to replace it?")
	keys := !imgui.IsWindowAppearing() // the Enter that asked must not also answer
	if imgui.ButtonV("Replace", imgui.Vec2{X: 100}) || keys && imgui.IsKeyPressedBool(imgui.KeyEnter) {
		p := f.confirming
		f.confirming = ""
		imgui.CloseCurrentPopup()
		imgui.EndPopup()
		f.finish(p)
		return true
	}
	imgui.SameLine()
	if imgui.ButtonV("Cancel", imgui.Vec2{X: 100}) || keys && imgui.IsKeyPressedBool(imgui.KeyEscape) {
		f.confirming = ""
		imgui.CloseCurrentPopup()
	}
	imgui.EndPopup()
	return false
}

func (f *fileDialog) choose() {
	c, ok := f.d.Choose()
	if !ok {
		f.focusName = true
		return
	}
	if c.NeedsOverwriteConfirm {
		f.confirming = c.Path
		return
	}
	f.finish(c.Path)
}

func (f *fileDialog) finish(path string) {
	f.close()
	f.chosen = true
	if f.req.OnChoose != nil {
		f.req.OnChoose(path)
	}
}

func (f *fileDialog) close() {
	f.open = false
	imgui.CloseCurrentPopup()
}

func humanSize(n int64) string {
	switch {
	case n < 1024:
		return fmt.Sprintf("%d B", n)
	case n < 1024*1024:
		return fmt.Sprintf("%.1f KB", float64(n)/1024)
	default:
		return fmt.Sprintf("%.1f MB", float64(n)/(1024*1024))
	}
}
