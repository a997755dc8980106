;; Two resources are never interchangeable: f wants own<a> and gets a
;; function taking own<b>.
(component
  (import "r1" (type $r1 (sub resource)))
  (import "r2" (type $r2 (sub resource)))
  (import "g" (func $g (param "x" (own $r2))))
  (component $c
    (import "a" (type $a (sub resource)))
    (import "b" (type $b (sub resource)))
    (import "f" (func (param "x" (own $a))))
  )
  (instance (instantiate $c (with "a" (type $r1)) (with "b" (type $r2)) (with "f" (func $g))))
)
