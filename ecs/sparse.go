package ecs

// sparseSet stores a SparseSet component: a dense column of values (with ticks) plus, by entity
// index, the entity's dense row. Adding and removing are O(1) and never move the entity between
// tables.
//
// The by-index array uses the same record layout as the world's entity records, with table 1 for
// "present" (cols[1] is the dense column) and 0 for "absent" (cols[0] is nil), so that typed
// accessors look values up with the same inlined code for both storages.
type sparseSet struct {
	col   *column
	recs  []record  // by entity index: table 1 = present (row, gen of the owner), 0 = absent
	cols  []*column // {nil, col}
	dense []Entity  // dense row -> entity
	cap   int
}

const sparsePresent = 1

func newSparseSet(s *componentStore) *sparseSet {
	c := newColumn(s, 0)
	return &sparseSet{col: c, cols: []*column{nil, c}}
}

func (s *sparseSet) len() int { return len(s.dense) }

// row returns the dense row of entity index idx, or -1.
func (s *sparseSet) row(idx uint32) int32 {
	if int(idx) < len(s.recs) && s.recs[idx].table == sparsePresent {
		return int32(s.recs[idx].row)
	}
	return -1
}

func (s *sparseSet) has(idx uint32) bool {
	return int(idx) < len(s.recs) && s.recs[idx].table == sparsePresent
}

// insert appends a row for e and returns it; the caller fills the value and ticks.
func (s *sparseSet) insert(e Entity) uint32 {
	if int(e.index) >= len(s.recs) {
		n := max(int(e.index)+1, 2*len(s.recs), 64)
		nr := make([]record, n)
		copy(nr, s.recs)
		s.recs = nr
	}
	if len(s.dense) == s.cap {
		nc := max(2*s.cap, 8)
		s.col.grow(len(s.dense), nc)
		d := make([]Entity, len(s.dense), nc)
		copy(d, s.dense)
		s.dense = d
		s.cap = nc
	}
	row := uint32(len(s.dense))
	s.dense = append(s.dense, e)
	s.recs[e.index] = record{table: sparsePresent, row: row, gen: e.gen}
	return row
}

// remove swap-removes the row of entity index idx; it reports whether it was present.
func (s *sparseSet) remove(idx uint32) bool {
	r := s.row(idx)
	if r < 0 {
		return false
	}
	row := uint32(r)
	last := uint32(len(s.dense) - 1)
	if row != last {
		s.col.moveWithin(row, last)
		moved := s.dense[last]
		s.dense[row] = moved
		s.recs[moved.index].row = row
	}
	s.col.clear(last)
	s.dense = s.dense[:last]
	s.recs[idx] = record{}
	return true
}
