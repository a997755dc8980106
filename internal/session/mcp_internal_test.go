package session

import (
	"context"
	"errors"
	"net"
	"testing"
)

// An --http address that names no host binds loopback: reaching beyond
// this machine is asked for by name.
func TestListenMCPBindsLoopbackUnlessTold(t *testing.T) {
	tests := []struct {
		addr     string
		loopback bool
	}{
		{":0", true},
		{"127.0.0.1:0", true},
		{"0.0.0.0:0", false},
	}
	for _, tt := range tests {
		ln, err := listenMCP(context.Background(), tt.addr)
		if err != nil {
			t.Fatalf("%s: %v", tt.addr, err)
		}
		ip := ln.Addr().(*net.TCPAddr).IP
		ln.Close()
		if ip.IsLoopback() != tt.loopback {
			t.Errorf("--http %s bound %s, want loopback %v", tt.addr, ip, tt.loopback)
		}
	}
	if _, err := listenMCP(context.Background(), "localhost"); !errors.Is(err, ErrOption) {
		t.Errorf("--http localhost: %v, want a refused option", err)
	}
}
