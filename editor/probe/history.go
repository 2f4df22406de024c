package probe

// HistoryRow is a row of the History panel: "Start" (before the first kept step) or a step ("Delete Cube").
type HistoryRow struct {
	Rect
	Text    string `json:"text"`
	Current bool   `json:"current,omitempty"` // the state the scene is in
	Redo    bool   `json:"redo,omitempty"`    // a step that can be redone (drawn greyed)
}
