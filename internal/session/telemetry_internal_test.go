package session

import (
	"testing"

	"github.com/mur-go/mur/internal/format/manifest"
	"github.com/mur-go/mur/internal/launch"
)

// Hooks are told observability.otel_endpoint as MURMUR_OTEL_ENDPOINT
// (wit.md §6.7): the manifest's field, over whatever the host has; without
// the field they see the host's as before.
func TestHooksToldTheOtelEndpoint(t *testing.T) {
	host := map[string]string{"MURMUR_OTEL_ENDPOINT": "http://host:4318", "MURMUR_FORMATION_ID": "f1"}
	g := launch.GuestIO{Getenv: func(k string) (string, bool) { v, ok := host[k]; return v, ok }}
	for _, c := range []struct{ field, want string }{{"http://collector:4318", "http://collector:4318"}, {"", "http://host:4318"}} {
		io := hookIO(g, &manifest.Capsule{OtelEndpoint: c.field})
		if v, ok := io.Getenv("MURMUR_OTEL_ENDPOINT"); !ok || v != c.want {
			t.Errorf("field %q: MURMUR_OTEL_ENDPOINT = %q, %v, want %q", c.field, v, ok, c.want)
		}
		if v, _ := io.Getenv("MURMUR_FORMATION_ID"); v != "f1" {
			t.Errorf("field %q: MURMUR_FORMATION_ID = %q", c.field, v)
		}
	}
}
