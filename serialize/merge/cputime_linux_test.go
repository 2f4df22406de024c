package merge

import (
	"syscall"
	"time"
)

// processCPU returns the CPU time the process has used (all its threads): what a step costs,
// whatever else the machine runs meanwhile.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
