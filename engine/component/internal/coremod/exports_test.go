package coremod

import (
	"slices"
	"testing"
)

func TestExports(t *testing.T) {
	exportSec := cat([]byte{7, 2}, name("run"), []byte{0x00, 0}, name("memory"), []byte{0x02, 0})
	tests := []struct {
		name    string
		module  []byte
		want    []Export
		wantErr bool
	}{
		{name: "none", module: module(typeSec)},
		{name: "two", module: module(typeSec, exportSec), want: []Export{{"run", KindFunc}, {"memory", KindMemory}}},
		{name: "truncated", module: module(cat([]byte{7, 1}, name("run"))), wantErr: true},
		{name: "bad magic", module: []byte("\x00asm\x02\x00\x00\x00"), wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Exports(tt.module)
			if (err != nil) != tt.wantErr {
				t.Fatalf("err %v; want error %v", err, tt.wantErr)
			}
			if !slices.Equal(got, tt.want) {
				t.Fatalf("got %v; want %v", got, tt.want)
			}
		})
	}
}
