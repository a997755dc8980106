package wasip2

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestPipeReuse: bytes come out in order however writes and reads of
// different sizes interleave while the buffer is reset and compacted, and
// a steady stream stops allocating.
func TestPipeReuse(t *testing.T) {
	p := newPipe(1000)
	in := &pipeIn{p: p}
	rng := rand.New(rand.NewPCG(1, 2))
	var sent, got []byte
	buf := make([]byte, 700)
	for i := 0; len(got) < 200000; i++ {
		if room, _ := p.checkWrite(); room > 0 {
			b := make([]byte, rng.IntN(room)+1)
			for j := range b {
				b[j] = byte(len(sent) + j)
			}
			p.write(b)
			sent = append(sent, b...)
		}
		n, err := in.read(buf[:rng.IntN(len(buf))+1])
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, buf[:n]...)
	}
	if !bytes.Equal(got, sent[:len(got)]) {
		t.Fatal("bytes out of order")
	}
	chunk := make([]byte, 400)
	if a := testing.AllocsPerRun(100, func() {
		p.write(chunk)
		in.read(buf)
		in.read(buf)
	}); a != 0 {
		t.Fatalf("%v allocations per write+read", a)
	}
}

// TestPipeTakesWritesWhole: bytes given to an empty pipe become its
// buffer without a copy; what follows is appended without ever writing
// past the bytes that were given, and everything comes out once, in
// order.
func TestPipeTakesWritesWhole(t *testing.T) {
	for _, tc := range []struct {
		name       string
		first      int // bytes of the first write, in an array of twice that
		readBefore int // read between the writes
		second     int
	}{
		{"appended after a partial read", 10, 4, 8},
		{"appended before any read", 10, 0, 3},
		{"after a full drain", 10, 10, 5},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := newPipe(1000)
			in := &pipeIn{p: p}
			arr := bytes.Repeat([]byte{'a'}, 2*tc.first)
			for i := tc.first; i < len(arr); i++ {
				arr[i] = 'z'
			}
			p.give(arr[:tc.first])
			buf := make([]byte, 100)
			var got []byte
			if tc.readBefore > 0 {
				n, _ := in.read(buf[:tc.readBefore])
				got = append(got, buf[:n]...)
			}
			p.give(bytes.Repeat([]byte{'b'}, tc.second))
			for {
				n, _ := in.read(buf)
				if n == 0 {
					break
				}
				got = append(got, buf[:n]...)
			}
			if want := strings.Repeat("a", tc.first) + strings.Repeat("b", tc.second); string(got) != want {
				t.Fatalf("read %q, want %q", got, want)
			}
			if tail := string(arr[tc.first:]); tail != strings.Repeat("z", tc.first) {
				t.Fatalf("the pipe wrote past the bytes it was given: %q", tail)
			}
		})
	}
}

// TestPipeWriteCopies: write, unlike give, keeps nothing of the caller's
// buffer, which splice reuses (the store's scratch) for its next read.
func TestPipeWriteCopies(t *testing.T) {
	p := newPipe(1000)
	scratch := []byte("first")
	p.write(scratch)
	copy(scratch, "XXXXX")
	buf := make([]byte, 10)
	if n, _ := (&pipeIn{p: p}).read(buf); string(buf[:n]) != "first" {
		t.Fatalf("read %q, want %q", buf[:n], "first")
	}
}
