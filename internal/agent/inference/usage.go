package inference

import "encoding/json"

// Usage is a driver response's usage block (session.md §13), the
// provider's own counts.
type Usage struct {
	InputTokens      *uint64 `json:"input_tokens,omitempty"`
	OutputTokens     *uint64 `json:"output_tokens,omitempty"`
	CachedTokens     *uint64 `json:"cached_tokens,omitempty"`
	CacheWriteTokens *uint64 `json:"cache_write_tokens,omitempty"`
	ThinkingTokens   *uint64 `json:"thinking_tokens,omitempty"`
}

// ParseUsage is the usage block of a raw driver response; ok is false
// when there is none, it is not an object of counts, or it has no count
// but input_tokens (§13: that counts as no report).
func ParseUsage(raw string) (u Usage, ok bool) {
	var v struct {
		Usage *Usage `json:"usage"`
	}
	if json.Unmarshal([]byte(raw), &v) != nil || v.Usage == nil {
		return Usage{}, false
	}
	u = *v.Usage
	if u.OutputTokens == nil && u.CachedTokens == nil && u.CacheWriteTokens == nil && u.ThinkingTokens == nil {
		return Usage{}, false
	}
	return u, true
}

// Request is the request side as §13 settles it: input + cached +
// cache_write.
func (u Usage) Request() uint64 {
	return sat(sat(val(u.InputTokens), val(u.CachedTokens)), val(u.CacheWriteTokens))
}

// Completion is the output; thinking is not added (the providers count it
// inside the output already).
func (u Usage) Completion() uint64 { return val(u.OutputTokens) }

// Settle is what a completed call costs: the provider's counts when it
// reported usage, else the runtime's estimates of input and output.
func Settle(u Usage, reported bool, inputEstimate, outputEstimate uint64) uint64 {
	if reported {
		return sat(u.Request(), u.Completion())
	}
	return sat(inputEstimate, outputEstimate)
}

// SettleFailed is what a failed call costs: its reported usage, else its
// input estimate (the provider read the prompt even if it answered
// nothing).
func SettleFailed(u Usage, reported bool, inputEstimate uint64) uint64 {
	if reported {
		return sat(u.Request(), u.Completion())
	}
	return inputEstimate
}

// sat is a + b, saturating: a provider reporting absurd counts must make
// the meter fuller, never wrap it back to empty.
func sat(a, b uint64) uint64 {
	if a+b < a {
		return ^uint64(0)
	}
	return a + b
}

func val(p *uint64) uint64 {
	if p == nil {
		return 0
	}
	return *p
}
