package canon

import "math"

// The NaN bit patterns every NaN becomes, on lift and on lower, so that
// NaN payloads carry no information across the boundary (the deterministic
// profile's choice, which the spec allows everywhere).
const (
	canonicalNaN32 = 0x7fc00000
	canonicalNaN64 = 0x7ff8000000000000
)

// f32 decodes the bits of an f32, canonicalizing NaNs.
func f32(b uint32) float32 {
	if b&0x7f800000 == 0x7f800000 && b&0x007fffff != 0 {
		b = canonicalNaN32
	}
	return math.Float32frombits(b)
}

// f64 decodes the bits of an f64, canonicalizing NaNs.
func f64(b uint64) float64 {
	if b&0x7ff0000000000000 == 0x7ff0000000000000 && b&0x000fffffffffffff != 0 {
		b = canonicalNaN64
	}
	return math.Float64frombits(b)
}

// f32Bits encodes an f32, canonicalizing NaNs.
func f32Bits(f float32) uint32 {
	if f != f {
		return canonicalNaN32
	}
	return math.Float32bits(f)
}

// f64Bits encodes an f64, canonicalizing NaNs.
func f64Bits(f float64) uint64 {
	if f != f {
		return canonicalNaN64
	}
	return math.Float64bits(f)
}

// validChar reports whether i is a Unicode scalar value: at most 0x10FFFF
// and not a surrogate.
func validChar(i uint32) bool {
	return i < 0xD800 || (i > 0xDFFF && i < 0x110000)
}

// liftChar is convert_i32_to_char.
func liftChar(i uint32) (any, error) {
	if !validChar(i) {
		return nil, trap("invalid char %#x", i)
	}
	return rune(i), nil
}

// flagMask keeps the bits of n flags; lifting ignores the others, as
// unpack_flags_from_int does.
func flagMask(n uint32) uint64 {
	if n >= 64 {
		return math.MaxUint64
	}
	return 1<<n - 1
}
