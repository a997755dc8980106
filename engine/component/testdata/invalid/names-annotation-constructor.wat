;; A constructor that does not return own<r>.
(component
  (import "r" (type $r (sub resource)))
  (import "[constructor]r" (func (result u32)))
)
