package eval

import (
	"bytes"
	"encoding/json"
	"math"
	"strconv"
	"strings"
)

// Float is a number written as Murmur's serde_json writes an f64: the
// shortest digits that read back the same, always with a fraction or an
// exponent (1.0, 0.5, 1e-7, 1e20), so files and --json output are
// byte-for-byte Murmur's.
type Float float64

// MarshalJSON writes f as serde_json does; NaN and infinities (which no
// decoded record holds) are null.
func (f Float) MarshalJSON() ([]byte, error) { return []byte(FormatFloat(float64(f))), nil }

// FormatFloat is f in serde_json's form (ryu's layout).
func FormatFloat(f float64) string {
	switch {
	case math.IsNaN(f) || math.IsInf(f, 0):
		return "null"
	case f == 0:
		if math.Signbit(f) {
			return "-0.0"
		}
		return "0.0"
	}
	e := strconv.FormatFloat(f, 'e', -1, 64) // [-]d[.ddd]e±XX, the shortest digits
	sign := ""
	if e[0] == '-' {
		sign, e = "-", e[1:]
	}
	mant, exp, _ := strings.Cut(e, "e")
	digits := strings.Replace(mant, ".", "", 1)
	x, _ := strconv.Atoi(exp)
	n := len(digits)
	kk := x + 1 // the value is 0.digits × 10^kk
	var s string
	switch {
	case kk >= n && kk <= 16:
		s = digits + strings.Repeat("0", kk-n) + ".0"
	case kk > 0 && kk <= 16:
		s = digits[:kk] + "." + digits[kk:]
	case kk > -5 && kk <= 0:
		s = "0." + strings.Repeat("0", -kk) + digits
	case n == 1:
		s = digits + "e" + strconv.Itoa(kk-1)
	default:
		s = digits[:1] + "." + digits[1:] + "e" + strconv.Itoa(kk-1)
	}
	return sign + s
}

// eventScoreLine and datasetRunLine are the records with their fields in
// the order Murmur writes them.
type eventScoreLine struct {
	RecordType string  `json:"record_type"`
	TS         uint64  `json:"ts"`
	Turn       uint32  `json:"turn"`
	EventType  string  `json:"event_type"`
	Scorer     string  `json:"scorer"`
	Result     string  `json:"result"`
	Score      *Float  `json:"score"`
	Reason     *string `json:"reason"`
}

type datasetRunLine struct {
	RecordType string           `json:"record_type"`
	TS         uint64           `json:"ts"`
	DatasetID  *string          `json:"dataset_id"`
	CaseID     *string          `json:"case_id"`
	Overall    string           `json:"overall"`
	Scores     map[string]Float `json:"scores"`
}

// Encode is an eval.jsonl of events and then run (when not nil), one
// record per line.
func Encode(events []EventScore, run *DatasetRun) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	for _, e := range events {
		line := eventScoreLine{RecordType: TypeEventScore, TS: e.TS, Turn: e.Turn, EventType: e.EventType,
			Scorer: e.Scorer, Result: e.Result, Reason: e.Reason}
		if e.Score != nil {
			s := Float(*e.Score)
			line.Score = &s
		}
		mustEncode(enc, line)
	}
	if run != nil {
		line := runLine(run)
		line.RecordType = TypeDatasetRun
		mustEncode(enc, line)
	}
	return b.Bytes()
}

func runLine(r *DatasetRun) datasetRunLine {
	scores := make(map[string]Float, len(r.Scores))
	for k, v := range r.Scores {
		scores[k] = Float(v)
	}
	return datasetRunLine{TS: r.TS, DatasetID: r.DatasetID, CaseID: r.CaseID, Overall: r.Overall, Scores: scores}
}

// mustEncode encodes v, which holds only strings, integers, Floats and
// maps of them: encoding/json cannot fail on it.
func mustEncode(enc *json.Encoder, v any) {
	if err := enc.Encode(v); err != nil {
		panic("eval: encoding a record: " + err.Error())
	}
}

// Summary is `mur eval show --json`: the keys sorted, as serde_json
// writes a json! object.
type Summary struct {
	DatasetRun *SummaryRun            `json:"dataset_run"`
	Overall    string                 `json:"overall"`
	Scorers    map[string]SummaryRate `json:"scorers"`
}

// SummaryRun is the dataset_run as Murmur serialises it through a JSON
// value (keys sorted).
type SummaryRun struct {
	CaseID    *string          `json:"case_id"`
	DatasetID *string          `json:"dataset_id"`
	Overall   string           `json:"overall"`
	Scores    map[string]Float `json:"scores"`
	TS        uint64           `json:"ts"`
}

// SummaryRate is one scorer's tally.
type SummaryRate struct {
	Fail     int   `json:"fail"`
	Pass     int   `json:"pass"`
	PassRate Float `json:"pass_rate"`
	Total    int   `json:"total"`
}

// Summarize is f's --json summary.
func Summarize(f *File) Summary {
	s := Summary{Overall: f.Overall(), Scorers: map[string]SummaryRate{}}
	for _, r := range f.Rates() {
		s.Scorers[r.Scorer] = SummaryRate{Fail: r.Fail, Pass: r.Pass, PassRate: Float(r.PassRate()), Total: r.Total()}
	}
	if f.Run != nil {
		l := runLine(f.Run)
		s.DatasetRun = &SummaryRun{CaseID: l.CaseID, DatasetID: l.DatasetID, Overall: l.Overall, Scores: l.Scores, TS: l.TS}
	}
	return s
}

// MarshalIndent is v as serde_json's to_string_pretty writes it (two
// spaces, no HTML escaping), with a final newline.
func MarshalIndent(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
