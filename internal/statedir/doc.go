// Package statedir gives a test binary a state folder of its own (XDG_STATE_HOME), so that the session journals
// the editor's code writes there are never the user's: tests are not offered the user's journals, nor do they leave
// theirs behind.
package statedir
