package tools

import (
	"strings"
	"testing"

	"github.com/mur-go/mur/engine/component"
	"github.com/mur-go/mur/engine/wasip2"
)

func TestLimitDetailNamesEachLimit(t *testing.T) {
	for _, tc := range []struct {
		limit, key, detail string
	}{
		{component.LimitMemory, "memory_bytes", "linear memory growth to 9 bytes exceeds capabilities.limits.memory_bytes (8)"},
		{component.LimitTableElements, "table_elements", "table growth to 9 elements exceeds capabilities.limits.table_elements (8)"},
		{component.LimitLiftedBytes, "memory_bytes", "reached 9 bytes, over capabilities.limits.memory_bytes (8)"},
		{component.LimitHandles, "", "held 9 resource handles, over the runtime's per-store cap (8)"},
		{wasip2.LimitOpenFiles, "", "held 9 open files, over the runtime's per-store cap (8)"},
	} {
		key, detail := LimitDetail(&component.LimitError{Limit: tc.limit, Desired: 9, Max: 8})
		if key != tc.key || !strings.Contains(detail, tc.detail) {
			t.Errorf("%s: got (%q, %q), want key %q and a detail containing %q", tc.limit, key, detail, tc.key, tc.detail)
		}
		if hint := LimitHint(key); (key == "") != strings.Contains(hint, "fixed") {
			t.Errorf("%s: hint %q", tc.limit, hint)
		}
	}
}
