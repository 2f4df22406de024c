// Package live serves a running game's world to tools over a local connection: the live link.
// A game calls [Serve] once with its world and then [Server.Frame] once per frame on its loop; a
// tool connects with [Dial], presents the token the game printed, watches the world change and
// edits it. docs/live.md describes the protocol and its security model.
//
// Everything that reads or writes the world runs in Frame, on the game's goroutine: the
// connections' goroutines only decode requests into a bounded queue and write messages. The
// values a delta sends are copied out of the world in Frame (ecs.Values) and turned into JSON by
// the connection's writer from those copies, with the scene format's encoders
// (serialize.ComponentEncoder), so component values read as scene files write them. Frame spends
// at most a share of the time between two frames (Options.FrameShare, 1 % by default) on
// deltas: a big change reaches a watcher over several frames.
//
// A client sees entities by handle (index and generation as one number), with their parent,
// their components' names and the JSON of the values that changed since the delta it last
// acknowledged; it sets fields and components, adds and removes components, spawns and despawns
// entities, and pauses, steps and resumes the game's systems (Frame returns whether the game
// should run them this frame). [Client.Snapshot] writes what a client sees as a scene file that
// serialize.Load reads.
package live
