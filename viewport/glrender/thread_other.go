//go:build !linux

package glrender

// threadID is not checked off Linux.
func threadID() int { return 0 }
