package inference

import (
	"errors"
	"strings"
	"testing"
)

func u64(v uint64) *uint64 { return &v }

func TestMeter(t *testing.T) {
	m := NewMeter(u64(100))
	if err := m.Admit(60); err != nil {
		t.Fatal(err)
	}
	m.Charge(50)
	err := m.Admit(51)
	var ce *CeilingError
	if !errors.As(err, &ce) || ce.Limit != 100 || ce.Spent != 50 || ce.Requested != 51 {
		t.Fatalf("Admit past the ceiling = %v", err)
	}
	if !strings.HasPrefix(err.Error(), "spend ceiling reached: inference.max_session_tokens is 100") || !strings.Contains(err.Error(), "retrying will not help") {
		t.Errorf("refusal text: %q", err)
	}
	if err := m.Admit(1); err != ce {
		t.Errorf("after a refusal Admit(1) = %v, want the latched refusal", err)
	}
	if err := m.Admit(^uint64(0)); err == nil {
		t.Error("an overflowing request was admitted")
	}
	full := NewMeter(u64(100))
	full.Charge(^uint64(0))
	full.Charge(5)
	if full.Spent() != ^uint64(0) || full.Admit(0) == nil {
		t.Errorf("a saturated meter wrapped: spent %d", full.Spent())
	}
	var none *Meter = NewMeter(nil)
	if err := none.Admit(^uint64(0)); err != nil {
		t.Errorf("no ceiling refused: %v", err)
	}
	none.Charge(5)
}

func TestSettle(t *testing.T) {
	for _, tt := range []struct {
		name, raw       string
		reported        bool
		settled, failed uint64
	}{
		{"no usage", `{"stop_reason":"end_turn"}`, false, 10 + 3, 10},
		{"input only counts as none", `{"usage":{"input_tokens":500}}`, false, 13, 10},
		{"full usage", `{"usage":{"input_tokens":100,"output_tokens":20,"cached_tokens":5,"cache_write_tokens":7,"thinking_tokens":9}}`, true, 132, 132},
		{"odd usage", `{"usage":"lots"}`, false, 13, 10},
		{"not json", `nope`, false, 13, 10},
		{"absurd counts saturate", `{"usage":{"input_tokens":18446744073709551615,"cached_tokens":2,"output_tokens":7}}`, true, ^uint64(0), ^uint64(0)},
	} {
		t.Run(tt.name, func(t *testing.T) {
			u, ok := ParseUsage(tt.raw)
			if ok != tt.reported {
				t.Fatalf("reported = %v", ok)
			}
			if got := Settle(u, ok, 10, 3); got != tt.settled {
				t.Errorf("Settle = %d, want %d", got, tt.settled)
			}
			if got := SettleFailed(u, ok, 10); got != tt.failed {
				t.Errorf("SettleFailed = %d, want %d", got, tt.failed)
			}
		})
	}
}
