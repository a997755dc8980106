package canon

import (
	"fmt"

	"github.com/mur-go/mur/engine/wit"
)

// DefaultLiftBudget bounds one lift when Options.LiftBudget is zero: 4 GiB,
// as much as a 32-bit linear memory can hold. Without a budget a value a
// few kilobytes long in guest memory (one buffer aliased by many strings,
// a long list of one-byte elements each boxed on the host) can make the
// host allocate without bound.
const DefaultLiftBudget = 4 << 30

// Host bytes charged for one dynamic value besides the contents of its
// strings and lists: the interface slot holding it plus what it boxes.
// They approximate the Go runtime's sizes on 64-bit platforms; they need
// only be fair, so that a lift's cost stays proportional to its budget.
const (
	hostSlot    = 16 // an any
	hostWord    = 8  // a boxed scalar, enum case or flags
	hostString  = 16 // a string header
	hostSlice   = 24 // a slice header
	hostVariant = 24 // wit.VariantValue, OptionValue, ResultValue
	hostHandle  = 16 // wit.Resource
)

// BudgetError reports a lift that would allocate more host memory than its
// budget (Options.LiftBudget). It is the guest's doing, but a limit, not a
// malformed value, so it is kept apart from Trap.
type BudgetError struct {
	// Desired is what the lift had charged when it stopped, Max the budget.
	Desired, Max uint64
}

func (e *BudgetError) Error() string {
	return fmt.Sprintf("canon: lifting the value needs more than %d bytes of host memory (its budget is %d bytes)", e.Desired, e.Max)
}

// charge accounts for n more bytes the lift is about to allocate on the
// host, failing once the lift's total passes its budget. Every host
// allocation of a lift goes through it first, in both the dynamic and the
// typed paths.
func (c *call) charge(n uint64) error {
	c.spent += n
	if c.spent > c.budget {
		return &BudgetError{Desired: c.spent, Max: c.budget}
	}
	return nil
}

// chargeList accounts for a list of n elements of per bytes each (their
// fixed part; strings and lists inside are charged as they are lifted).
func (c *call) chargeList(n uint32, per uint64) error {
	return c.charge(uint64(n) * per)
}

// dynamicHost is what one dynamic value of t costs on the host, besides
// the contents of its strings and lists (see the host* constants). t's
// parts are complete when it is called.
func dynamicHost(t *Type) uint64 {
	switch t.kind {
	case wit.KindString:
		return hostSlot + hostString
	case wit.KindList, wit.KindFixedList, wit.KindMap:
		// A fixed-length list's elements are charged when it is lifted,
		// as a list's are: counting them here too would charge a list of
		// them twice.
		return hostSlot + hostSlice
	case wit.KindRecord, wit.KindTuple:
		n := uint64(hostSlot + hostSlice)
		for _, f := range t.fields {
			n += f.t.host
		}
		return n
	case wit.KindVariant, wit.KindOption, wit.KindResult:
		var payload uint64
		for _, c := range t.cases {
			if c != nil {
				payload = max(payload, c.host)
			}
		}
		return hostSlot + hostVariant + payload
	case wit.KindOwn, wit.KindBorrow:
		return hostSlot + hostHandle
	}
	return hostSlot + hostWord
}

// typedHost is what one Go value of plan p's type costs on the host,
// besides the contents of its strings and lists: its own size plus what it
// points to (an option's payload, a dynamic value).
func typedHost(p *plan) uint64 {
	n := uint64(p.goSize)
	switch p.op {
	case opRecord:
		for _, f := range p.fields {
			n += f.plan.host - uint64(f.plan.goSize)
		}
	case opFixed:
		// The array is inline; its elements' pointed-to parts are not.
		n += uint64(p.t.n) * (p.elem.host - uint64(p.elem.goSize))
	case opOption:
		n += p.elem.host
	case opDynamic:
		n += p.t.host
	}
	return n
}
