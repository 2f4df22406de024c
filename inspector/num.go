package inspector

import (
	"reflect"
	"unsafe"

	"github.com/AllenDang/cimgui-go/imgui"

	"github.com/voltex-editor/voltex/inspector/fields"
)

// The drag widgets edit numbers in place in Panel.num, heap memory that does not move, so its
// address can be handed to ImGui as a uintptr.

// dataType is the ImGui data type of numeric field f.
func dataType(f *fields.Field) imgui.DataType {
	bits := f.Type.Bits()
	switch f.Kind {
	case fields.Float:
		if bits == 32 {
			return imgui.DataTypeFloat
		}
		return imgui.DataTypeDouble
	case fields.Uint:
		switch bits {
		case 8:
			return imgui.DataTypeU8
		case 16:
			return imgui.DataTypeU16
		case 32:
			return imgui.DataTypeU32
		}
		return imgui.DataTypeU64
	}
	switch bits {
	case 8:
		return imgui.DataTypeS8
	case 16:
		return imgui.DataTypeS16
	case 32:
		return imgui.DataTypeS32
	}
	return imgui.DataTypeS64
}

// put stores numeric value v at p as data type dt.
func put(p unsafe.Pointer, dt imgui.DataType, v reflect.Value) {
	switch dt {
	case imgui.DataTypeFloat:
		*(*float32)(p) = float32(v.Float())
	case imgui.DataTypeDouble:
		*(*float64)(p) = v.Float()
	case imgui.DataTypeS8, imgui.DataTypeS16, imgui.DataTypeS32, imgui.DataTypeS64:
		putInt(p, dt, v.Int())
	default:
		putUint(p, dt, v.Uint())
	}
}

func putInt(p unsafe.Pointer, dt imgui.DataType, x int64) {
	switch dt {
	case imgui.DataTypeS8:
		*(*int8)(p) = int8(x)
	case imgui.DataTypeS16:
		*(*int16)(p) = int16(x)
	case imgui.DataTypeS32:
		*(*int32)(p) = int32(x)
	default:
		*(*int64)(p) = x
	}
}

func putUint(p unsafe.Pointer, dt imgui.DataType, x uint64) {
	switch dt {
	case imgui.DataTypeU8:
		*(*uint8)(p) = uint8(x)
	case imgui.DataTypeU16:
		*(*uint16)(p) = uint16(x)
	case imgui.DataTypeU32:
		*(*uint32)(p) = uint32(x)
	default:
		*(*uint64)(p) = x
	}
}

// putRange stores f's range at lo and hi as data type dt.
func putRange(lo, hi unsafe.Pointer, dt imgui.DataType, f *fields.Field) {
	switch dt {
	case imgui.DataTypeFloat:
		*(*float32)(lo), *(*float32)(hi) = float32(f.Min), float32(f.Max)
	case imgui.DataTypeDouble:
		*(*float64)(lo), *(*float64)(hi) = f.Min, f.Max
	case imgui.DataTypeS8, imgui.DataTypeS16, imgui.DataTypeS32, imgui.DataTypeS64:
		putInt(lo, dt, f.IMin)
		putInt(hi, dt, f.IMax)
	default:
		putUint(lo, dt, f.UMin)
		putUint(hi, dt, f.UMax)
	}
}

// get reads the number at p back as a validated value of f's type.
func get(p unsafe.Pointer, dt imgui.DataType, f *fields.Field) (any, bool) {
	switch dt {
	case imgui.DataTypeFloat:
		return f.FloatValue(float64(*(*float32)(p)))
	case imgui.DataTypeDouble:
		return f.FloatValue(*(*float64)(p))
	case imgui.DataTypeS8:
		return f.IntValue(int64(*(*int8)(p))), true
	case imgui.DataTypeS16:
		return f.IntValue(int64(*(*int16)(p))), true
	case imgui.DataTypeS32:
		return f.IntValue(int64(*(*int32)(p))), true
	case imgui.DataTypeS64:
		return f.IntValue(*(*int64)(p)), true
	case imgui.DataTypeU8:
		return f.UintValue(uint64(*(*uint8)(p))), true
	case imgui.DataTypeU16:
		return f.UintValue(uint64(*(*uint16)(p))), true
	case imgui.DataTypeU32:
		return f.UintValue(uint64(*(*uint32)(p))), true
	}
	return f.UintValue(*(*uint64)(p)), true
}
