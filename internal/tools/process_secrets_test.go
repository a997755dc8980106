//go:build unix

package tools

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
)

// A Process's Secrets reach the child only in its environment: set last,
// over any variable of the same name Env has, and a Path or argv that
// would carry a secret's value refuses to start, so nothing shows it in
// /proc/<pid>/cmdline.
func TestProcessSecrets(t *testing.T) {
	const secret = "0123456789abcdef0123456789abcdef"
	tests := []struct {
		name   string
		args   []string
		refuse bool
	}{
		{"the environment only", []string{"sh", "-c", `printf '%s|%s' "$BRIDGE_TOKEN" "$OTHER"`}, false},
		{"the value as an argument", []string{"sh", "-c", `true`, secret}, true},
		{"the value inside an argument", []string{"sh", "-c", `echo {"Authorization":"Bearer ` + secret + `"}`}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out bytes.Buffer
			p := Process{Path: "/bin/sh", Args: tt.args, Dir: t.TempDir(), Stdout: &out,
				Env:     []string{"PATH=/usr/bin:/bin", "BRIDGE_TOKEN=from-the-host", "OTHER=kept"},
				Secrets: [][2]string{{"BRIDGE_TOKEN", secret}}}
			cmd, err := p.Start(context.Background())
			if tt.refuse {
				if !errors.Is(err, ErrSecretInArgv) || cmd != nil {
					t.Fatalf("Start = %v, %v; want ErrSecretInArgv and nothing started", cmd, err)
				}
				if strings.Contains(err.Error(), secret) {
					t.Fatalf("the refusal shows the secret: %v", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Wait(); err != nil {
				t.Fatal(err)
			}
			if got, want := out.String(), secret+"|kept"; got != want {
				t.Fatalf("the child saw %q, want %q", got, want)
			}
		})
	}
}
