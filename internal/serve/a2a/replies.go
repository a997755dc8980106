package a2a

// replyChunk is the size of a chunk of the kept replies' bytes.
const replyChunk = 64 << 10

// replyRing holds the newest finished tasks' replies, each the task as
// GetTask returned it when it settled, JSON-encoded, oldest first, in
// 64 KiB chunks: a reply is one run of bytes rather than the dozens of
// small objects of its Task, and the oldest chunk is freed whole once
// every reply in it was forgotten, so the replies a capsule keeps never
// fragment its heap.
type replyRing struct {
	chunks [][]byte
	chunk0 int         // number of the chunk at chunks[0]
	kept   []keptReply // oldest first
	next   uint64      // serial of the next reply; serials start at 1
}

// keptReply is where a reply's bytes are.
type keptReply struct {
	chunk    int
	off, end int
}

// add keeps blob and returns its serial.
func (r *replyRing) add(blob []byte) uint64 {
	if r.next == 0 {
		r.next = 1
	}
	n := len(r.chunks) - 1
	if n < 0 || cap(r.chunks[n])-len(r.chunks[n]) < len(blob) {
		r.chunks = append(r.chunks, make([]byte, 0, max(replyChunk, len(blob))))
		n++
	}
	off := len(r.chunks[n])
	r.chunks[n] = append(r.chunks[n], blob...)
	r.kept = append(r.kept, keptReply{chunk: r.chunk0 + n, off: off, end: len(r.chunks[n])})
	r.next++
	return r.next - 1
}

// len is how many replies are kept.
func (r *replyRing) len() int { return len(r.kept) }

// forgetOldest drops the oldest reply, and the chunks no kept reply is in.
func (r *replyRing) forgetOldest() {
	if len(r.kept) == 0 {
		return
	}
	// Re-slicing, not shifting, keeps it O(1); append reallocates the
	// array once it is full.
	r.kept[0] = keptReply{}
	r.kept = r.kept[1:]
	low := r.chunk0 + len(r.chunks) - 1 // the chunk being filled stays
	if len(r.kept) > 0 {
		low = r.kept[0].chunk
	}
	for r.chunk0 < low {
		r.chunks[0] = nil
		r.chunks = r.chunks[1:]
		r.chunk0++
	}
}

// get is the reply with serial s, nil once it was forgotten.
func (r *replyRing) get(s uint64) []byte {
	first := r.next - uint64(len(r.kept))
	if s == 0 || s < first || s >= r.next {
		return nil
	}
	k := r.kept[s-first]
	return r.chunks[k.chunk-r.chunk0][k.off:k.end]
}
