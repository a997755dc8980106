//go:build linux

package session

import (
	"encoding/binary"
	"hash/crc32"
	"io"
	"os"
	"runtime/debug"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// pageSize is the unit of /proc/self/pagemap.
var pageSize = uintptr(os.Getpagesize())

// smapsFixture is /proc/PID/smaps of a process whose executable is
// device fe:00, inode 42, cut to the fields parseMappings reads.
const smapsFixture = `00400000-00f0a000 r-xp 00000000 fe:00 42    /usr/bin/mur
Size:              11304 kB
Rss:               10344 kB
Anonymous:             0 kB
00f0a000-01e13000 r--p 00afa000 fe:00 42    /usr/bin/mur
Rss:               11684 kB
Anonymous:             0 kB
01e13000-03029000 rw-p 01a13000 fe:00 42    /usr/bin/mur
Rss:                 536 kB
Anonymous:           120 kB
03029000-03040000 r-xp 01c00000 fe:00 42    /usr/bin/mur
Rss:                   8 kB
Anonymous:             4 kB
03040000-03050000 r--s 01c17000 fe:00 42    /usr/bin/mur
Rss:                  16 kB
Anonymous:             0 kB
03050000-03060000 r--p 01c27000 fe:00 42    /usr/bin/mur
Rss:                   0 kB
Anonymous:             0 kB
7f0000000000-7f0000100000 r--p 00000000 fe:01 42    /data/other
Rss:                1024 kB
Anonymous:             0 kB
7f52c8ce000-7f52d5a5000 r-xp 00000000 00:00 0 
Rss:               13148 kB
Anonymous:         13148 kB
7ffda06fa000-7ffda071b000 rw-p 00000000 00:00 0                          [stack]
Rss:                  12 kB
Anonymous:            12 kB
7ffda0800000-7ffda0802000 r-xp 00000000 00:00 0                          [vdso]
Rss:                   8 kB
Anonymous:             0 kB
`

// Only clean read-only private pages of a file are released (the
// executable's, compiled guest code mapped from the cache, any other
// file's): the data segment is written, a mapping with a private copy in
// it (a debugger's breakpoint) would lose the copy, a shared mapping's
// pages are the file's own, and anonymous memory (code compiled in the
// process, stacks, the vDSO) cannot be read back from anywhere.
func TestReleasableIsCleanReadOnlyFilePages(t *testing.T) {
	maps, err := parseMappings(strings.NewReader(smapsFixture))
	if err != nil {
		t.Fatal(err)
	}
	if len(maps) != 10 {
		t.Fatalf("parsed %d mappings, want 10", len(maps))
	}
	tests := []struct {
		start uintptr
		want  bool
	}{
		{0x00400000, true},      // code
		{0x00f0a000, true},      // read-only data and pclntab
		{0x01e13000, false},     // data: writable
		{0x03029000, false},     // a page written under a debugger
		{0x03040000, false},     // shared
		{0x03050000, false},     // nothing resident
		{0x7f0000000000, true},  // another file: compiled code from the cache
		{0x7f52c8ce000, false},  // anonymous code
		{0x7ffda06fa000, false}, // stack
		{0x7ffda0800000, false}, // vDSO: no file
	}
	got := map[uintptr]bool{}
	for _, m := range releasable(maps) {
		got[m.start] = true
	}
	for _, tt := range tests {
		if got[tt.start] != tt.want {
			t.Errorf("mapping at %#x: releasable %v, want %v", tt.start, got[tt.start], tt.want)
		}
	}
}

func TestParseMappingsRefusesWhatIsNotSmaps(t *testing.T) {
	tests := []struct{ name, in string }{
		{"a field before any mapping", "Rss: 4 kB\n"},
		{"a short header", "00400000-00f0a000 r-xp 00000000\n"},
		{"bad permissions", "00400000-00f0a000 r-x 00000000 fe:00 42\n"},
		{"a bad address", "0040zz00-00f0a000 r-xp 00000000 fe:00 42\n"},
		{"an end before the start", "00f0a000-00400000 r-xp 00000000 fe:00 42\n"},
		{"a bad device", "00400000-00f0a000 r-xp 00000000 fe 42\n"},
		{"a bad size", "00400000-00f0a000 r-xp 00000000 fe:00 42\nRss: many kB\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if maps, err := parseMappings(strings.NewReader(tt.in)); err == nil {
				t.Fatalf("parsed %+v, want an error", maps)
			}
		})
	}
}

// The release unmaps the executable's resident read-only pages, and what
// comes back on the next touch is the same bytes: the code keeps running
// and the read-only data reads the same.
func TestReleaseFilePagesDropsAndRefaultsTheSamePages(t *testing.T) {
	exe, err := exeID()
	if err != nil {
		t.Fatal(err)
	}
	ro := readOnlyMappings(t, exe)
	// Between the release and the count below, the code that runs faults
	// pages back in, and with them their neighbourhoods (or, on kernels
	// that map a page cache folio whole, up to 2 MiB each): the count
	// allocates nothing (a heap profile sample walks the pclntab) and no
	// collection runs (it walks type data).
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	pages := newPageMap(t, ro)
	before := checksum(t, ro)
	resident := pages.present(t)
	n, err := releaseFilePages()
	if err != nil {
		t.Fatal(err)
	}
	left := pages.present(t)
	t.Logf("released %d bytes; %d of %d resident pages mapped again at once", n, left, resident)
	if n == 0 || left > resident/2 {
		t.Errorf("released %d bytes; %d of %d resident pages still mapped", n, left, resident)
	}
	if after := checksum(t, ro); after != before {
		t.Errorf("the executable's read-only pages read %08x after the release, %08x before", after, before)
	}
}

func readOnlyMappings(t *testing.T, exe fileID) []mapping {
	t.Helper()
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		t.Fatalf("the test needs procfs: %v", err)
	}
	defer f.Close()
	maps, err := parseMappings(f)
	if err != nil {
		t.Fatal(err)
	}
	var ro []mapping
	for _, m := range maps {
		if m.file == exe && !m.writable && !m.shared {
			ro = append(ro, m)
		}
	}
	if len(ro) == 0 {
		t.Fatal("the test binary has no read-only mappings of its executable")
	}
	return ro
}

// checksum reads every page of the mappings through /proc/self/mem, which
// faults them in as the code's own reads would.
func checksum(t *testing.T, maps []mapping) uint32 {
	t.Helper()
	mem, err := os.Open("/proc/self/mem")
	if err != nil {
		t.Fatal(err)
	}
	defer mem.Close()
	h := crc32.NewIEEE()
	for _, m := range maps {
		if _, err := io.Copy(h, io.NewSectionReader(mem, int64(m.start), int64(m.end-m.start))); err != nil {
			t.Fatalf("reading the mapping at %#x: %v", m.start, err)
		}
	}
	return h.Sum32()
}

// pageMap reads the page-table entries of a set of mappings from
// /proc/self/pagemap into buffers allocated once.
type pageMap struct {
	f    *os.File
	maps []mapping
	bufs [][]byte
}

func newPageMap(t *testing.T, maps []mapping) *pageMap {
	t.Helper()
	f, err := os.Open("/proc/self/pagemap")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	p := &pageMap{f: f, maps: maps}
	for _, m := range maps {
		p.bufs = append(p.bufs, make([]byte, (m.end-m.start)/pageSize*8))
	}
	return p
}

// present counts the pages mapped (bit 63 of an entry).
func (p *pageMap) present(t *testing.T) int {
	n := 0
	for i, m := range p.maps {
		if _, err := p.f.ReadAt(p.bufs[i], int64(m.start/pageSize*8)); err != nil {
			t.Fatalf("reading the page map at %#x: %v", m.start, err)
		}
	}
	for _, b := range p.bufs {
		for i := 0; i < len(b); i += 8 {
			if binary.LittleEndian.Uint64(b[i:])>>63 != 0 {
				n++
			}
		}
	}
	return n
}

// exeID is the test binary's executable as /proc/PID/smaps names it.
func exeID() (fileID, error) {
	var st unix.Stat_t
	if err := unix.Stat("/proc/self/exe", &st); err != nil {
		return fileID{}, err
	}
	return fileID{uint64(unix.Major(st.Dev)), uint64(unix.Minor(st.Dev)), st.Ino}, nil
}
