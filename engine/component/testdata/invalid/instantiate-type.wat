;; A nested component importing a function of one type, given another.
(component
  (import "g" (func $g))
  (component $c
    (import "f" (func (param "x" u32)))
  )
  (instance (instantiate $c (with "f" (func $g))))
)
