;; [method]r.m and [static]r.m map to the same identifier.
(component
  (import "r" (type $r (sub resource)))
  (import "[method]r.m" (func (param "self" (borrow $r))))
  (import "[static]r.m" (func))
)
