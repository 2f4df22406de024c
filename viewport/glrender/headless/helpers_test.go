package headless

import (
	"fmt"
	"runtime"
	"syscall"
)

func gettid() int { return syscall.Gettid() }

func runtimeGoexit() { runtime.Goexit() }

func fmtSscanf(s string, major, minor *int) (int, error) { return fmt.Sscanf(s, "%d.%d", major, minor) }
