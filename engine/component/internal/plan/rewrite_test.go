package plan

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/mur-go/mur/engine/component/internal/binary"
	"github.com/mur-go/mur/engine/component/internal/validate"
)

// recordingMemo keeps values in memory and counts the hits.
type recordingMemo struct {
	values map[[32]byte][]byte
	hits   int
}

func (m *recordingMemo) Get(k [32]byte) ([]byte, bool) {
	v, ok := m.values[k]
	if ok {
		m.hits++
	}
	return v, ok
}

func (m *recordingMemo) Put(k [32]byte, v []byte) { m.values[k] = v }

// rewriteGuests are test guests whose rewrites cover every pass: a Go
// guest with the adapter (state exports, loops, many data segments), a
// Rust one, a start function, shared and grown tables.
var rewriteGuests = []string{"scripted-go", "driver-rust", "engine-preinit", "engine-table-shared", "tool-grow"}

func elaborateGuest(t *testing.T, name string, memo Memo, rw Rewrites) *Plan {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "..", "..", "guests", "out", name+".wasm"))
	if err != nil {
		t.Fatal(err)
	}
	c, err := binary.DecodeComponent(b)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := validate.Structure(c); err != nil {
		t.Fatal(err)
	}
	p, err := ElaborateWith(c, nil, memo, rw)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// A plan elaborated from the memo is the plan elaborated without one, with
// and without the interrupt checks rewritten in.
func TestRewriteMemoGivesTheSamePlan(t *testing.T) {
	for _, name := range rewriteGuests {
		for _, rw := range []Rewrites{{}, {CompiledInterrupts: true}} {
			t.Run(fmt.Sprintf("%s/%+v", name, rw), func(t *testing.T) {
				want := elaborateGuest(t, name, nil, rw)
				memo := &recordingMemo{values: map[[32]byte][]byte{}}
				elaborateGuest(t, name, memo, rw)
				got := elaborateGuest(t, name, memo, rw)
				if memo.hits != len(got.CoreInsts) {
					t.Errorf("%d memo hits for %d core instances", memo.hits, len(got.CoreInsts))
				}
				for i := range want.CoreInsts {
					w, g := *want.CoreInsts[i], *got.CoreInsts[i]
					// Only the memo's bytes are shared with wazero: they are
					// never written to (Memo).
					if w.Shared || !g.Shared {
						t.Errorf("core instance %d: shared %v rewritten, %v from the memo; want false, true", i, w.Shared, g.Shared)
					}
					w.Source, g.Source, w.Shared, g.Shared = nil, nil, false, false
					if !reflect.DeepEqual(w, g) {
						t.Errorf("core instance %d differs from the memo", i)
					}
					// wazero keys its compilation cache by the digest.
					if g.Digest != sha256.Sum256(g.Bytes) {
						t.Errorf("core instance %d: the digest is not its module's", i)
					}
				}
				if want.MinMemory != got.MinMemory || want.MinTable != got.MinTable || want.GrowsTables != got.GrowsTables {
					t.Errorf("plan totals differ from the memo")
				}
			})
		}
	}
}

// rewriteGolden is the SHA-256 of every memo value the rewrite pipeline
// produces for rewriteGuests, with and without the interrupt checks
// rewritten in. When it changes, so does what the pipeline
// produces: change rewriteVersion (or processes would take the old output
// from their caches) and then this hash.
const rewriteGolden = "477d6bfcba355bdb9aa9c1d423def61fe00f4f67cf104322d93cd5061cd8545a"

func TestRewriteMemoGolden(t *testing.T) {
	h := sha256.New()
	for _, name := range rewriteGuests {
		for _, rw := range []Rewrites{{}, {CompiledInterrupts: true}} {
			memo := &recordingMemo{values: map[[32]byte][]byte{}}
			elaborateGuest(t, name, memo, rw)
			var keys [][32]byte
			for k := range memo.values {
				keys = append(keys, k)
			}
			slices.SortFunc(keys, func(a, b [32]byte) int { return slices.Compare(a[:], b[:]) })
			for _, k := range keys {
				h.Write(memo.values[k])
			}
		}
	}
	if got := hex.EncodeToString(h.Sum(nil)); got != rewriteGolden {
		t.Fatalf("the rewrite pipeline's output changed (hash %s, want %s): change rewriteVersion in rewrite.go, then rewriteGolden", got, rewriteGolden)
	}
}

// FuzzDecodeRewritten: a memo value is read back from disk; whatever it
// holds, decoding returns an error or a value that survives encoding and
// decoding again.
func FuzzDecodeRewritten(f *testing.F) {
	f.Add(rewritten{bytes: []byte("\x00asm\x01\x00\x00\x00"), pages: 17, interruptible: true, tableMin: 3}.encode())
	f.Add([]byte{0x0f, 1, 1, 0, 2, 1, 'g', 0, 1, 'x'})
	f.Fuzz(func(t *testing.T, b []byte) {
		r, err := decodeRewritten(b)
		if err != nil {
			return
		}
		again, err := decodeRewritten(r.encode())
		if err != nil || !reflect.DeepEqual(r, again) {
			t.Fatalf("decoded %x, then %+v does not survive encoding (%v)", b, r, err)
		}
	})
}
