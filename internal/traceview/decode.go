package traceview

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"unicode/utf8"

	"github.com/mur-go/mur/internal/agent/trace"
	"github.com/mur-go/mur/internal/base/diag"
)

// MaxLine bounds one line of a trace. A real line stays far below it (a
// native tool's output is capped at 16 MiB a stream); past it the line is
// refused rather than read whole into memory.
const MaxLine = 64 << 20

// Decode reads a trace.jsonl from r; path names it in errors. It is
// lenient where Murmur's reader is: blank lines are skipped, an event of
// a type it does not know is skipped whole, a field it does not use is
// ignored. A line that is not a JSON object, an event without event_type,
// or a known event missing one of the fields the commands use or holding
// one of the wrong type is CodeTrace, as "PATH:LINE: what is wrong".
func Decode(r io.Reader, path string) (*Trace, error) {
	return decode(r, path, MaxLine)
}

// decode is Decode with lines of at most maxLine bytes.
func decode(r io.Reader, path string, maxLine int) (*Trace, error) {
	d := decoder{t: &Trace{Path: path, firstCall: map[uint32]uint64{}}, starts: map[[32]byte]taskStart{}}
	br := bufio.NewReader(r)
	for n := 1; ; n++ {
		line, err := readLine(br, maxLine)
		switch {
		case errors.Is(err, errLong):
			return nil, diag.New(CodeTrace, "%s:%d: line is longer than %d bytes (%d MiB); a trace line is far shorter", path, n, maxLine, maxLine>>20)
		case err != nil && err != io.EOF:
			return nil, diag.Wrap(CodeIO, err, "failed to read %s: %v", path, err)
		}
		if lerr := d.line(line); lerr != nil {
			return nil, diag.New(CodeTrace, "%s:%d: %v", path, n, lerr)
		}
		if err == io.EOF {
			d.t.Redundant = d.rereads.found
			return d.t, nil
		}
	}
}

var errLong = errors.New("line too long")

// readLine is the next line without its "\n" (nil, io.EOF at the end; a
// last line without one comes with io.EOF). It never holds more than
// max bytes: a longer line is errLong.
func readLine(br *bufio.Reader, max int) ([]byte, error) {
	var line []byte
	for {
		chunk, err := br.ReadSlice('\n')
		line = append(line, chunk...) // a chunk is at most the reader's buffer
		if n := len(line); n > max && (err != nil || n-1 > max) {
			return nil, errLong
		}
		switch {
		case err == nil:
			return line[:len(line)-1], nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case err == io.EOF && len(line) == 0:
			return nil, io.EOF
		}
		return line, err
	}
}

type taskStart struct{ context, source string }

type decoder struct {
	t       *Trace
	starts  map[[32]byte]taskStart // task_start by its task id's digest, until its task_end
	rereads rereads
}

// line decodes one line into the trace.
func (d *decoder) line(raw []byte) error {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return nil
	}
	if !utf8.Valid(raw) {
		return errors.New("the line is not valid UTF-8")
	}
	var o object
	if err := json.Unmarshal(raw, &o); err != nil {
		var typ *json.UnmarshalTypeError
		if errors.As(err, &typ) {
			return fmt.Errorf("expected a JSON object, found %s", typ.Value)
		}
		return err
	}
	typ, _, err := field[string](o, "event_type", required, "a string")
	if err != nil {
		return err
	}
	d.t.Events++
	r := &reader{o: o}
	switch typ {
	case trace.TypeSessionStart:
		d.sessionStart(r)
	case trace.TypeInference:
		tool := r.optStr("tool_name")
		inf := Inference{Turn: r.u32("turn", required), Decision: clean(r.str("decision", required))}
		if tool != nil {
			inf.Tool, inf.HasTool = clean(*tool), true
		}
		d.t.Inferences = append(d.t.Inferences, inf)
	case trace.TypeToolCall:
		d.toolCall(r)
	case trace.TypeSkillCall:
		c := SkillCall{Turn: r.u32("turn", defaulted), Skill: clean(r.str("skill_name", required)),
			DurationMS: r.u64("duration_ms", required), Status: clean(r.str("status", required))}
		if r.err == nil {
			d.t.SkillCalls = append(d.t.SkillCalls, c)
			d.first(c.Turn, c.DurationMS)
		}
	case trace.TypeShell:
		code, _ := r.i32("exit_code", required)
		d.t.Shells = append(d.t.Shells, Shell{ExitCode: code, DurationMS: r.u64("duration_ms", required)})
	case trace.TypeCompaction:
		d.t.Compaction = &Compaction{Turn: r.u32("turn", required), TokensBefore: r.u64("tokens_before", required), TokensAfter: r.u64("tokens_after", required)}
	case trace.TypeSessionEnd:
		d.t.End = &End{Turns: r.u32("total_turns", required), InputTokens: r.u64("total_input_tokens", required),
			OutputTokens: r.u64("total_output_tokens", required), ToolCalls: r.u32("total_tool_calls", required),
			ShellCalls: r.u32("total_shell_calls", required), DurationMS: r.u64("duration_ms", required),
			ExitStatus: clean(r.str("exit_status", required))}
	case trace.TypeTaskStart:
		id := r.str("task_id", required)
		s := taskStart{context: clean(r.str("context_id", required)), source: clean(r.str("source", required))}
		if r.err == nil {
			d.starts[sha256.Sum256([]byte(id))] = s
		}
	case trace.TypeTaskEnd:
		d.taskEnd(r)
	case trace.TypeTaskReopened:
		d.t.Reopens = append(d.t.Reopens, Reopen{Hook: clean(r.str("hook_name", required)), Reason: clean(r.str("reason", required)),
			Number: r.u32("reopen_number", required)})
	}
	return r.err
}

func (d *decoder) sessionStart(r *reader) {
	s := &Start{SessionID: clean(r.str("session_id", required)), Capsule: clean(r.str("capsule_name", required)),
		Version: clean(r.str("capsule_version", required)), Model: clean(r.str("model", required)), MaxTurns: r.u32("max_turns", required)}
	if raw := r.value("security_warnings"); raw != nil && r.err == nil {
		var ws []object
		if err := json.Unmarshal(raw, &ws); err != nil {
			r.err = fmt.Errorf("invalid type for `security_warnings`: %s, expected a list of objects", snippet(raw))
			return
		}
		for _, w := range ws {
			wr := &reader{o: w}
			s.Warnings = append(s.Warnings, Warning{Code: clean(wr.str("code", required)), Message: clean(wr.str("message", required))})
			if wr.err != nil {
				r.err = fmt.Errorf("security_warnings: %w", wr.err)
				return
			}
		}
	}
	d.t.Start = s
}

func (d *decoder) toolCall(r *reader) {
	c := ToolCall{Turn: r.u32("turn", defaulted), Tool: clean(r.str("tool_name", required)),
		DurationMS: r.u64("duration_ms", required), Status: clean(r.str("status", required)),
		Cancelled: r.boolean("cancelled")}
	raw := r.value("input")
	effect, resource := r.optStr("state_effect"), r.optStr("resource_id")
	c.ExitCode, c.HasExitCode = r.i32("exit_code", optional)
	if sig := r.optStr("signal"); sig != nil {
		c.Signal = clean(*sig)
	}
	if r.err != nil {
		return
	}
	var in input
	if raw != nil {
		var err error
		if in, err = readInput(raw); err != nil {
			r.err = fmt.Errorf("invalid `input`: %w", err)
			return
		}
		c.Input, c.Summary = in.inline, in.summary
	}
	d.rereads.call(c.Turn, c.Tool, deref(resource), deref(effect), in)
	d.t.ToolCalls = append(d.t.ToolCalls, c)
	d.first(c.Turn, c.DurationMS)
}

// first records a call's duration as its turn's unless one came before.
func (d *decoder) first(turn uint32, ms uint64) {
	if _, ok := d.t.firstCall[turn]; !ok {
		d.t.firstCall[turn] = ms
	}
}

func (d *decoder) taskEnd(r *reader) {
	id := r.str("task_id", required)
	t := Task{ExitStatus: clean(r.str("exit_status", required)), DurationMS: r.u64("duration_ms", required),
		Turns: r.u32("turns", required), InputTokens: r.u64("input_tokens", required), OutputTokens: r.u64("output_tokens", required),
		ToolCalls: r.u32("tool_calls", required), ShellCalls: r.u32("shell_calls", required), ReopenCount: r.u32("reopen_count", defaulted)}
	key := sha256.Sum256([]byte(id))
	s, ok := d.starts[key]
	if r.err != nil || !ok {
		return
	}
	delete(d.starts, key)
	t.ID, t.ContextID, t.Source = clean(id), s.context, s.source
	d.t.Tasks = append(d.t.Tasks, t)
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
