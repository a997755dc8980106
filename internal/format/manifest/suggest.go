package manifest

import "strings"

// suggest returns the known key closest to key, or "" when nothing is close
// enough to be a plausible typo. "Close" scales with length so short keys
// (env, tags) do not attract unrelated suggestions.
func suggest(key string, known []string) string {
	best, bestD := "", 1<<30
	for _, k := range known {
		d := editDistance(key, k)
		if d < bestD {
			best, bestD = k, d
		}
	}
	limit := 2
	if len(key) <= 4 {
		limit = 1
	}
	if bestD == 0 {
		return ""
	}
	if bestD <= limit {
		return best
	}
	// A truncated key ("after" for "after_task") is a plausible slip too.
	if len(key) >= 3 {
		for _, k := range known {
			if strings.HasPrefix(k, key) {
				return k
			}
		}
	}
	return ""
}

// editDistance is the Damerau (optimal string alignment) distance, so a
// transposition such as "capabilites"/"capabilities" costs one edit.
func editDistance(a, b string) int {
	if len(a) > 64 || len(b) > 64 {
		return 1 << 20 // no sensible suggestion for huge keys; keep it cheap
	}
	prev2 := make([]int, len(b)+1)
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}
