//go:build !linux

package hugepages

func onRequest() bool { return false }

func advise(p, n uintptr, on bool) bool { return false }

func mappingAround(at uintptr) (lo, hi uintptr, ok bool) { return 0, 0, false }
