package eval

import (
	"cmp"
	"math"
	"slices"
)

// Delta is how run B's pass rate for a scorer compares with run A's.
type Delta int

const (
	// Equal: the rates differ by less than 0.1 percentage point.
	Equal Delta = iota
	ABetter
	BBetter
	// AOnly and BOnly: only one run has the scorer.
	AOnly
	BOnly
)

// DiffRow is one scorer of `mur eval diff`: its tally in each run (nil
// where the run has none).
type DiffRow struct {
	Scorer string
	A, B   *Rate
}

// Diff lines up the scorers of two eval files, sorted by name.
func Diff(a, b *File) []DiffRow {
	byName := map[string]*DiffRow{}
	var rows []*DiffRow
	add := func(rates []ScorerRate, set func(*DiffRow, *Rate)) {
		for _, r := range rates {
			row := byName[r.Scorer]
			if row == nil {
				row = &DiffRow{Scorer: r.Scorer}
				byName[r.Scorer] = row
				rows = append(rows, row)
			}
			set(row, &r.Rate)
		}
	}
	add(a.Rates(), func(d *DiffRow, r *Rate) { d.A = r })
	add(b.Rates(), func(d *DiffRow, r *Rate) { d.B = r })
	slices.SortFunc(rows, func(x, y *DiffRow) int { return cmp.Compare(x.Scorer, y.Scorer) })
	out := make([]DiffRow, len(rows))
	for i, r := range rows {
		out[i] = *r
	}
	return out
}

// Delta is how the runs compare on the row's scorer, and by how many
// percentage points B's pass rate is above A's (for ABetter and
// BBetter).
func (d DiffRow) Delta() (Delta, float64) {
	switch {
	case d.A == nil:
		return BOnly, 0
	case d.B == nil:
		return AOnly, 0
	}
	diff := d.B.PassRate() - d.A.PassRate()
	switch {
	case math.Abs(diff) < 0.001:
		return Equal, 0
	case diff > 0:
		return BBetter, diff * 100
	}
	return ABetter, diff * 100
}
