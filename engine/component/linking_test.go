package component_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/mur-go/mur/engine/component"
	"github.com/mur-go/mur/engine/wit"
	"github.com/mur-go/mur/internal/testing/testguest"
)

var greetType = &wit.Func{Params: []wit.Param{{Name: "name", Type: wit.String}}, Result: wit.String}

// greeter defines what engine-imports and engine-nested import, with the
// greet interface under the given instance name; logged collects log calls.
func greeter(t *testing.T, instance string, logged *[]string) *component.Linker {
	t.Helper()
	l := component.NewLinker()
	err := l.Define(instance, "greet", greetType, func(ctx context.Context, s *component.Store, name string) (string, error) {
		return "hello, " + name, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	logType := &wit.Func{Params: []wit.Param{{Name: "msg", Type: wit.String}}}
	err = l.Define("", "log", logType, func(ctx context.Context, s *component.Store, msg string) error {
		*logged = append(*logged, msg)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func TestImportsBindBySemver(t *testing.T) {
	e := newEngine(t)
	c, err := e.Compile(context.Background(), testguest.Bytes(t, "engine-imports"))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		host    string
		wantErr string
	}{
		{host: "test:host/greet@0.2.12"}, // guest imports @0.2.6
		{host: "test:host/greet@0.2.6"},
		{host: "test:host/greet@0.2.0"},
		{host: "test:host/greet@0.3.0", wantErr: "test:host/greet@0.2.6#greet: component imports this function, but the host does not provide it (the host defines test:host/greet@0.3.0, which is not semver-compatible)"},
		{host: "test:host/greet@1.2.6", wantErr: "not semver-compatible"},
		{host: "test:host/greet", wantErr: "not semver-compatible"},
		{host: "test:other/greet@0.2.6", wantErr: "(no version of test:host/greet is defined)"},
	}
	for _, tt := range tests {
		t.Run(tt.host, func(t *testing.T) {
			var logged []string
			inst, err := greeter(t, tt.host, &logged).Instantiate(context.Background(), c, &component.Store{})
			if tt.wantErr != "" {
				var le *component.LinkError
				if !errors.As(err, &le) || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("got %v, want LinkError containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			for _, export := range []string{"run", "test:guest/api@1.2.0#run"} {
				got, err := call(t, inst, export, "wörld")
				if err != nil || got != "hello, wörld" {
					t.Fatalf("%s: got %v, %v", export, got, err)
				}
			}
			if len(logged) != 2 || logged[0] != "hello, wörld" {
				t.Fatalf("log calls: %q", logged)
			}
		})
	}
}

func TestImportTypeMismatchIsALinkError(t *testing.T) {
	e := newEngine(t)
	c, err := e.Compile(context.Background(), testguest.Bytes(t, "engine-imports"))
	if err != nil {
		t.Fatal(err)
	}
	l := component.NewLinker()
	wrong := &wit.Func{Params: []wit.Param{{Name: "name", Type: wit.String}}, Result: wit.U32}
	if err := l.DefineFunc("test:host/greet@0.2.0", "greet", wrong, func(context.Context, *component.Store, []any) (any, error) { return uint32(1), nil }); err != nil {
		t.Fatal(err)
	}
	_, err = l.Instantiate(context.Background(), c, &component.Store{})
	if err == nil || !strings.Contains(err.Error(), "test:host/greet@0.2.6#greet: imported with a different type than the host provides: result: string vs u32") {
		t.Fatalf("got %v", err)
	}
}

func TestHostErrorTrapsGuest(t *testing.T) {
	e := newEngine(t)
	c, err := e.Compile(context.Background(), testguest.Bytes(t, "engine-imports"))
	if err != nil {
		t.Fatal(err)
	}
	var logged []string
	l := greeter(t, "test:host/greet@0.2.6", &logged)
	boom := errors.New("host refused")
	if err := l.Define("test:host/greet@0.2.6", "greet", greetType, func(ctx context.Context, s *component.Store, name string) (string, error) {
		return "", boom
	}); err != nil {
		t.Fatal(err)
	}
	inst, err := l.Instantiate(context.Background(), c, &component.Store{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = call(t, inst, "run", "x")
	if !errors.Is(err, boom) {
		t.Fatalf("want the host's error, got %v", err)
	}
}

func TestNestedComponents(t *testing.T) {
	e := newEngine(t)
	c, err := e.Compile(context.Background(), testguest.Bytes(t, "engine-nested"))
	if err != nil {
		t.Fatal(err)
	}
	var logged []string
	inst, err := greeter(t, "test:host/greet@0.2.12", &logged).Instantiate(context.Background(), c, &component.Store{})
	if err != nil {
		t.Fatal(err)
	}
	got, err := call(t, inst, "hello", "nested ✓")
	if err != nil || got != "hello, nested ✓" {
		t.Fatalf("got %v, %v", got, err)
	}
}

func TestStringEncodings(t *testing.T) {
	inst := instantiate(t, newEngine(t), "engine-strings", nil)
	inputs := []string{"", "plain ascii", "latin1: café ÿ", "wide: 日本語 and 🌍", strings.Repeat("ab", 5000) + "é"}
	for _, export := range []string{"echo8", "echo16", "echo-compact"} {
		for _, in := range inputs {
			got, err := call(t, inst, export, in)
			if err != nil || got != in {
				t.Fatalf("%s(%.20q): got %.20q, %v", export, in, got, err)
			}
		}
	}
}
