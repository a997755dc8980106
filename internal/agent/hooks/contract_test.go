package hooks

import (
	"context"
	"slices"
	"testing"
)

// The seeds' resolution rules (wit.md §2.1, §6.2): by exact versioned
// instance name only, every required function or the session fails
// naming it, optional ones kept only when present.
func TestResolution(t *testing.T) {
	tests := []struct {
		guest    string
		version  Version
		optional []string
		kind     Kind
		err      string
	}{
		{guest: "hook-lifecycle", version: Lifecycle020},
		{guest: "hook-lifecycle-tasks", version: Lifecycle020, optional: []string{fnTaskStart, fnTaskEnd}},
		{guest: hookAnswer050, version: Lifecycle050, optional: []string{fnTaskStart, fnTaskEnd}},
		{guest: hookAnswer020, version: Lifecycle020, optional: []string{fnTaskStart, fnTaskEnd}},
		{guest: "hook-missing", kind: KindMissingFunction,
			err: "hook h@0.1.0 missing function murmur:hook/lifecycle@0.2.0#on-session-start"},
		{guest: "hook-unversioned", kind: KindMissingExport,
			err: "hook h@0.1.0 missing export murmur:hook/lifecycle@0.5.0; rebuild the hook against the versioned WIT (run `mur install` for a default artifact, or rebuild from source otherwise)"},
		{guest: hookFuture, kind: KindUnhostedVersion,
			err: "hook h@0.1.0 exports murmur:hook/lifecycle@0.6.0, a version this runtime does not host (it hosts murmur:hook/lifecycle@0.5.0 and murmur:hook/lifecycle@0.2.0); rebuild the hook against one of those (run `mur install` for a default artifact, or rebuild from source otherwise)"},
		{guest: "driver-canned", kind: KindMissingExport,
			err: "hook h@0.1.0 does not export murmur:hook/lifecycle@0.5.0; rebuild the hook against the current WIT (run `mur install` for a default artifact, or rebuild from source otherwise)"},
	}
	for _, tt := range tests {
		t.Run(tt.guest, func(t *testing.T) {
			s := staged(t, blocking("h", tt.guest))
			r, err := New(context.Background(), Options{Staged: s, Home: t.TempDir()})
			if tt.err != "" {
				if KindOf(err) != tt.kind || err.Error() != tt.err {
					t.Fatalf("New error = %v (%T), want kind %d:\n%s", err, err, tt.kind, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close(context.Background())
			in := r.blocking[0]
			if in.contract.version != tt.version {
				t.Errorf("bound version %s, want %s", in.contract.version, tt.version)
			}
			for _, fn := range requiredFns {
				if in.funcs[fn] == nil {
					t.Errorf("required %s not resolved", fn)
				}
			}
			for _, fn := range optionalFns {
				if got := in.funcs[fn] != nil; got != slices.Contains(tt.optional, fn) {
					t.Errorf("optional %s resolved = %v", fn, got)
				}
			}
		})
	}
}

// A hook compiled before on-task-start/on-task-end is never dispatched
// those events, and nothing is logged; a hook exporting them gets one
// call per task (the seed's queue-mode count).
func TestTaskEventsPerTask(t *testing.T) {
	s := staged(t, blocking("old", "hook-lifecycle").bound(fnTaskStart), blocking("errs", hookErrs))
	r := startRuntime(t, Options{Staged: s})
	ctx := context.Background()
	if err := r.SessionStart(ctx, sessionCtx); err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"tsk_1", "tsk_2", "tsk_3"} {
		r.TaskStart(ctx, agentTaskStart(id))
		r.TaskEnd(ctx, agentTaskEnd(id))
	}
	r.SessionEnd(ctx, agentSessionEnd())
	if got := hookLog(t, s, "old"); got != nil {
		t.Errorf("hook without task functions logged %q", got)
	}
	want := []string{fnSessionStart, fnTaskStart, fnTaskEnd, fnTaskStart, fnTaskEnd, fnTaskStart, fnTaskEnd, fnSessionEnd}
	if got := hookLog(t, s, "errs"); !slices.Equal(got, want) {
		t.Errorf("hook-errs log = %q, want %q", got, want)
	}
	if f := r.TakeFaults(); len(f) != 0 {
		t.Errorf("faults %v: a blocking hook's err is logged only", f)
	}
}
