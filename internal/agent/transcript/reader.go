package transcript

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"

	"github.com/mur-go/mur/internal/base/confined"
)

// Bounds on what Read takes of a file a guest may have written.
const (
	// MaxLine is the longest line read: an entry's text and error at
	// Cap, each byte escaped, and its other fields fit well within it.
	MaxLine = 1 << 20
	// MaxBytes is the most of a file read; the rest is reported, not read.
	MaxBytes = 256 << 20
	// maxProblems is how many problems are listed one by one.
	maxProblems = 100
)

// File is what Read took from a transcript: the entries it could read,
// in order, and a line for each it could not.
type File struct {
	Entries  []Entry
	Problems []string
}

// ReadSession reads dir/transcript.jsonl, refusing a link planted at that
// name and anything but a regular file.
func ReadSession(dir string) (File, error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return File{}, err
	}
	defer root.Close()
	f, err := confined.OpenFile(root, FileName, os.O_RDONLY, 0)
	if err != nil {
		return File{}, err
	}
	defer f.Close()
	return Read(f, filepath.Join(dir, FileName))
}

// Read parses r (named name in problems). A line that is too long, not a
// JSON object of this format, of an unknown kind, or the last line
// without its newline and cut short, is skipped and reported; so is
// whatever lies past MaxBytes. The error is only a failure to read r.
func Read(r io.Reader, name string) (File, error) {
	var f File
	problem := func(line int, format string, args ...any) {
		if len(f.Problems) < maxProblems {
			f.Problems = append(f.Problems, fmt.Sprintf("%s:%d: ", name, line)+fmt.Sprintf(format, args...))
		} else if len(f.Problems) == maxProblems {
			f.Problems = append(f.Problems, fmt.Sprintf("%s: more lines could not be read; only the first %d are listed", name, maxProblems))
		}
	}
	cr := &counter{r: io.LimitReader(r, MaxBytes+1)}
	br := bufio.NewReaderSize(cr, 64<<10)
	for n := 1; ; n++ {
		raw, long, err := readLine(br)
		if err != nil && err != io.EOF {
			return f, err
		}
		if cr.n > MaxBytes {
			problem(n, "the file is larger than %d MiB; the rest is not read", MaxBytes>>20)
			return f, nil
		}
		if err == io.EOF && len(raw) == 0 && !long {
			return f, nil
		}
		if long {
			problem(n, "the line is longer than %d KiB; skipped", MaxLine>>10)
		} else if en, perr := parse(raw); perr != nil {
			problem(n, "%v; skipped", perr)
		} else {
			f.Entries = append(f.Entries, en)
		}
		if err == io.EOF {
			return f, nil
		}
	}
}

// counter counts the bytes read through it.
type counter struct {
	r io.Reader
	n int64
}

func (c *counter) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// readLine is the next line without its newline; err is io.EOF for the
// last line when it has none. A line longer than MaxLine is read through
// and reported long, without being held.
func readLine(br *bufio.Reader) (line []byte, long bool, err error) {
	for {
		chunk, err := br.ReadSlice('\n')
		if !long {
			if len(line)+len(chunk) > MaxLine+1 {
				long, line = true, nil
			} else {
				line = append(line, chunk...)
			}
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		return bytes.TrimSuffix(line, []byte("\n")), long, err
	}
}

// parse decodes one line, checking what the viewers rely on.
func parse(raw []byte) (Entry, error) {
	var en Entry
	if err := json.Unmarshal(raw, &en); err != nil {
		var syn *json.SyntaxError
		if errors.As(err, &syn) {
			return en, fmt.Errorf("not a JSON object (%v)", err)
		}
		return en, fmt.Errorf("not a transcript entry (%v)", err)
	}
	switch {
	case en.Kind == "":
		return en, errors.New(`no "kind"`)
	case !knownKind(en.Kind):
		return en, fmt.Errorf("unknown kind %.40q", en.Kind)
	case en.Time.IsZero():
		return en, errors.New(`no "time"`)
	case en.DurationMS < 0 || math.IsInf(en.DurationMS, 0) || en.DurationMS > float64(math.MaxInt64/1e6):
		return en, fmt.Errorf("duration_ms %v is not a duration", en.DurationMS)
	case en.FirstMessage != nil && (*en.FirstMessage < 0 || *en.FirstMessage > en.Messages):
		return en, fmt.Errorf("first_message %d is not within the request's %d messages", *en.FirstMessage, en.Messages)
	}
	return en, nil
}
