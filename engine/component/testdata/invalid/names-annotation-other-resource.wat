;; A method of r taking self as borrow of another resource.
(component
  (import "r" (type $r (sub resource)))
  (import "s" (type $s (sub resource)))
  (import "[method]r.m" (func (param "self" (borrow $s))))
)
