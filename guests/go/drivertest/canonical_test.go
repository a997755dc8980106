package drivertest

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/mur-go/mur/guests/go/driverkit"
)

// roundTrip is the scripted driver's own test of a request's form: decode
// into an any with json.Number, encode without HTML escaping.
func roundTrip(data []byte) (string, bool) {
	var v any
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return "", false
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return "", false
	}
	return strings.TrimSuffix(b.String(), "\n"), true
}

var canonicalSeeds = []struct {
	name, data string
	want       bool
}{
	{"request", request, true},
	{"warm request", driverkit.WarmRequest, true},
	{"empty", ``, false},
	{"scalars", `[true,false,null,0,-1.5e+3,"x",{},[]]`, true},
	{"space", `{"a": 1}`, false},
	{"trailing newline", `{"a":1}` + "\n", false},
	{"two values", `{}{}`, false},
	{"unsorted", `{"b":1,"a":2}`, false},
	{"duplicate", `{"a":1,"a":2}`, false},
	{"escaped key", `{"\u0061":1}`, false},
	{"short escapes", `"\" \\ \b \f \n \r \t"`, true},
	{"control", `"\u0001\u001f"`, true},
	{"upper-case hex", `"\u001F"`, false},
	{"escaped tab as u", `"\u0009"`, false},
	{"escaped slash", `"\/"`, false},
	{"escaped letter", `"\u0041"`, false},
	{"line separators", `"\u2028\u2029"`, true},
	{"raw line separator", "\"\u2028\"", false},
	{"html", `"<a href='x'>&amp;</a>"`, true},
	{"utf-8", `"héllo ✓ 😀"`, true},
	{"escaped surrogates", `"\ud83d\ude00"`, false},
	{"invalid utf-8", "\"\xff\"", false},
	{"raw control", "\"a\tb\"", false},
	{"delete", "\"\x7f\"", true},
	{"leading zero", `01`, false},
	{"number forms", `[-0,1E5,1e-05,0.50]`, true},
	{"bad number", `[1.]`, false},
	{"deep", strings.Repeat("[", 600) + strings.Repeat("]", 600), false},
}

// Canonical never calls a value canonical that the round trip changes,
// and judges the usual forms.
func TestCanonical(t *testing.T) {
	for _, tc := range canonicalSeeds {
		t.Run(tc.name, func(t *testing.T) {
			if got := driverkit.Canonical([]byte(tc.data)); got != tc.want {
				t.Errorf("Canonical(%q) = %v, want %v", tc.data, got, tc.want)
			}
			checkCanonical(t, []byte(tc.data))
		})
	}
}

func FuzzCanonical(f *testing.F) {
	for _, s := range canonicalSeeds {
		f.Add([]byte(s.data))
	}
	f.Fuzz(checkCanonical)
}

func checkCanonical(t *testing.T, data []byte) {
	if !driverkit.Canonical(data) {
		return
	}
	if got, ok := roundTrip(data); !ok || got != string(data) {
		t.Fatalf("Canonical(%q) is true, but the round trip gives %q (ok %v)", data, got, ok)
	}
}
