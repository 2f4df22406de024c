package ecs

import "testing"

func TestSetFieldOf(t *testing.T) {
	type inner struct {
		Who Entity `json:"who"`
	}
	type comp struct {
		Items []inner `json:"items"`
		N     int8    `json:"n"`
	}
	v := comp{Items: make([]inner, 2)}
	e := Entity{index: 3, gen: 1}
	if err := SetFieldOf(&v, "items[1].who", e); err != nil || v.Items[1].Who != e {
		t.Fatalf("set: %v, %+v", err, v)
	}
	if err := SetFieldOf(&v, "n", 300); err == nil {
		t.Error("300 fits no int8")
	}
	if err := SetFieldOf(v, "n", 1); err == nil {
		t.Error("a value, not a pointer, accepted")
	}
	if err := SetFieldOf(&v, "items[5].who", e); err == nil {
		t.Error("index out of range accepted")
	}
}
