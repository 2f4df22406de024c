package ecs

import "math/bits"

// MaxComponents is the number of component types one World can register.
const MaxComponents = 256

// mask is a set of component IDs, one bit per ID.
type mask [MaxComponents / 64]uint64

func (m *mask) set(id ComponentID)      { m[id>>6] |= 1 << (id & 63) }
func (m *mask) clear(id ComponentID)    { m[id>>6] &^= 1 << (id & 63) }
func (m *mask) has(id ComponentID) bool { return m[id>>6]&(1<<(id&63)) != 0 }

// containsAll reports whether every bit of o is set in m.
func (m *mask) containsAll(o *mask) bool {
	return m[0]&o[0] == o[0] && m[1]&o[1] == o[1] && m[2]&o[2] == o[2] && m[3]&o[3] == o[3]
}

// containsAny reports whether any bit of o is set in m.
func (m *mask) containsAny(o *mask) bool {
	return m[0]&o[0]|m[1]&o[1]|m[2]&o[2]|m[3]&o[3] != 0
}

// ids appends the set IDs in ascending order.
func (m *mask) ids(dst []ComponentID) []ComponentID {
	for w, word := range m {
		for word != 0 {
			b := bits.TrailingZeros64(word)
			dst = append(dst, ComponentID(w*64+b))
			word &= word - 1
		}
	}
	return dst
}
