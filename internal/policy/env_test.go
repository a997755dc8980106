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
