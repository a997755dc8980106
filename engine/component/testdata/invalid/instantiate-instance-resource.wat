;; An instance argument whose function uses the wrong resource.
(component
  (import "r1" (type $r1 (sub resource)))
  (import "r2" (type $r2 (sub resource)))
  (import "g" (func $g (param "x" (own $r2))))
  (instance $arg (export "r" (type $r1)) (export "f" (func $g)))
  (component $c
    (import "i" (instance
      (export "r" (type $r (sub resource)))
      (export "f" (func (param "x" (own $r))))
    ))
  )
  (instance (instantiate $c (with "i" (instance $arg))))
)
