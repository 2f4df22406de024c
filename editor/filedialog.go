package editor

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/AllenDang/cimgui-go/imgui"

	"github.com/voltex-editor/voltex/editor/filedialog"
)

// fileDialog shows a filedialog.Dialog as a modal popup. When the user confirms, onChoose gets the path.
type fileDialog struct {
	d           *filedialog.Dialog
	places      []string
	placeLabels []string // the places' names: base names, with parents where two are alike
	onChoose    func(path string)
	open        bool
	opened      bool
	focusName   bool
	confirming  string // path waiting for overwrite confirmation
	selected    int
	okLabel     string // the confirm button ("Open", "Save", "Export")
}

func newFileDialog(mode filedialog.Mode, title, dir string, places []string, onChoose func(string), exts ...string) *fileDialog {
	d := filedialog.New(mode, title, dir, exts...)
	if home, err := os.UserHomeDir(); err == nil && filepath.IsAbs(home) {
		d.Home = filepath.Clean(home)
	}
	return &fileDialog{
		d:        d,
		places:   places,
		onChoose: onChoose,
		open:     true,
		selected: -1,
	}
}

// name is the popup's ImGui id.
func (f *fileDialog) name() string { return f.d.Title + "###filedialog" }

// build draws the dialog; it returns false once the dialog is finished (chosen or cancelled).
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

	// Breadcrumbs and Up.
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

	footer := imgui.FrameHeightWithSpacing()*3 + 8
	avail := imgui.ContentRegionAvail()
	// Recent places.
	if imgui.BeginChildStrV("##places", imgui.Vec2{X: 190, Y: avail.Y - footer}, imgui.ChildFlagsBorders, 0) {
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
	imgui.SameLine()
	// Listing.
	if imgui.BeginChildStrV("##listing", imgui.Vec2{X: 0, Y: avail.Y - footer}, imgui.ChildFlagsBorders, 0) {
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

	// Name, filter, buttons.
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
	ok := f.okLabel
	if ok == "" {
		ok = "Open"
		if f.d.Mode == filedialog.Save {
			ok = "Save"
		}
	}
	if imgui.ButtonV(ok, imgui.Vec2{X: 100}) {
		f.choose()
	}
	imgui.SameLine()
	if imgui.ButtonV("Cancel", imgui.Vec2{X: 100}) {
		f.close()
	}

	// Overwrite confirmation.
	if f.confirming != "" {
		imgui.OpenPopupStr("Replace file?###overwrite")
	}
	if imgui.BeginPopupModalV("Replace file?###overwrite", nil, imgui.WindowFlagsAlwaysAutoResize) {
		text(registerText(filepath.Base(f.confirming)) + " already exists.\nDo you want to replace it?")
		keys := !imgui.IsWindowAppearing() // the Enter that asked must not also answer
		if imgui.ButtonV("Replace", imgui.Vec2{X: 100}) || keys && imgui.IsKeyPressedBool(imgui.KeyEnter) {
			p := f.confirming
			f.confirming = ""
			imgui.CloseCurrentPopup()
			imgui.EndPopup()
			f.finish(p)
			return false
		}
		imgui.SameLine()
		if imgui.ButtonV("Cancel", imgui.Vec2{X: 100}) || keys && imgui.IsKeyPressedBool(imgui.KeyEscape) {
			f.confirming = ""
			imgui.CloseCurrentPopup()
		}
		imgui.EndPopup()
	}
	return f.open
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
	if f.onChoose != nil {
		f.onChoose(path)
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
