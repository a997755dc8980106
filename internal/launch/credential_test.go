package launch

import (
	"context"
	"errors"
	"testing"

	"github.com/mur-go/mur/internal/base/redact"
	"github.com/mur-go/mur/internal/format/manifest"
	"github.com/mur-go/mur/internal/stage"
	"github.com/mur-go/mur/internal/tools"
)

func TestKeyEnvValue(t *testing.T) {
	for _, tc := range []struct {
		name string
		key  string
		raw  bool
		want string
	}{
		{"gateway", "sk-1", false, KeyPlaceholder},
		{"raw opt-out", "sk-1", true, "sk-1"},
		{"empty key", "", false, ""},
	} {
		if got := keyEnvValue(&manifest.Inference{APIKey: tc.key, HasAPIKey: true}, tc.raw); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestDriverCredential(t *testing.T) {
	inf := &manifest.Inference{Endpoint: "https://API.example.com/v1", APIKey: "sk-1", HasAPIKey: true}
	a := &stage.Artifact{Manifest: &manifest.Artifact{Credential: &manifest.Credential{Header: "Authorization", Prefix: "Bearer "}}}
	c, err := driverCredential(inf, a)
	if err != nil || c.Origin != "https://api.example.com:443" || c.Header != "Authorization" || c.Prefix != "Bearer " || c.Placeholder != KeyPlaceholder || c.Secret != "sk-1" {
		t.Fatalf("%+v, %v", c, err)
	}
	if c, _ := driverCredential(&manifest.Inference{Endpoint: "https://x"}, a); c != nil {
		t.Errorf("no key, yet credential %+v", c)
	}
	if c, _ := driverCredential(inf, &stage.Artifact{}); c == nil || c.Header != "" {
		t.Errorf("an undeclared driver gets placeholder substitution only: %+v", c)
	}
}

type answer struct {
	res tools.ToolResult
	err error
}

func (a answer) Invoke(context.Context, tools.ToolInput) (tools.ToolResult, error) {
	return a.res, a.err
}

func TestRedactingDriver(t *testing.T) {
	leak := "key sk-1 here"
	inner := errors.New("failed with sk-1")
	r := redacting{secrets: redact.New("sk-1"), tool: answer{err: inner, res: tools.ToolResult{Summary: &leak, Data: &leak,
		Metadata: []tools.Pair{{Key: "k", Value: leak}}}}}
	res, err := r.Invoke(context.Background(), tools.ToolInput{})
	for _, s := range []string{*res.Summary, *res.Data, res.Metadata[0].Value, err.Error()} {
		if s == leak || s == inner.Error() || len(s) == 0 {
			t.Errorf("not redacted: %q", s)
		}
	}
	if !errors.Is(err, inner) {
		t.Error("redaction lost the error's identity")
	}
}
