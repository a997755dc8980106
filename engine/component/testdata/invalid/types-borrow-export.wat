;; An exported type containing a borrow.
(component
  (import "r" (type $r (sub resource)))
  (type $b (list (borrow $r)))
  (export "b" (type $b))
)
