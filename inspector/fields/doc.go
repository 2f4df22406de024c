// Package fields is the inspector's field model: it turns an ECS component schema (ecs.Schema) into
// descriptors that say which widget edits each field, with the hints from the `voltex` struct tag
// resolved into concrete numbers (range, drag speed, display format).
//
// # Kinds
//
// Every field gets a Kind: Bool, Int, Uint, Float, String (Hints.Multiline for a text box), Enum
// (integer types implementing ecs.Enum), Vector (2–4 floats: mgl32.Vec2/3/4 or [N]float32/64),
// Euler (a vector of 3 angles with the `degrees` hint, shown in degrees), Color (3–4 float or
// uint8 channels with the `color` hint), Matrix (mgl32.Mat2/3/4), Asset (a string with the `asset`
// hint), EntityRef (ecs.Entity), Struct (nested fields), Array and Slice (indexed elements), and
// Unsupported for anything else (maps, pointers, interfaces), which is shown read-only.
//
// # Nodes
//
// The value of a component is seen as a tree of nodes numbered in pre-order: a field is one node,
// followed by the nodes of its children (struct fields, array or slice elements, or the channels of
// a vector). A field's subtree is therefore the contiguous ordinal range [o, o+Nodes). Mixed state
// (Selection) and change highlights (Tracker) are bit sets and timestamps indexed by these ordinals,
// so the inspector looks them up without building path strings per frame.
//
// # Values
//
// Values are read with reflect from component values returned by ecs.World.Get. Clamp and the
// Field.*Value helpers validate user input before it becomes an edit: NaN and ±Inf are rejected,
// numbers are clamped to the hinted range and integers to their type's range. Sanitize does the same
// for a whole component value (a pasted one).
//
// # Selection and changes
//
// Selection computes, for any number of selected entities, the components they all share and which
// nodes have differing (mixed) values, with bounded work per frame. Tracker detects values that
// changed by anything other than the user's own edit, using the ECS change ticks to skip unchanged
// components, and reports a highlight that fades over about a second.
//
// This package is pure Go: it may import the standard library, ecs and mgl32; never cgo, GL or giu.
package fields
