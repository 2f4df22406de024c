package glrender

import "syscall"

// threadID identifies the calling OS thread (GL contexts are per thread).
func threadID() int { return syscall.Gettid() }
