package binary

import (
	"fmt"
	"reflect"
	"strings"
)

// Builders for hand-encoded test binaries.

func leb(v uint64) []byte {
	var out []byte
	for {
		c := byte(v & 0x7f)
		v >>= 7
		if v != 0 {
			out = append(out, c|0x80)
			continue
		}
		return append(out, c)
	}
}

func cat(parts ...[]byte) []byte {
	var out []byte
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

func b(bs ...byte) []byte { return bs }

func str(s string) []byte { return cat(leb(uint64(len(s))), []byte(s)) }

func vecOf(items ...[]byte) []byte { return cat(leb(uint64(len(items))), cat(items...)) }

func section(id byte, payload ...[]byte) []byte {
	p := cat(payload...)
	return cat(b(id), leb(uint64(len(p))), p)
}

var preamble = b(0x00, 0x61, 0x73, 0x6d, 0x0d, 0x00, 0x01, 0x00)

func component(sections ...[]byte) []byte { return cat(preamble, cat(sections...)) }

// coreModuleBytes is the smallest core module: just its preamble.
var coreModuleBytes = b(0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00)

// clearOffsets zeroes every int field named Offset reachable from v, so
// tests can compare decoded trees without tracking byte positions.
func clearOffsets(v any) {
	clearOffsetsValue(reflect.ValueOf(v))
}

func clearOffsetsValue(v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			clearOffsetsValue(v.Elem())
		}
	case reflect.Slice:
		for i := range v.Len() {
			clearOffsetsValue(v.Index(i))
		}
	case reflect.Struct:
		for i := range v.NumField() {
			f := v.Field(i)
			if v.Type().Field(i).Name == "Offset" && f.Kind() == reflect.Int && f.CanSet() {
				f.SetInt(0)
				continue
			}
			clearOffsetsValue(f)
		}
	}
}

// dump formats v with pointers followed, for readable test failures.
func dump(v any) string {
	var sb strings.Builder
	dumpValue(&sb, reflect.ValueOf(v))
	return sb.String()
}

func dumpValue(sb *strings.Builder, v reflect.Value) {
	switch v.Kind() {
	case reflect.Invalid:
		sb.WriteString("<nil>")
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			sb.WriteString("nil")
			return
		}
		if v.Kind() == reflect.Pointer {
			sb.WriteString("&")
		}
		dumpValue(sb, v.Elem())
	case reflect.Slice:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			fmt.Fprintf(sb, "% x", v.Bytes())
			return
		}
		sb.WriteString("[")
		for i := range v.Len() {
			if i > 0 {
				sb.WriteString(" ")
			}
			dumpValue(sb, v.Index(i))
		}
		sb.WriteString("]")
	case reflect.Struct:
		sb.WriteString(v.Type().Name() + "{")
		for i := range v.NumField() {
			if i > 0 {
				sb.WriteString(" ")
			}
			sb.WriteString(v.Type().Field(i).Name + ":")
			dumpValue(sb, v.Field(i))
		}
		sb.WriteString("}")
	default:
		if s, ok := v.Interface().(fmt.Stringer); ok {
			sb.WriteString(s.String())
			return
		}
		fmt.Fprint(sb, v.Interface())
	}
}
