package wit

// VariantValue is a value of a variant type: the index of the case and its
// payload (nil when the case has none).
type VariantValue struct {
	Case  uint32
	Value any
}

// OptionValue is a value of an option type.
type OptionValue struct {
	Some  bool
	Value any
}

// ResultValue is a value of a result type; Value is the payload of the ok or
// error side (nil when that side has none).
type ResultValue struct {
	Err   bool
	Value any
}

// MapEntry is one key/value pair of a map value.
type MapEntry struct {
	Key, Value any
}

// Resource is an own or borrow handle as seen outside a component: the
// resource's type and its representation. For host-defined types Rep is
// whatever the host chose; for guest-defined types it is the guest's rep.
type Resource struct {
	Type *ResourceType
	Rep  uint32
}

// Some returns the option value holding v.
func Some(v any) OptionValue { return OptionValue{Some: true, Value: v} }

// None returns the empty option value.
func None() OptionValue { return OptionValue{} }

// Ok returns the ok result holding v (nil for result without an ok payload).
func Ok(v any) ResultValue { return ResultValue{Value: v} }

// Err returns the error result holding v.
func Err(v any) ResultValue { return ResultValue{Err: true, Value: v} }
