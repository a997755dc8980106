package eval

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/mur-go/mur/internal/base/diag"
)

// ParseRecords decodes an eval.jsonl read from name: one record per
// line, blank lines skipped and each line trimmed (as Murmur reads it),
// unknown fields ignored; the first line that does not decode fails the
// whole file (E-EVAL-001 at name:line).
func ParseRecords(name string, data []byte) (*File, error) {
	f := &File{}
	err := eachLine(name, data, func(_ int, line string) error {
		o, err := readObject(line)
		if err != nil {
			return err
		}
		typ, err := o.str("record_type")
		if err != nil {
			return err
		}
		switch typ {
		case TypeEventScore:
			e, err := eventScore(o)
			if err != nil {
				return err
			}
			f.Events = append(f.Events, e)
		case TypeDatasetRun:
			r, err := datasetRun(o)
			if err != nil {
				return err
			}
			f.Run = &r
		default:
			return fmt.Errorf("unknown record_type %q: expected %q or %q", typ, TypeEventScore, TypeDatasetRun)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return f, nil
}

// eachLine calls fn with every non-blank line of data, trimmed, and its
// number; a failure is placed at name and the line's number, E-EVAL-001
// unless fn coded it. data must be UTF-8 (Murmur reads the file as a
// string, and refuses it otherwise).
func eachLine(name string, data []byte, fn func(n int, line string) error) error {
	for n, line := range strings.Split(string(data), "\n") {
		if !utf8.ValidString(line) {
			return diag.New(CodeIO, "failed to read %s: line %d is not valid UTF-8", name, n+1)
		}
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		if err := fn(n+1, line); err != nil {
			at := diag.Pos{File: name, Line: n + 1}
			if d, ok := err.(*diag.Error); ok {
				return d.At(at)
			}
			return diag.Wrap(CodeParse, err, "%v", err).At(at)
		}
	}
	return nil
}

func eventScore(o object) (EventScore, error) {
	var e EventScore
	var err error
	if e.TS, err = o.uint("ts", 64); err != nil {
		return e, err
	}
	turn, err := o.uint("turn", 32)
	if err != nil {
		return e, err
	}
	e.Turn = uint32(turn)
	if e.EventType, err = o.str("event_type"); err != nil {
		return e, err
	}
	if e.Scorer, err = o.str("scorer"); err != nil {
		return e, err
	}
	if e.Result, err = o.str("result"); err != nil {
		return e, err
	}
	if e.Score, err = o.optFloat("score"); err != nil {
		return e, err
	}
	e.Reason, err = o.optStr("reason")
	return e, err
}

func datasetRun(o object) (DatasetRun, error) {
	var r DatasetRun
	var err error
	if r.TS, err = o.uint("ts", 64); err != nil {
		return r, err
	}
	if r.DatasetID, err = o.optStr("dataset_id"); err != nil {
		return r, err
	}
	if r.CaseID, err = o.optStr("case_id"); err != nil {
		return r, err
	}
	if r.Overall, err = o.str("overall"); err != nil {
		return r, err
	}
	r.Scores, err = o.floatMap("scores")
	return r, err
}
