package wasip2

import (
	"bytes"
	"math/rand/v2"
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
