package binary

import (
	"errors"
	"math/rand/v2"
	"os"
	"testing"
)

// checkDecode decodes data and fails unless the outcome is a component or
// one of the two typed errors; any panic fails the test by itself.
func checkDecode(t testing.TB, data []byte) {
	c, err := DecodeComponent(data)
	var de *DecodeError
	var ns *NotSupportedError
	switch {
	case err == nil:
		if c == nil {
			t.Fatal("nil component without error")
		}
	case errors.As(err, &de):
		if de.Offset < 0 || de.Offset > len(data) {
			t.Fatalf("offset %d outside input of %d bytes: %v", de.Offset, len(data), err)
		}
	case errors.As(err, &ns):
		if ns.Offset < 0 || ns.Offset > len(data) {
			t.Fatalf("offset %d outside input of %d bytes: %v", ns.Offset, len(data), err)
		}
	default:
		t.Fatalf("untyped error %T: %v", err, err)
	}
}

// smallSeeds are small valid components covering the common sections.
var smallSeeds = [][]byte{
	component(),
	component(section(1, coreModuleBytes), section(2, vecOf(cat(b(0x00), leb(0), vecOf())))),
	component(section(7, vecOf(cat(b(0x40), vecOf(cat(str("x"), b(0x7a))), b(0x00, 0x73)), b(0x3f, 0x7f, 0x00))),
		section(8, vecOf(cat(b(0x00, 0x00), leb(0), vecOf(b(0x00), cat(b(0x03), leb(0))), leb(0)), b(0x02, 0x01)))),
	component(section(10, vecOf(cat(b(0x00), str("wasi:io/streams@0.2.0"), b(0x05), leb(0)))),
		section(6, vecOf(cat(b(0x01, 0x00), leb(0), str("f")))),
		section(11, vecOf(cat(b(0x00), str("f"), b(0x01), leb(0), b(0x00))))),
	component(section(4, component(section(0, str("component-name"), b(0x00, 0x02, 0x01, 'c'))))),
}

func FuzzDecodeComponent(f *testing.F) {
	for _, path := range fixtureFiles(f) {
		data, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	for _, s := range smallSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkDecode(t, data)
	})
}

// TestDecodeNeverPanics runs truncations (all of them for small inputs, a
// sample for large ones, to keep the test fast) and a fixed set of random
// byte mutations of each fixture through the decoder.
func TestDecodeNeverPanics(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	inputs := append([][]byte{}, smallSeeds...)
	for _, path := range fixtureFiles(t) {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		inputs = append(inputs, data)
	}
	for _, data := range inputs {
		step := max(1, len(data)/500)
		for n := 0; n < len(data); n += step {
			checkDecode(t, data[:n])
		}
		mutated := make([]byte, len(data))
		for range 500 {
			copy(mutated, data)
			for range 1 + rng.IntN(3) {
				if len(mutated) > 0 {
					mutated[rng.IntN(len(mutated))] = byte(rng.Uint32())
				}
			}
			checkDecode(t, mutated)
		}
	}
}
