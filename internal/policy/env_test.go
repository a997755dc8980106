package policy

import (
	"reflect"
	"testing"
)

func TestMatchEnvPattern(t *testing.T) {
	for _, c := range []struct {
		pattern, key string
		want         bool
	}{
		{"AWS_*", "AWS_REGION", true},
		{"AWS_*", "MY_AWS_X", false},
		{"*_API_KEY", "MURMUR_INFERENCE_API_KEY", true},
		{"*_API_KEY", "API_KEY", false},
		{"*SECRET*", "MY_SECRET_VALUE", true},
		{"GH_TOKEN", "GH_TOKEN", true},
		{"GH_TOKEN", "gh_token", false},
		{"*", "ANYTHING", true},
		{"A*B", "AxB", false},
		{"A*B", "A*B", true},
	} {
		if got := MatchEnvPattern(c.pattern, c.key); got != c.want {
			t.Errorf("MatchEnvPattern(%q, %q) = %v", c.pattern, c.key, got)
		}
	}
}

func TestGuestEnv(t *testing.T) {
	host := map[string]string{"LANG": "C", "OPENAI_API_KEY": "sk", "SLACK_TOKEN": "t", "X_PRIVATE": "p"}
	getenv := func(k string) (string, bool) { v, ok := host[k]; return v, ok }
	got := GuestEnv(getenv, []string{"LANG", "OPENAI_API_KEY", "SLACK_TOKEN", "X_PRIVATE", "UNSET"}, []string{"X_*"})
	want := [][2]string{{"LANG", "C"}, {"SLACK_TOKEN", "t"}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("GuestEnv = %v, want %v", got, want)
	}
}

// The OpenTelemetry exporter headers carry the collector's credentials:
// no guest gets them, whatever env.allow or baseline_env asks; the
// endpoint and protocol are no secret.
func TestOTLPHeadersStripped(t *testing.T) {
	host := map[string]string{"OTEL_EXPORTER_OTLP_HEADERS": "authorization=Bearer%20x", "OTEL_EXPORTER_OTLP_TRACES_HEADERS": "k=v",
		"OTEL_EXPORTER_OTLP_METRICS_HEADERS": "k=v", "OTEL_EXPORTER_OTLP_LOGS_HEADERS": "k=v", "OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318"}
	getenv := func(k string) (string, bool) { v, ok := host[k]; return v, ok }
	var allow []string
	for k := range host {
		allow = append(allow, k)
	}
	got := GuestEnv(getenv, allow, nil)
	want := [][2]string{{"OTEL_EXPORTER_OTLP_ENDPOINT", "http://c:4318"}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("GuestEnv = %v, want %v", got, want)
	}
}
