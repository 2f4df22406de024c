package editor

import (
	"os"

	"github.com/AllenDang/cimgui-go/imgui"
	g "github.com/AllenDang/giu"

	"github.com/voltex-editor/voltex/editor/workspace"
)

// attachTitle is the title of File → Attach to Game's dialog.
const attachTitle = "Attach to Game"

// attachDialog asks the address and token of a game's live link (what the game printed: "live: ADDR token
// TOKEN"); Attach (Enter) connects, Cancel (Escape) closes it.
type attachDialog struct {
	addr, token string
	attach      func(addr, token string)
	opened      bool
	done        bool
}

var _ g.Widget = (*attachDialog)(nil)

// newAttachDialog starts at 127.0.0.1 (the game's port to be typed) and the token of workspace.LiveTokenEnv.
func newAttachDialog(attach func(addr, token string)) *attachDialog {
	return &attachDialog{addr: "127.0.0.1:", token: os.Getenv(workspace.LiveTokenEnv), attach: attach}
}

// Build draws the dialog.
func (a *attachDialog) Build() {
	if a.done {
		return
	}
	if !beginModal(attachTitle+"###attach", &a.opened, imgui.Vec2{}) {
		return
	}
	text("The game prints its address and token: live: ADDRESS token TOKEN")
	if imgui.IsWindowAppearing() {
		imgui.SetKeyboardFocusHere()
	}
	imgui.SetNextItemWidth(320)
	imgui.InputTextWithHint("Address##attachaddr", "127.0.0.1:PORT or unix:PATH", &a.addr, 0, nil)
	imgui.SetNextItemWidth(320)
	imgui.InputTextWithHint("Token##attachtoken", "the token the game printed", &a.token, 0, nil)
	ok := imgui.ButtonV("Attach", imgui.Vec2{X: 110})
	imgui.SameLine()
	cancel := imgui.ButtonV("Cancel", imgui.Vec2{X: 110})
	if !imgui.IsWindowAppearing() {
		ok = ok || imgui.IsKeyPressedBool(imgui.KeyEnter) || imgui.IsKeyPressedBool(imgui.KeyKeypadEnter)
		cancel = cancel || imgui.IsKeyPressedBool(imgui.KeyEscape)
	}
	if ok || cancel {
		imgui.CloseCurrentPopup()
		a.done = true
	}
	imgui.EndPopup()
	if ok {
		a.attach(a.addr, a.token)
	}
}
