package editor

import (
	"fmt"
	"strings"
	"time"

	"github.com/AllenDang/cimgui-go/imgui"
)

// Level is the severity of a console message.
type Level uint8

// Console levels, in increasing severity.
const (
	LevelInfo Level = iota
	LevelWarn
	LevelError
)

// String names the level ("info", "warning", "error").
func (l Level) String() string {
	switch l {
	case LevelWarn:
		return "warning"
	case LevelError:
		return "error"
	}
	return "info"
}

// Message is one line of the console.
type Message struct {
	Time  time.Time
	Level Level
	Text  string
	line  string // as the panel shows it: "15:04:05  text"
}

// Console is the editor's log: the last max messages (the oldest is dropped when a new one comes), shown in the
// Console panel with level toggles and a text filter.
type Console struct {
	added  int // messages added since the start (also those dropped since)
	msgs   []Message
	max    int
	filter string
	show   [3]bool
	scroll bool
}

// NewConsole returns a console that keeps at most limit messages.
func NewConsole(limit int) *Console {
	return &Console{max: limit, show: [3]bool{true, true, true}}
}

// Add appends a message, dropping the oldest when full.
func (c *Console) Add(l Level, text string) {
	if len(c.msgs) == c.max {
		copy(c.msgs, c.msgs[1:])
		c.msgs = c.msgs[:len(c.msgs)-1]
	}
	now := time.Now()
	c.msgs = append(c.msgs, Message{Time: now, Level: l, Text: registerText(text), line: now.Format("15:04:05") + "  " + text})
	c.added++
	c.scroll = true
}

// Infof logs an informational message.
func (c *Console) Infof(format string, args ...any) { c.Add(LevelInfo, fmt.Sprintf(format, args...)) }

// Warnf logs a warning.
func (c *Console) Warnf(format string, args ...any) { c.Add(LevelWarn, fmt.Sprintf(format, args...)) }

// Errorf logs an error.
func (c *Console) Errorf(format string, args ...any) { c.Add(LevelError, fmt.Sprintf(format, args...)) }

// Added counts the messages added so far (a change counter for the UI).
func (c *Console) Added() int { return c.added }

// Messages returns the messages currently kept, oldest first.
func (c *Console) Messages() []Message { return c.msgs }

// Counts returns how many messages of each level are kept.
func (c *Console) Counts() (info, warn, errs int) {
	for _, m := range c.msgs {
		switch m.Level {
		case LevelInfo:
			info++
		case LevelWarn:
			warn++
		default:
			errs++
		}
	}
	return
}

var levelColors = [3]imgui.Vec4{
	{X: 0.85, Y: 0.87, Z: 0.90, W: 1},
	{X: 1.00, Y: 0.80, Z: 0.30, W: 1},
	{X: 1.00, Y: 0.40, Z: 0.40, W: 1},
}

// Build draws the console panel's contents.
func (c *Console) Build() {
	info, warn, errs := c.Counts()
	imgui.Checkbox(fmt.Sprintf("Info (%d)", info), &c.show[LevelInfo])
	imgui.SameLine()
	imgui.Checkbox(fmt.Sprintf("Warnings (%d)", warn), &c.show[LevelWarn])
	imgui.SameLine()
	imgui.Checkbox(fmt.Sprintf("Errors (%d)", errs), &c.show[LevelError])
	imgui.SameLine()
	if imgui.Button("Clear") {
		c.msgs = c.msgs[:0]
	}
	imgui.SameLine()
	imgui.SetNextItemWidth(-1)
	imgui.InputTextWithHint("##consolefilter", "Filter", &c.filter, 0, nil)
	if imgui.BeginChildStrV("##consolelines", imgui.Vec2{}, imgui.ChildFlagsBorders, 0) {
		f := strings.ToLower(c.filter)
		for _, m := range c.msgs {
			if !c.show[m.Level] {
				continue
			}
			if f != "" && !strings.Contains(strings.ToLower(m.Text), f) {
				continue
			}
			textWrapped(levelColors[m.Level], m.line) // long lines wrap: nothing is cut off
		}
		if c.scroll {
			imgui.SetScrollHereYV(1)
			c.scroll = false
		}
	}
	imgui.EndChild()
}
