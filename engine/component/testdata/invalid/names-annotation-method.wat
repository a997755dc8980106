;; A method whose first parameter is not self: borrow<r>.
(component
  (import "r" (type $r (sub resource)))
  (import "[method]r.m" (func (param "this" (borrow $r))))
)
