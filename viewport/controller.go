package viewport

import "math"

// Input is one UI frame of mouse and keyboard state as the viewport panel
// sees it. Mouse coordinates are viewport pixels (top-left origin).
type Input struct {
	MouseX, MouseY   float32 // cursor position
	MouseDX, MouseDY float32 // cursor movement since the last frame (on the frame a drag starts: movement before the press, ignored)
	Wheel            float32 // wheel notches this frame, > 0 away from the user
	Hovered          bool    // cursor over the viewport: drags and the wheel start only then
	Left             bool    // left button held
	Middle           bool    // middle button held
	Right            bool    // right button held
	Alt, Shift       bool
	W, A, S, D, Q, E bool
	Dt               float32 // seconds since the last frame
}

// Mode is the camera drag in progress.
type Mode uint8

// Camera drag modes.
const (
	ModeNone  Mode = iota
	ModeOrbit      // Alt+left drag or middle drag
	ModePan        // Shift+middle drag
	ModeFly        // right button held: mouse look + WASD/QE, Shift faster
)

var modeNames = [...]string{"none", "orbit", "pan", "fly"}

// String returns the mode's name.
func (m Mode) String() string {
	if int(m) < len(modeNames) {
		return modeNames[m]
	}
	return "mode?"
}

// Controller turns [Input] into camera operations, holding the drag in
// progress between frames: a drag starts only over the viewport and goes on
// while its button is held, even outside. The wheel zooms to the cursor
// (while flying it changes the fly speed instead). The zero value is ready.
type Controller struct {
	// FlySpeed is the fly speed in world units per second (0 means
	// DefaultFlySpeed).
	FlySpeed float32
	mode     Mode
}

// Mode returns the drag in progress.
func (c *Controller) Mode() Mode { return c.mode }

// Update applies one frame of input to cam in a w×h viewport and reports
// whether the camera changed. Only mouse movement after a button press moves
// the camera: the movement reported on the frame a drag starts happened
// before the press (a slow frame can gather a long move and the press), so it
// is ignored.
func (c *Controller) Update(cam *Camera, in Input, w, h int) bool {
	before := *cam
	was := c.mode
	switch c.mode {
	case ModeOrbit:
		if !in.Left && !in.Middle {
			c.mode = ModeNone
		}
	case ModePan:
		if !in.Middle {
			c.mode = ModeNone
		}
	case ModeFly:
		if !in.Right {
			c.mode = ModeNone
		}
	}
	if c.mode == ModeNone && in.Hovered {
		switch {
		case in.Right:
			c.mode = ModeFly
		case in.Middle && in.Shift:
			c.mode = ModePan
		case in.Middle, in.Left && in.Alt:
			c.mode = ModeOrbit
		}
	}
	if c.mode != was && was == ModeNone {
		in.MouseDX, in.MouseDY = 0, 0
	}
	switch c.mode {
	case ModeOrbit:
		cam.Orbit(in.MouseDX, in.MouseDY)
	case ModePan:
		cam.Pan(in.MouseDX, in.MouseDY, h)
	case ModeFly:
		if in.Wheel != 0 {
			speed := c.FlySpeed
			if speed <= 0 {
				speed = DefaultFlySpeed
			}
			c.FlySpeed = min(max(speed*float32(math.Pow(1.2, float64(in.Wheel))), 0.01), 1e5)
		}
		cam.Fly(FlyInput{
			LookDX: in.MouseDX, LookDY: in.MouseDY,
			Forward: in.W, Back: in.S, Left: in.A, Right: in.D, Up: in.E, Down: in.Q,
			Fast: in.Shift, Dt: in.Dt, Speed: c.FlySpeed,
		})
	}
	if c.mode != ModeFly && in.Hovered && in.Wheel != 0 {
		cam.Zoom(in.Wheel, in.MouseX, in.MouseY, w, h)
	}
	return *cam != before
}
