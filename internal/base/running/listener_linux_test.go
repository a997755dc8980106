package running

import (
	"net"
	"strings"
	"testing"
)

func TestCheckListener(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	if err := CheckListener(port); err != nil {
		t.Errorf("our own listener: %v", err)
	}
	ln.Close()
	if err := CheckListener(port); err == nil || !strings.Contains(err.Error(), "nothing listens") {
		t.Errorf("a closed port: %v", err)
	}
}

func TestParseAddr(t *testing.T) {
	tests := []struct {
		in   string
		ip   string
		port int
	}{
		{"0100007F:1F90", "127.0.0.1", 8080},
		{"00000000:0050", "0.0.0.0", 80},
		{"00000000000000000000000001000000:0016", "::1", 22},
		{"0000000000000000FFFF00000100007F:0016", "127.0.0.1", 22},
	}
	for _, tt := range tests {
		ip, port, ok := parseAddr(tt.in)
		if !ok || ip.String() != tt.ip || port != tt.port {
			t.Errorf("parseAddr(%q) = %v %d %v, want %s %d", tt.in, ip, port, ok, tt.ip, tt.port)
		}
	}
	for _, bad := range []string{"", "7F:1", "0100007F", "0100007G:0001", "0100007F:10000"} {
		if _, _, ok := parseAddr(bad); ok {
			t.Errorf("parseAddr(%q) accepted", bad)
		}
	}
}
