package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// clockTick is the unit of /proc's CPU times (USER_HZ, 100 on Linux).
const clockTick = 10 * time.Millisecond

// threadCPU returns the CPU time (user + system) each thread of process pid has used so far, by thread id, with
// "gl" for the software renderer's threads (llvmpipe-N). A wall time on a busy machine says little; these say what
// the editor itself did, and where.
func threadCPU(pid int) map[string]time.Duration {
	out := map[string]time.Duration{}
	dirs, _ := filepath.Glob(fmt.Sprintf("/proc/%d/task/*", pid))
	for _, d := range dirs {
		data, err := os.ReadFile(filepath.Join(d, "stat"))
		if err != nil {
			continue // the thread ended
		}
		s := string(data)
		open, shut := strings.IndexByte(s, '('), strings.LastIndexByte(s, ')')
		if open < 0 || shut < open {
			continue
		}
		comm, rest := s[open+1:shut], strings.Fields(s[shut+1:])
		if len(rest) < 13 {
			continue
		}
		// Fields after the name: state(0) ... utime(11) stime(12).
		ut, _ := strconv.ParseInt(rest[11], 10, 64)
		st, _ := strconv.ParseInt(rest[12], 10, 64)
		tid := filepath.Base(d)
		if strings.HasPrefix(comm, "llvmpipe") {
			tid = "gl"
		}
		out[tid] += time.Duration(ut+st) * clockTick
	}
	return out
}

// cpuSince records under name the CPU the editor's threads used since before (threadCPU): in all, the software
// renderer's threads ("gl"), the busiest other thread ("ui": the GUI loop's, which runs ImGui, the panels and the
// GL calls) and the rest ("other": background goroutines, the garbage collector).
func cpuSince(f figures, name string, pid int, before map[string]time.Duration) {
	var total, gl, ui time.Duration
	for k, t := range threadCPU(pid) {
		d := max(t-before[k], 0)
		total += d
		switch {
		case k == "gl":
			gl = d
		case d > ui:
			ui = d
		}
	}
	f.ms(name+": editor CPU", total)
	f.ms(name+": editor CPU, gl", gl)
	f.ms(name+": editor CPU, ui", ui)
	f.ms(name+": editor CPU, other", total-gl-ui)
}
