package editor

import "github.com/AllenDang/cimgui-go/imgui"

// cimgui-go's imgui.Text, TextDisabled, TextColored, TextWrapped and SetTooltip pass their argument to ImGui as a
// printf format: a '%' in a file name, entity name or message would be read as a conversion (a scene file named
// "100%s.json" crashed the editor). These helpers draw any string as it is. Use them for every text that is not a
// literal.

// text draws s as it is.
func text(s string) { imgui.TextUnformatted(s) }

// textDisabled draws s in the theme's disabled colour.
func textDisabled(s string) {
	imgui.PushStyleColorVec4(imgui.ColText, *imgui.StyleColorVec4(imgui.ColTextDisabled))
	imgui.TextUnformatted(s)
	imgui.PopStyleColor()
}

// textColored draws s in colour c.
func textColored(c imgui.Vec4, s string) {
	imgui.PushStyleColorVec4(imgui.ColText, c)
	imgui.TextUnformatted(s)
	imgui.PopStyleColor()
}

// textWrapped draws s in colour c, wrapped at the right edge of the window.
func textWrapped(c imgui.Vec4, s string) {
	imgui.PushStyleColorVec4(imgui.ColText, c)
	imgui.PushTextWrapPos()
	imgui.TextUnformatted(s)
	imgui.PopTextWrapPos()
	imgui.PopStyleColor()
}

// tooltip shows s in a tooltip.
func tooltip(s string) {
	if imgui.BeginTooltip() {
		imgui.TextUnformatted(s)
		imgui.EndTooltip()
	}
}

// errorColor is the colour of error texts.
var errorColor = imgui.Vec4{X: 1, Y: 0.45, Z: 0.4, W: 1}
