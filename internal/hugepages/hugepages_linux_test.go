package hugepages

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"unsafe"
)

// vma is what /proc/self/smaps says of the mapping that holds an address.
type vma struct {
	hugeKB int
	flags  []string
}

func mappingOf(t *testing.T, addr uintptr) vma {
	t.Helper()
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = f.Close() }() // read only
	sc := bufio.NewScanner(f)
	in := false
	var v vma
	for sc.Scan() {
		line := sc.Text()
		if lo, hi, ok := rangeOf(line); ok {
			if in {
				break
			}
			in = lo <= addr && addr < hi
			continue
		}
		if !in {
			continue
		}
		if s, ok := strings.CutPrefix(line, "AnonHugePages:"); ok {
			v.hugeKB, _ = strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(s), " kB"))
		}
		if s, ok := strings.CutPrefix(line, "VmFlags:"); ok {
			v.flags = strings.Fields(s)
		}
	}
	if !in {
		t.Fatalf("no mapping holds %#x", addr)
	}
	return v
}

// rangeOf reads a mapping's first line ("lo-hi perms ..."); other lines (fields: "Size:  4 kB") are not one.
func rangeOf(line string) (lo, hi uintptr, ok bool) {
	f := strings.Fields(line)
	var a, b uint64
	if len(f) < 5 || strings.HasSuffix(f[0], ":") {
		return 0, 0, false
	}
	if _, err := fmt.Sscanf(f[0], "%x-%x", &a, &b); err != nil {
		return 0, 0, false
	}
	return uintptr(a), uintptr(b), true
}

func has(flags []string, f string) bool {
	for _, x := range flags {
		if x == f {
			return true
		}
	}
	return false
}

func TestReserveGivesTheNextAllocationsHugePages(t *testing.T) {
	const n = 64 << 20
	r := Reserve(n)
	if !onRequest() {
		if r.Advised() {
			t.Fatal("advised a room where the kernel gives no huge pages")
		}
		t.Log("this kernel gives no transparent huge pages: nothing to advise")
		return
	}
	if !r.Advised() {
		t.Fatal("the kernel gives huge pages on request, but the room was not advised")
	}
	if r.end-r.begin < n-2*hugePage || r.begin%hugePage != 0 || r.end%hugePage != 0 {
		t.Fatalf("room [%#x, %#x) is not aligned or smaller than the %d bytes reserved", r.begin, r.end, n)
	}
	if v := mappingOf(t, r.begin); !has(v.flags, "hg") {
		t.Fatalf("the room's mapping is not advised for huge pages: VmFlags %v", v.flags)
	}
	// The heap gives the room (or free pages around it) to the allocations that follow: a big slice lands in it
	// and, touched, is made of huge pages.
	s := make([]byte, n/2)
	p := uintptr(unsafe.Pointer(&s[0]))
	if p < r.begin || p+uintptr(len(s)) > r.end {
		t.Fatalf("a %d-byte slice after the room was reserved is at %#x, outside the room [%#x, %#x)", len(s), p, r.begin, r.end)
	}
	for i := 0; i < len(s); i += 4096 {
		s[i] = 1
	}
	if v := mappingOf(t, p); v.hugeKB < len(s)>>10/2 {
		t.Errorf("a %d MB slice touched in the room holds %d kB of huge pages", len(s)>>20, v.hugeKB)
	}
	r.End()
	if v := mappingOf(t, r.begin); has(v.flags, "hg") || !has(v.flags, "nh") {
		t.Errorf("after End the room's mapping still asks for huge pages: VmFlags %v", v.flags)
	}
}

func TestReserveOfLittleAdvisesNothing(t *testing.T) {
	if r := Reserve(hugePage); r.Advised() {
		t.Errorf("a reserve smaller than two huge pages advised [%#x, %#x)", r.begin, r.end)
	}
	Room{}.End() // nothing to end: no call
}

func TestMappingAroundIsTheHeapsRun(t *testing.T) {
	s := make([]byte, 8<<20)
	at := uintptr(unsafe.Pointer(&s[0]))
	lo, hi, ok := mappingAround(at)
	if !ok || lo > at || at+uintptr(len(s)) > hi {
		t.Fatalf("mappingAround(%#x) = [%#x, %#x), %v: does not hold the %d-byte slice", at, lo, hi, ok, len(s))
	}
	small := make([]int, 100) // another heap object: the same run
	if p := uintptr(unsafe.Pointer(&small[0])); p < lo || p >= hi {
		t.Errorf("a small heap object at %#x is outside the heap's run [%#x, %#x)", p, lo, hi)
	}
	if lo2, hi2, ok := mappingAround(0); ok {
		t.Errorf("mappingAround(0) = [%#x, %#x), want none", lo2, hi2)
	}
}
