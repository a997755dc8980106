package traceview

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/mur-go/mur/internal/base/diag"
)

func TestFormats(t *testing.T) {
	for _, c := range []struct{ got, want string }{
		{Thousands(0), "0"}, {Thousands(999), "999"}, {Thousands(1000), "1,000"}, {Thousands(9700), "9,700"},
		{Thousands(1234567), "1,234,567"}, {Thousands(math.MaxUint64), "18,446,744,073,709,551,615"},
		{Duration(0), "0ms"}, {Duration(999), "999ms"}, {Duration(1000), "1.0s"}, {Duration(1700), "1.7s"}, {Duration(61_250), "61.2s"},
		{OptDuration(187.9, true), "187ms"}, {OptDuration(0, false), None}, {OptRound(1100, true), "1100"}, {OptRound(0, false), None},
		{ExitCodes(map[int32]uint32{0: 4, 1: 1, -2: 2}), "4 ok, 2 failed (exit -2), 1 failed (exit 1)"},
		{ExitCodes(map[int32]uint32{3: 1}), "1 failed (exit 3)"},
		{ShortSession("ses_0123456789abcdef"), "ses_01234567..."}, {ShortSession("ses_01234567"), "ses_01234567"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
	for v, want := range map[float64]uint64{-3: 0, math.NaN(): 0, 2.9: 2, math.Inf(1): math.MaxUint64} {
		if got := Whole(v); got != want {
			t.Errorf("Whole(%v) = %d, want %d", v, got, want)
		}
	}
}

func TestParseSince(t *testing.T) {
	for in, want := range map[string]uint64{"30m": 1_800_000, "2h": 7_200_000, "1d": 86_400_000, "0h": 0, "+5m": 300_000,
		"99999999999999999d": math.MaxUint64} {
		if got, err := ParseSince(in); err != nil || got != want {
			t.Errorf("ParseSince(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "2", "h", "2s", "-1h", "1.5h", "2H", "1 h"} {
		var d *diag.Error
		if _, err := ParseSince(in); !errors.As(err, &d) || d.Code != CodeSelect || !strings.Contains(err.Error(), "expected <N>m, <N>h, or <N>d") {
			t.Errorf("ParseSince(%q): %v", in, err)
		}
	}
}

func TestSessionTime(t *testing.T) {
	if ms, ok := SessionTime("ses_0199a1b2c3d47abc8def0123456789ab"); !ok || ms != 0x0199a1b2c3d4 {
		t.Errorf("got %x, %v", ms, ok)
	}
	for _, name := range []string{"ses_0199a1b2c3d", "ses_zzzzzzzzzzzz", "run_0199a1b2c3d4"} {
		if _, ok := SessionTime(name); ok {
			t.Errorf("%s has a time", name)
		}
	}
}
