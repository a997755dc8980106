package cli

import "testing"

// What reads as a URL is used as one; everything else is a capsule's
// name, id or ordinal, looked up in the registry.
func TestIsURL(t *testing.T) {
	for arg, want := range map[string]bool{
		"localhost:38051":        true,
		"127.0.0.1:80":           true,
		"[::1]:8080":             true,
		"http://agent.example":   true,
		"HTTPS://agent.example/": true,
		"@1":                     false,
		"@1:2":                   false,
		"ses_01a24dc7184577f6":   false,
		"93fb39":                 false,
		"my-capsule":             false,
		"agent.example":          false,
		"localhost:0":            false,
		"localhost:http":         false,
		"/tmp/work:1":            false,
		"":                       false,
	} {
		if got := isURL(arg); got != want {
			t.Errorf("isURL(%q) = %v, want %v", arg, got, want)
		}
	}
}

func TestLoopbackPort(t *testing.T) {
	for arg, want := range map[string]int{
		"localhost:38051":         38051,
		"http://127.0.0.1:80/x":   80,
		"http://[::1]:8080":       8080,
		"http://agent.example:80": 0,
		"10.0.0.1:80":             0,
	} {
		got, ok := loopbackPort(arg)
		if (want != 0) != ok || got != want && ok {
			t.Errorf("loopbackPort(%q) = %d, %v; want %d", arg, got, ok, want)
		}
	}
}
