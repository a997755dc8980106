//go:build linux

package session

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// fileID names a file the way /proc/PID/maps does: device and inode.
type fileID struct{ major, minor, inode uint64 }

// mapping is one entry of /proc/PID/smaps, with the fields
// releaseFilePages decides on.
type mapping struct {
	start, end       uintptr
	writable, shared bool
	file             fileID
	rssKB, anonKB    uint64
}

// parseMappings reads /proc/PID/smaps: a header line per mapping
// ("start-end perms offset major:minor inode [path]") followed by
// "Key: value [kB]" lines.
func parseMappings(r io.Reader) ([]mapping, error) {
	var maps []mapping
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) < 2 {
			continue
		}
		if key, ok := strings.CutSuffix(fields[0], ":"); ok {
			if len(maps) == 0 {
				return nil, fmt.Errorf("%q before the first mapping", sc.Text())
			}
			m := &maps[len(maps)-1]
			var err error
			switch key {
			case "Rss":
				m.rssKB, err = strconv.ParseUint(fields[1], 10, 64)
			case "Anonymous":
				m.anonKB, err = strconv.ParseUint(fields[1], 10, 64)
			}
			if err != nil {
				return nil, fmt.Errorf("unexpected line %q: %w", sc.Text(), err)
			}
			continue
		}
		m, err := parseMappingHeader(fields)
		if err != nil {
			return nil, err
		}
		maps = append(maps, m)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	return maps, nil
}

func parseMappingHeader(fields []string) (mapping, error) {
	line := strings.Join(fields, " ")
	if len(fields) < 5 || len(fields[1]) != 4 {
		return mapping{}, fmt.Errorf("unexpected mapping line %q", line)
	}
	lo, hi, _ := strings.Cut(fields[0], "-")
	major, minor, _ := strings.Cut(fields[3], ":")
	var m mapping
	var start, end uint64
	var errs [5]error
	start, errs[0] = strconv.ParseUint(lo, 16, 64)
	end, errs[1] = strconv.ParseUint(hi, 16, 64)
	m.file.major, errs[2] = strconv.ParseUint(major, 16, 32)
	m.file.minor, errs[3] = strconv.ParseUint(minor, 16, 32)
	m.file.inode, errs[4] = strconv.ParseUint(fields[4], 10, 64)
	for _, err := range errs {
		if err != nil {
			return mapping{}, fmt.Errorf("unexpected mapping line %q: %w", line, err)
		}
	}
	if end < start {
		return mapping{}, fmt.Errorf("unexpected mapping line %q: it ends before it starts", line)
	}
	m.start, m.end = uintptr(start), uintptr(end)
	m.writable, m.shared = fields[1][1] == 'w', fields[1][3] == 's'
	return m, nil
}
