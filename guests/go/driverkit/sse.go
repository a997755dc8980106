package driverkit

import (
	"bufio"
	"bytes"
	"io"
)

// Event is one server-sent event.
type Event struct {
	Name string // the event: field, "" when absent
	Data []byte // data: lines joined by \n
}

// maxEventLine bounds one SSE line, so a provider that never sends a
// newline cannot make the driver buffer without end.
const maxEventLine = 16 << 20

// Events reads server-sent events from r and calls fn for each, stopping
// at the first error fn returns.
func Events(r io.Reader, fn func(Event) error) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), maxEventLine)
	var ev Event
	var data [][]byte
	flush := func() error {
		if len(data) == 0 && ev.Name == "" {
			return nil
		}
		ev.Data = bytes.Join(data, []byte("\n"))
		e := ev
		ev, data = Event{}, nil
		return fn(e)
	}
	for sc.Scan() {
		line := bytes.TrimSuffix(sc.Bytes(), []byte("\r"))
		if len(line) == 0 {
			if err := flush(); err != nil {
				return err
			}
			continue
		}
		if line[0] == ':' {
			continue
		}
		field, value, _ := bytes.Cut(line, []byte(":"))
		value = bytes.TrimPrefix(value, []byte(" "))
		switch string(field) {
		case "event":
			ev.Name = string(value)
		case "data":
			data = append(data, append([]byte(nil), value...))
		}
	}
	if err := sc.Err(); err != nil {
		return err
	}
	return flush()
}
